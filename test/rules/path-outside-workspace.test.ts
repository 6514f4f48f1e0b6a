import rule from '../../rules/path-outside-workspace/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'echo x > /tmp/agent.log 2>/dev/null',
    'cat ./notes.md >> ./log/out.txt',
    'find docs -newer /tmp/stamp -name "*.md"',
    'cp report.json "$TMPDIR/report.json"',
    'cp report.json "${TMPDIR}/r.json"',
    'echo "see /etc/hosts" > /dev/stderr',
    'grep -r "/etc/passwd" src/',
    "sed 's/a/b/' file > /dev/null",
    "awk '/start/ {print}' notes.txt",
    'ls /tmp',
    '/usr/bin/env node script.js',
    '# cat ~/.ssh/id_rsa\necho ok',
    'exec 3>&1 2>&1',
    'cat /proc/self/status',
    { name: 'an allowed prefix', code: 'cat /opt/shared/cache.json', options: { allowedPaths: ['/opt/shared'] } },
    { name: 'a variable set to a relative path', code: 'D=./out\nrm -f "$D/x"' },
    { name: 'a variable set to the temporary directory', code: 'F=/tmp/agent.log\necho x >> "$F"' },
    { name: 'a variable the script computes', code: 'D=$(mktemp -d)\nrm -f "$D/x"' },
    { name: 'cd back', code: 'cd - >/dev/null' },
    { name: 'a relative path that stays inside', code: 'cat ./docs/../README.md src/a/../../b.txt' },
    { name: 'a relative path after cd', code: 'cd ./packages/a && cat ../../README.md' },
    { name: 'an absolute path whose .. stays in /tmp', code: 'cat /tmp/a/../b.log' },
    { name: "curl's URL is not a file", code: 'curl -s -o ./out.json https://example.com/etc/x' },
  ],
  reject: [
    // `..` climbs out of the workspace (relative, while the script stays where it started) or out of an allowed place.
    {
      name: 'a relative path that climbs out',
      code: 'cat ../../etc/passwd',
      errors: [{ messageId: 'outside', line: 1, column: 5, endColumn: 21, message: /`\.\.\/\.\.\/etc\/passwd`/ }],
    },
    { name: 'a redirect to the parent', code: 'echo x >> ../notes.md', errors: [{ line: 1, column: 11, endColumn: 22 }] },
    { name: '.. through an inside directory', code: 'cp secrets ./a/../../x', errors: [{ line: 1, column: 12, endColumn: 23 }] },
    { name: '/tmp/.. is /', code: 'cat /tmp/../etc/shadow', errors: [{ line: 1, column: 5, endColumn: 23 }] },
    {
      name: 'redirect into /etc',
      code: 'echo x > /etc/x',
      errors: [{ messageId: 'outside', severity: 'warning', line: 1, column: 10, endColumn: 16 }],
    },
    { name: 'cp into /usr', code: 'cp tool /usr/local/bin/tool', errors: [{ line: 1, column: 9, endColumn: 28 }] },
    { name: 'rm under /var', code: 'rm -f /var/log/agent.log', errors: [{ line: 1, column: 7, endColumn: 25 }] },
    // A variable the script sets to a static path is that path.
    {
      name: 'a path through a variable',
      code: 'D=/etc\nrm -f "$D/passwd"',
      errors: [{ line: 2, column: 7, endColumn: 18, message: /`\/etc\/passwd`/ }],
    },
    { name: 'a redirect through a variable', code: 'F=~/.bashrc\necho x >> $F', errors: [{ line: 2, column: 11, endColumn: 13 }] },
    { name: 'cd out of the workspace', code: 'cd /etc && cat passwd', errors: [{ line: 1, column: 4, endColumn: 8 }] },
    { name: 'unlink', code: 'unlink /etc/x', errors: [{ line: 1, column: 8 }] },
    { name: "curl's output file", code: 'curl -fsSL -o /usr/local/bin/x https://x', errors: [{ line: 1, column: 15, endColumn: 31 }] },
    { name: "wget's output document", code: 'wget -qO /usr/local/bin/x https://x', errors: [{ line: 1, column: 10, endColumn: 26 }] },
    { name: 'a home secret', code: 'cat ~/.ssh/id_rsa', errors: [{ line: 1, column: 5, endColumn: 18, message: /`~\/.ssh\/id_rsa`/ }] },
    {
      name: '$HOME',
      code: 'cat "$HOME/.aws/credentials"',
      errors: [{ line: 1, column: 5, endColumn: 29, message: /`~\/.aws\/credentials`/ }],
    },
    {
      name: 'reading a file from /etc',
      code: 'while read -r l; do echo "$l"; done < /etc/passwd',
      errors: [{ line: 1, column: 39, endColumn: 50 }],
    },
    { name: 'grep with a file outside', code: 'grep root /etc/shadow', errors: [{ line: 1, column: 11, endColumn: 22 }] },
    { name: 'dd of=', code: 'dd if=/dev/zero of=/var/x bs=1 count=1', errors: [{ line: 1, column: 20, endColumn: 26 }] },
    { name: 'a path that only starts like /tmp', code: 'touch /tmpfile', errors: [{ line: 1, column: 7, endColumn: 15 }] },
  ],
});
