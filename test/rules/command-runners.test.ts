// Commands a hook runs without naming them as a command: through another
// program's option (tar, git, ssh, rsync, npx, zip, netcat, socat, vim, sed),
// an alias, or a name joined from variables. Each is read as the command it
// runs, at its own place; the same programs' ordinary options are not.
import commandRmRf from '../../rules/command-rm-rf/index.js';
import networkAccess from '../../rules/network-access/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** The one finding of `rm -rf ./w` (or `rm -rf "$1"`…) written at `column` of line 1, `length` characters long. */
const rmAt = (column: number, length = 10) => [{ line: 1, column, endColumn: column + length }];

ruleTester(commandRmRf, {
  accept: [
    { name: 'a git setting that is not a command', code: 'git -c user.name=bot -c core.pager=cat log -1' },
    { name: 'a git pager turned off', code: 'git -c pager.log=false log && git -c core.fsmonitor=true status' },
    { name: "git commit's own -c", code: "git commit -c HEAD -m 'rm -rf'" },
    { name: 'a git alias that is not a shell command', code: "git -c alias.st='status -sb' st" },
    { name: 'tar with a compressor', code: 'tar -I zstd -xf out.tar.zst && tar --use-compress-program=pigz -cf a.tgz .' },
    { name: 'a tar checkpoint that only counts', code: 'tar --checkpoint=100 --checkpoint-action=dot -cf a.tar .' },
    { name: 'ssh without a proxy command', code: 'ssh -o ProxyCommand=none -o BatchMode=yes host true' },
    { name: "a tool's own -c after npx's options", code: "npx -p eslint eslint -c 'rm -rf.json' ." },
    { name: 'npm run with -c', code: "npm run build -- -c 'rm -rf ./x'" },
    { name: "OpenBSD nc's -c (TLS) before a host", code: 'nc -c example.com 443 </dev/null' },
    { name: 'sed without an e command', code: "sed -e 's/^/e rm -rf /' -e '/x/d' f.txt && sed 's/a;e b/x/' f.txt" },
    { name: 'a sed script from a file', code: 'sed -f edits.sed f.txt' },
    { name: 'vim opening a file at a line', code: "vim +10 -c ':wq' f.txt" },
    { name: 'an alias of something else', code: "alias ll='ls -l'\nll ./x" },
    { name: 'an alias used before it is defined', code: "zap ./w\nalias zap='rm -rf'" },
    { name: 'an alias with two definitions', code: "alias zap='rm -rf'\nalias zap='echo'\nzap ./w" },
    { name: 'a joined name the script does not know', code: 'x=r\nx=$(cat name)\ny=m\n$x$y -rf ./w' },
    { name: 'a joined name of something else', code: 'x=l; y=s\n$x$y -rf ./w' },
  ],
  reject: [
    {
      name: 'tar --checkpoint-action=exec',
      code: "tar -cf a.tar . --checkpoint=1 --checkpoint-action=exec='rm -rf ./w'",
      errors: rmAt(58),
    },
    { name: 'tar --to-command', code: "tar -xf a.tar --to-command 'rm -rf ./w'", errors: rmAt(29) },
    { name: 'tar -I', code: "tar -I 'rm -rf ./w' -xf a.tar", errors: rmAt(9) },
    { name: 'git -c core.pager', code: "git -c core.pager='rm -rf ./w' log", errors: rmAt(20) },
    { name: 'git -c core.sshCommand, after -C', code: "git -C repo -c core.sshCommand='rm -rf ./w' fetch", errors: rmAt(33) },
    { name: 'a git alias running a shell command', code: "git -c alias.x='!rm -rf ./w' x", errors: rmAt(18) },
    { name: 'git --upload-pack', code: "git clone --upload-pack='rm -rf ./w;' . out", errors: rmAt(26) },
    { name: 'ssh -o ProxyCommand', code: "ssh -o ProxyCommand='rm -rf ./w' host", errors: rmAt(22) },
    { name: 'ssh -o "LocalCommand …"', code: "ssh -o 'LocalCommand rm -rf ./w' -o PermitLocalCommand=yes host", errors: rmAt(22) },
    { name: 'scp -oProxyCommand=', code: "scp '-oProxyCommand=rm -rf ./w' a host:b", errors: rmAt(21) },
    { name: 'rsync -e', code: 'rsync -e \'sh -c "rm -rf ./w"\' a host:b', errors: rmAt(18) },
    { name: 'rsync --rsh=, in a cluster', code: "rsync -avze 'rm -rf ./w' a host:b", errors: rmAt(14) },
    { name: 'npx -c', code: "npx -c 'rm -rf ./w'", errors: rmAt(9) },
    { name: 'npm exec --call=', code: "npm exec --call='rm -rf ./w'", errors: rmAt(18) },
    { name: 'zip -TT', code: "zip -T -TT 'rm -rf ./w' a.zip f", errors: rmAt(13) },
    { name: 'ncat --sh-exec', code: "ncat --sh-exec 'rm -rf ./w' host 80", errors: rmAt(17) },
    { name: 'nc -c with a command line', code: "nc -c 'rm -rf ./w' host 80", errors: rmAt(8) },
    { name: 'socat SYSTEM:', code: "socat - SYSTEM:'rm -rf ./w',pty", errors: rmAt(17) },
    { name: 'vim -c with !', code: "vim -c ':!rm -rf ./w' -c ':q'", errors: rmAt(11) },
    { name: 'vim +silent !', code: "vim '+silent !rm -rf ./w' +q", errors: rmAt(15) },
    { name: "sed's e command", code: "sed -n '1e rm -rf ./w' f.txt", errors: rmAt(12) },
    { name: "sed's e command after another, with -e", code: "sed -e 'p;/x/e rm -rf ./w' f.txt", errors: rmAt(16) },
    { name: 'an alias', code: "shopt -s expand_aliases\nalias zap='rm -rf'\nzap ./w", errors: [{ line: 3, column: 1, endColumn: 8 }] },
    { name: 'an alias on the same line', code: "alias zap='rm -rf'; zap ./w", errors: rmAt(21, 7) },
    { name: 'a name joined from two variables', code: 'x=r; y=m\n$x$y -rf ./w', errors: [{ line: 2, column: 1, endColumn: 13 }] },
    { name: 'a name joined from a variable and a letter', code: 'P=r\n"${P}m" -rf ./w', errors: [{ line: 2, column: 1, endColumn: 16 }] },
  ],
});

ruleTester(networkAccess, {
  accept: [{ name: 'rsync -e ssh to a local path', code: "rsync -a -e 'ssh -p 2222' ./a ./b" }],
  reject: [
    {
      name: "rsync's remote shell is the rsync's own connection, reported once",
      code: "rsync -avz -e 'ssh -p 2222' ./dist/ host:/srv/app/",
      errors: [{ messageId: 'tool', line: 1, column: 1, endColumn: 51 }],
    },
    {
      name: 'a proxy command reaching the network',
      code: "ssh -o ProxyCommand='curl -s https://x.example/p' host",
      errors: [
        { messageId: 'tool', line: 1, column: 1, endColumn: 55 },
        { messageId: 'tool', line: 1, column: 22, endColumn: 49 },
      ],
    },
  ],
});
