import { REPLY_SEPARATOR } from './control-server.js';

/**
 * The small scripts the sandbox runs in place of the runtime's commands. They
 * are bash plus the real `redis-cli`, so a call costs two short-lived
 * processes (~5 ms) instead of a Node start (~50 ms).
 */

/** Where things are inside the sandbox. */
export const SANDBOX_PATHS = {
  runDir: '/run/vah',
  binDir: '/run/vah/bin',
  realRedisCli: '/run/vah/libexec/redis-cli',
  controlSocket: '/run/vah/control.sock',
  redisSocket: '/run/vah/redis.sock',
  workspace: '/workspace',
  home: '/home/agent',
  tmp: '/tmp',
} as const;

/** The runtime's commands that have their own handler; every other slash command gets the generic shim. */
export const MEMORY_COMMAND_NAME = 'sqlite-memory';
export const EVENTBUS_COMMAND_NAME = 'eventbus';

/**
 * Slash commands real profiles and the runtime's docs use. Any other
 * `/name` a hook calls is found by `slashCommandsIn` and bound too.
 */
export const KNOWN_SLASH_COMMANDS = [
  'performance',
  'fleet',
  'swarm',
  'hooks',
  'neural',
  'dashboard',
  'github',
  'wasm',
  'compliance',
  'cfn-loop',
  'cfn-loop-epic',
  'cfn-loop-sprints',
  'sparc',
  'fullstack',
  'claude-soul',
  'github-commit',
] as const;

/** Top-level names a slash command may not take: the sandbox's own directories. */
const RESERVED_ROOT_NAMES = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'srv',
  'sys',
  'tmp',
  'usr',
  'var',
  'workspace',
  MEMORY_COMMAND_NAME,
  EVENTBUS_COMMAND_NAME,
]);

/**
 * Names of `/name` commands a script calls, found by a deliberately loose
 * scan: binding a shim for a word that turns out not to be a command costs
 * nothing, missing one makes the hook fail where the runtime's would not.
 */
export function slashCommandsIn(script: string): string[] {
  const names = new Set<string>();
  const pattern = /(?:^|[\s;&|({`'"]|\$\()\/([a-z][a-z0-9_-]*)(?=$|[\s;&|)`'"])/gm;
  for (const match of script.matchAll(pattern)) {
    const name = match[1]!;
    if (!RESERVED_ROOT_NAMES.has(name)) names.add(name);
  }
  return [...names].sort();
}

/**
 * A shim that forwards its arguments to the control socket and turns the
 * reply back into stdout, stderr and an exit status.
 */
export function controlShim(options: { commandName: string; redisCli: string; controlSocket: string }): string {
  const sep = `$'\\x${REPLY_SEPARATOR.charCodeAt(0).toString(16).padStart(2, '0')}'`;
  return `#!/bin/bash
# validate-agent-hooks: /${options.commandName} inside the sandbox.
# The executor implements it from the runtime's documentation; this script only carries the call.
unset REDISCLI_AUTH
name=${shellQuote(options.commandName)}
reply=$(${shellQuote(options.redisCli)} -s ${shellQuote(options.controlSocket)} VAH.CALL "$name" "$@" </dev/null 2>/dev/null; printf x)
reply=\${reply%x}
reply=\${reply%$'\\n'}
code=\${reply%%${sep}*}
case $code in
  ''|*[!0-9]*) printf '%s: the executor did not answer\\n' "/$name" >&2; exit 70 ;;
esac
rest=\${reply#*${sep}}
err=\${rest%%${sep}*}
out=\${rest#*${sep}}
[ -n "$err" ] && printf '%s' "$err" >&2
printf '%s' "$out"
exit "$code"
`;
}

/** `redis-cli` as hooks call it, aimed at the session's Redis (fake or real) whatever host and port they name. */
export function redisCliShim(options: { redisCli: string; redisSocket: string }): string {
  return `#!/bin/bash
# validate-agent-hooks: redis-cli inside the sandbox talks to the session's Redis over a Unix socket.
# -s wins over -h/-p/-u, so scripts that name a host still reach it.
exec ${shellQuote(options.redisCli)} -s ${shellQuote(options.redisSocket)} "$@"
`;
}

/**
 * For `--no-sandbox`: bash cannot have a file at `/sqlite-memory` without
 * writing to the host's root, but it accepts functions with a slash in their
 * name. `BASH_ENV` makes every non-interactive bash, children included,
 * define them before running anything.
 */
export function noSandboxPrelude(options: { commands: Record<string, string> }): string {
  const lines = ["# validate-agent-hooks --no-sandbox: the runtime's slash commands as functions."];
  for (const [name, shimPath] of Object.entries(options.commands)) {
    lines.push(`/${name}() { ${shellQuote(shimPath)} "$@"; }`);
  }
  return `${lines.join('\n')}\n`;
}

export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
