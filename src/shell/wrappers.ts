/**
 * Options of wrapper commands that take a value, so `sudo -u root rm` finds
 * `rm` and not `root`.
 */
export const WRAPPERS: Record<string, { optionsWithValue: string[]; positional?: number; lookupOptions?: string }> = {
  sudo: { optionsWithValue: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'] },
  doas: { optionsWithValue: ['-u', '-C'] },
  env: { optionsWithValue: ['-u', '-C', '-S'] },
  nohup: { optionsWithValue: [] },
  setsid: { optionsWithValue: [] },
  time: { optionsWithValue: ['-f', '-o'] },
  nice: { optionsWithValue: ['-n'] },
  ionice: { optionsWithValue: ['-c', '-n', '-p'] },
  timeout: { optionsWithValue: ['-k', '-s', '--kill-after', '--signal'], positional: 1 },
  stdbuf: { optionsWithValue: ['-i', '-o', '-e'] },
  command: { optionsWithValue: [], lookupOptions: 'vV' }, // `command -v curl` prints how `curl` is found, and runs nothing.
  builtin: { optionsWithValue: [] },
  exec: { optionsWithValue: ['-a'] },
  xargs: { optionsWithValue: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a'] },
  chroot: { optionsWithValue: [], positional: 1 },
  unbuffer: { optionsWithValue: [] },
  busybox: { optionsWithValue: [] },
  coproc: { optionsWithValue: [] },
  watch: { optionsWithValue: ['-n', '--interval', '-q', '--equexit'] },
  flock: { optionsWithValue: ['-w', '--timeout', '-E', '--conflict-exit-code'], positional: 1 },
  sshpass: { optionsWithValue: ['-p', '-f', '-d', '-P'] },
};
