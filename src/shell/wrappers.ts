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
  stdbuf: { optionsWithValue: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  command: { optionsWithValue: [], lookupOptions: /^-[A-Za-z]*[vV]/ }, // `command -v curl` prints how `curl` is found, and runs nothing.
  builtin: { optionsWithValue: [] },
  exec: { optionsWithValue: ['-a'] },
  xargs: {
    optionsWithValue: [
      ...['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a'],
      ...['--max-lines', '--max-args', '--max-procs', '--max-chars', '--delimiter', '--arg-file', '--process-slot-var'],
    ],
  },
  chroot: { optionsWithValue: ['--userspec', '--groups'], positional: 1 },
  unbuffer: { optionsWithValue: [] },
  busybox: { optionsWithValue: [] },
  coproc: { optionsWithValue: [] },
  watch: { optionsWithValue: ['-n', '--interval', '-q', '--equexit'] },
  flock: { optionsWithValue: ['-w', '--timeout', '--wait', '-E', '--conflict-exit-code'], positional: 1 },
  sshpass: { optionsWithValue: ['-p', '-f', '-d', '-P'] },
};
