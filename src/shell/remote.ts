import { commandBase, shellName, shellScriptArgument } from './analysis.js';
import { takesNextWord, type PlainCommand, type PlainWord } from './commands.js';

/**
 * Commands that run a command elsewhere: in a container (`docker exec C
 * cmd…`, `docker run IMAGE cmd…`, podman's, `kubectl exec POD -- cmd…`) or
 * on another host (`ssh HOST cmd…`). What a container runs reaches the host
 * where its files are mounted (`docker run -v "$PWD":/w … rm -rf /w`) and in
 * the time the hook waits for it; text re-parsed as shell code is an
 * injection wherever it runs: a container's `sh -c "$X"`, and every command
 * ssh sends (joined with spaces, it is read by the remote user's shell).
 */
const DOCKER: Readonly<Record<string, readonly string[]>> = {
  exec: ['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys'],
  run: [
    ...['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '-v', '--volume', '--mount', '--name', '--network', '--net'],
    ...['-p', '--publish', '--entrypoint', '-l', '--label', '--platform', '-m', '--memory', '--cpus', '-h', '--hostname'],
    ...['--add-host', '--device', '--cap-add', '--cap-drop', '--security-opt', '--restart', '--pull', '--tmpfs', '--ulimit'],
    ...['--gpus', '--shm-size', '--pid', '--ipc', '--runtime', '--cidfile', '--dns', '--expose', '--link', '--volumes-from'],
    ...['--log-driver', '--log-opt', '--stop-signal', '--stop-timeout', '-a', '--attach', '--group-add', '--userns', '--uts'],
  ],
};
const CONTAINER_RUNNERS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  docker: DOCKER,
  podman: DOCKER,
  nerdctl: DOCKER,
  kubectl: { exec: ['-c', '--container', '-n', '--namespace', '-f', '--filename', '--pod-running-timeout', '--context', '--kubeconfig'] },
};

/** Options of the runners themselves, before their subcommand (`docker --context x exec`, `kubectl -n ns exec`). */
const GLOBAL_OPTIONS = [
  ...['-H', '--host', '-c', '--context', '--config', '-l', '--log-level'],
  ...['-n', '--namespace', '--kubeconfig', '-s', '--server'],
];

const SSH_OPTIONS = [
  ...['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l'],
  ...['-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'],
];

/** The command a container runner runs inside (`docker exec app sh -c …` gives `sh -c …`), placed where its words are. */
export function containerCommand<C extends PlainCommand>(command: C): C | undefined {
  return containerRun(command)?.inner;
}

/**
 * The command a container runner runs, and whether the container sees the
 * host's files: a `run` that bind-mounts a host path (`-v "$PWD":/w`,
 * `--volume ./src:/src`, `--mount type=bind,…`). A named volume (`-v data:/d`)
 * is the container's own; what `exec` sees is not written here.
 */
export function containerRun<C extends PlainCommand>(command: C): { inner: C; mountsHost: boolean } | undefined {
  const runner = commandBase(command);
  if (runner === undefined || !Object.hasOwn(CONTAINER_RUNNERS, runner)) return undefined;
  const subcommands = CONTAINER_RUNNERS[runner]!;
  const args = command.args;
  const at = skipOptions(args, 0, GLOBAL_OPTIONS);
  const sub = args[at]?.value;
  const withValue = sub !== undefined && Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
  if (sub === undefined || !withValue) return undefined;
  let index = skipOptions(args, at + 1, withValue) + 1; // the container, pod or image
  const mountsHost = sub === 'run' && args.slice(at + 1, index - 1).some((arg, i, options) => bindsHostPath(arg, options[i + 1]));
  if (args[index]?.value === '--') index++;
  const inner = args[index];
  if (!inner) return undefined;
  return { inner: { ...command, name: inner, args: args.slice(index + 1), start: inner.start, wrappedBy: `${runner} ${sub}` }, mountsHost };
}

/** `-v SRC:DST` (or `--volume`, `--mount type=bind,…`, with `=` or the next word) whose source is a host path. */
function bindsHostPath(option: PlainWord, next: PlainWord | undefined): boolean {
  const text = option.value ?? option.text;
  const joined = /^(?:-v|--volume|--mount)=(.*)$/s.exec(text);
  const name = joined ? text.slice(0, text.indexOf('=')) : text;
  const value = joined ? joined[1]! : /^(?:-v|--volume|--mount)$/.test(name) ? (next?.value ?? next?.text) : undefined;
  if (value === undefined) return false;
  const bare = value.replace(/^["']/, '');
  return name === '--mount' ? /(?:^|,)type=bind(?:,|$)/.test(bare) : /^[/.~$]/.test(bare) && bare.includes(':');
}

/** The words `ssh HOST word…` sends to the remote shell. */
export function sshCommandWords<C extends PlainCommand>(command: C): C['args'] {
  if (commandBase(command) !== 'ssh') return [];
  const index = skipOptions(command.args, 0, SSH_OPTIONS) + 1; // the destination
  return command.args.slice(index);
}

/**
 * Text a command hands to a shell to parse: `bash -c SCRIPT`, the same inside
 * a container, and the words ssh sends. `shell` names who parses it.
 */
export function reparsedWords<C extends PlainCommand>(command: C): { shell: string; words: C['args'] } | undefined {
  const script = shellScriptArgument(command);
  if (script) return { shell: shellName(command)!, words: [script] };
  const inner = containerCommand(command);
  if (inner) return reparsedWords(inner);
  const words = sshCommandWords(command);
  return words.length ? { shell: 'ssh', words } : undefined;
}

function skipOptions(args: readonly PlainCommand['args'][number][], from: number, withValue: readonly string[]): number {
  let index = from;
  while (index < args.length) {
    // `--volume="$PWD:/w"` has no static value, but is an option all the same.
    const value = args[index]!.value ?? (args[index]!.text.startsWith('-') ? args[index]!.text : undefined);
    if (value === '--') return index + 1;
    if (value === undefined || !value.startsWith('-') || value === '-') break;
    index += takesNextWord(value, withValue) ? 2 : 1;
  }
  return index;
}
