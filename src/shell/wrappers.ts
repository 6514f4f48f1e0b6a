/**
 * Options of wrapper commands that take a value, so `sudo -u root rm` and
 * `sudo --user root rm` find `rm` and not `root`. A long option whose value is
 * optional (`xargs --replace[=R]`) takes it only after `=` and is not listed.
 */
export const WRAPPERS: Record<string, { optionsWithValue: string[]; positional?: number; lookupOptions?: RegExp }> = {
  sudo: {
    optionsWithValue: [
      ...['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-R', '-T'],
      ...[
        '--user',
        '--group',
        '--close-from',
        '--chdir',
        '--host',
        '--prompt',
        '--role',
        '--type',
        '--other-user',
        '--chroot',
        '--command-timeout',
      ],
    ],
  },
  doas: { optionsWithValue: ['-u', '-C'] },
  env: { optionsWithValue: ['-u', '-C', '-S', '--unset', '--chdir', '--split-string'] },
  nohup: { optionsWithValue: [] },
  setsid: { optionsWithValue: [] },
  time: { optionsWithValue: ['-f', '-o', '--format', '--output'] },
  nice: { optionsWithValue: ['-n', '--adjustment'] },
  ionice: { optionsWithValue: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid'] },
  timeout: { optionsWithValue: ['-k', '-s', '--kill-after', '--signal'], positional: 1 },
  // GNU coreutils as Homebrew installs them on macOS.
  gtimeout: { optionsWithValue: ['-k', '-s', '--kill-after', '--signal'], positional: 1 },
  stdbuf: { optionsWithValue: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  command: { optionsWithValue: [], lookupOptions: /^-[A-Za-z]*[vV]/ }, // `command -v curl` prints how `curl` is found, and runs nothing.
  builtin: { optionsWithValue: [] },
  exec: { optionsWithValue: ['-a'] },
  xargs: {
    optionsWithValue: [
      ...['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a'],
      ...['--max-lines', '--max-args', '--max-procs', '--max-chars', '--delimiter', '--arg-file', '--process-slot-var', '--eof'],
    ],
  },
  // GNU parallel runs its command once per input line or `:::` argument.
  parallel: {
    optionsWithValue: [
      ...['-j', '-S', '-a', '-d', '-n', '-N', '-L', '-I', '-E', '-C'],
      ...['--jobs', '--sshlogin', '--arg-file', '--delimiter', '--max-args', '--delay', '--timeout', '--joblog', '--results'],
      ...['--tmpdir', '--colsep', '--halt', '--memfree', '--load', '--retries'],
    ],
  },
  chroot: { optionsWithValue: ['--userspec', '--groups'], positional: 1 },
  unbuffer: { optionsWithValue: [] },
  busybox: { optionsWithValue: [] },
  coproc: { optionsWithValue: [] },
  watch: { optionsWithValue: ['-n', '--interval', '-q', '--equexit'] },
  flock: { optionsWithValue: ['-w', '--timeout', '--wait', '-E', '--conflict-exit-code'], positional: 1 },
  sshpass: { optionsWithValue: ['-p', '-f', '-d', '-P'] },
  // moreutils' chronic (output only on failure), libeatmydata, nocache: the command runs as given.
  chronic: { optionsWithValue: [] },
  eatmydata: { optionsWithValue: [] },
  nocache: { optionsWithValue: [] },
  // CPU affinity and real-time priority come first as a positional word (`taskset 0x3 cmd`, `chrt -f 99 cmd`); `-p` acts on a PID.
  taskset: { optionsWithValue: [], positional: 1, lookupOptions: /^-[A-Za-z]*p/ },
  chrt: { optionsWithValue: ['-T', '-P', '-D'], positional: 1, lookupOptions: /^-[A-Za-z]*p/ },
  // Tracers run the command they trace.
  strace: { optionsWithValue: ['-o', '-e', '-p', '-s', '-u', '-E', '-P', '-a', '-b', '-I', '-O', '-S', '-X', '-U'] },
  ltrace: { optionsWithValue: ['-o', '-e', '-p', '-s', '-u', '-n', '-a', '-l', '-x', '-F', '-A', '-D'] },
  fakeroot: { optionsWithValue: ['-l', '-s', '-i', '-b', '--lib', '--faked'] },
  unshare: { optionsWithValue: ['-S', '-G', '-R', '-w', '--setuid', '--setgid', '--root', '--wd'] },
  // Network proxies run the client they proxy.
  proxychains: { optionsWithValue: ['-f'] },
  proxychains4: { optionsWithValue: ['-f'] },
  torsocks: { optionsWithValue: ['-u', '-p', '-a', '-P'] },
  torify: { optionsWithValue: [] },
  'systemd-run': {
    optionsWithValue: [
      ...['-u', '-p', '-E', '-M', '-H', '-d'],
      ...['--unit', '--property', '--setenv', '--machine', '--host', '--slice', '--description', '--uid', '--gid', '--nice'],
      ...['--working-directory', '--on-active', '--on-calendar'],
    ],
  },
};
