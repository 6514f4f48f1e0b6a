import { REPLY_SEPARATOR } from './control-server.js';

/**
 * What the sandbox runs in place of the runtime's commands: bash functions
 * (loaded through BASH_ENV by every bash in the sandbox) that run the real
 * `redis-cli`, so a call is one short-lived process; and, for callers that do
 * not look functions up (`exec`, `env`, `xargs`, `command`, `timeout`), a
 * small script at the same names (symlinks to one) that does the same in two.
 */

/** Where things are inside the sandbox. */
export const SANDBOX_PATHS = {
  runDir: '/run/vah',
  binDir: '/run/vah/bin',
  /** Not executable, hence not a command although it sits in a PATH directory. */
  functions: '/run/vah/bin/.functions.bash',
  realRedisCli: '/run/vah/libexec/redis-cli',
  /** In a directory not on PATH, like the slash commands' script. */
  redisHelper: '/run/vah/bin/libexec/vah-redis',
  /** The one script behind every /NAME symlink (in a directory not on PATH). */
  slashShim: '/run/vah/bin/slash/command',
  /** The run's own directory (its sockets and environment), bound read-only. */
  runFiles: '/run/vah/run',
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
 * reply back into stdout, stderr and an exit status. Without a command name
 * it is one script for every command, reached through a symlink at /NAME
 * and named by the path it was called by (what it could claim instead, any
 * caller can send over the control socket with redis-cli anyway).
 */
export function controlShim(options: { commandName?: string; redisCli: string; redisHelper?: string; controlSocket: string }): string {
  const name = options.commandName === undefined ? '"${0##*/}"' : shellQuote(options.commandName);
  const what = options.commandName === undefined ? "the runtime's slash commands" : `/${options.commandName}`;
  if (options.redisHelper !== undefined)
    return `#!/bin/bash
# validate-agent-hooks: ${what} inside the sandbox.
# The executor implements it from the runtime's documentation; the helper only carries the call.
exec ${callWith(options.redisHelper, options.controlSocket)} ${name} "$@"
`;
  const sep = separatorWord();
  return `#!/bin/bash
# validate-agent-hooks: ${what} inside the sandbox.
# The executor implements it from the runtime's documentation; this script only carries the call.
unset REDISCLI_AUTH
name=${name}
reply=$(${client(options, options.controlSocket)} VAH.CALL "$name" "$@" </dev/null 2>/dev/null)
code=\${reply%%${sep}*}
case $code in
  ''|*[!0-9]*) printf '%s: the executor did not answer\\n' "/$name" >&2; exit 70 ;;
esac
rest=\${reply#*${sep}}
err=\${rest%%${sep}*}
out=\${rest#*${sep}}
[ -n "$err" ] && printf '%s' "$err" >&2
printf '%s' "\${out%${sep}}"
exit "$code"
`;
}

/**
 * The runtime's commands as bash functions, for BASH_ENV. A call runs one
 * process: the helper, which replays the reply's streams and status itself,
 * or without it the real `redis-cli` (the command substitution execs it in
 * its own fork; the reply's closing separator keeps the trailing newlines of
 * the output that command substitution strips). Each function keeps the
 * caller's `set -x` out of its own lines, and its `set -e` and `-u` off
 * them, as a separate program's lines would be. In POSIX mode bash refuses
 * names with a slash or a dash, so there only the scripts serve.
 */
export function shellFunctions(options: {
  redisCli: string;
  /** The one-process client (src/executor/native/vah-redis.c), when the build made one. */
  redisHelper?: string;
  redisSocket: string;
  controlSocket: string;
  commands: readonly string[];
}): string {
  const lines = [
    "# validate-agent-hooks: the runtime's commands as functions, one process a call (scripts of the same names serve exec, env, xargs).",
    'if ! shopt -oq posix; then',
    `redis-cli() { { local -; set +x; } 2>/dev/null; ${client(options, options.redisSocket)} "$@"; }`,
    ...(options.redisHelper === undefined
      ? replyParser(options)
      : [`__vah_call() { ${callWith(options.redisHelper, options.controlSocket)} "$@"; }`]),
  ];
  for (const name of options.commands) {
    if (!/^[a-z][a-z0-9_-]*$/.test(name)) continue;
    lines.push(`/${name}() { { local -; set +xeu; } 2>/dev/null; __vah_call ${name} "$@"; }`);
  }
  lines.push('fi');
  return `${lines.join('\n')}\n`;
}

/**
 * Without the helper, a call runs redis-cli in a command substitution and
 * splits its reply in the shell (called only by the functions, which have
 * turned the caller's options off).
 */
function replyParser(options: { redisCli: string; controlSocket: string }): string[] {
  const sep = separatorWord();
  return [
    '__vah_call() {',
    '  local __vah_reply __vah_code __vah_err',
    `  __vah_reply=$(unset REDISCLI_AUTH; exec ${client(options, options.controlSocket)} VAH.CALL "$@" </dev/null 2>/dev/null)`,
    `  __vah_code=\${__vah_reply%%${sep}*}`,
    '  case $__vah_code in',
    `    ''|*[!0-9]*) printf '%s: the executor did not answer\\n' "/$1" >&2; return 70 ;;`,
    '  esac',
    `  __vah_reply=\${__vah_reply#*${sep}}`,
    `  __vah_err=\${__vah_reply%%${sep}*}`,
    `  __vah_reply=\${__vah_reply#*${sep}}`,
    `  [ -z "$__vah_err" ] || printf '%s' "$__vah_err" >&2`,
    `  printf '%s' "\${__vah_reply%${sep}}"`,
    '  return "$__vah_code"',
    '}',
  ];
}

/** The helper's one-process form of a runtime command: it sends the call and replays the reply's streams and status. */
function callWith(redisHelper: string, controlSocket: string): string {
  return `${shellQuote(redisHelper)} --call ${shellQuote(controlSocket)}`;
}

/**
 * The command line that sends the arguments after it to `socket`: the helper
 * (which hands any form it does not serve to the real redis-cli), or
 * redis-cli itself.
 */
function client(options: { redisCli: string; redisHelper?: string | undefined }, socket: string): string {
  return options.redisHelper === undefined
    ? `${shellQuote(options.redisCli)} -s ${shellQuote(socket)}`
    : `${shellQuote(options.redisHelper)} ${shellQuote(options.redisCli)} ${shellQuote(socket)}`;
}

/** The reply separator as a bash word. */
function separatorWord(): string {
  return `$'\\x${REPLY_SEPARATOR.charCodeAt(0).toString(16).padStart(2, '0')}'`;
}

/** `redis-cli` as hooks call it, aimed at the session's Redis (fake or real) whatever host and port they name. */
export function redisCliShim(options: { redisCli: string; redisHelper?: string; redisSocket: string }): string {
  return `#!/bin/bash
# validate-agent-hooks: redis-cli inside the sandbox talks to the session's Redis over a Unix socket.
# -s wins over -h/-p/-u, so scripts that name a host still reach it.
exec ${client(options, options.redisSocket)} "$@"
`;
}

export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
