import { posix } from 'node:path';
import { defineRule } from '../../src/engine/rule.js';
import { commandBase, variableUse, wordTemplate } from '../../src/shell/analysis.js';
import type { ShellCommand } from '../../src/shell/commands.js';
import { staticValue } from '../../src/shell/static-value.js';
import { placedNodesOfType } from '../../src/shell/node-index.js';
import { remembered } from '../../src/shell/node-memo.js';
import { staticTexts } from '../../src/shell/resolved-commands.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

interface Options {
  /** Further path prefixes a hook may touch (e.g. `/opt/shared-cache`). */
  allowedPaths?: string[];
}

/** Commands whose path arguments are files they read or write. */
const FILE_COMMANDS = new Set([
  'cat',
  'tac',
  'head',
  'tail',
  'less',
  'more',
  'cp',
  'mv',
  'rm',
  'rmdir',
  'touch',
  'mkdir',
  'ln',
  'chmod',
  'chown',
  'chgrp',
  'tee',
  'truncate',
  'install',
  'ls',
  'find',
  'du',
  'stat',
  'file',
  'wc',
  'sort',
  'uniq',
  'diff',
  'cmp',
  'tar',
  'zip',
  'unzip',
  'gzip',
  'gunzip',
  'zcat',
  'source',
  '.',
  'shred',
  'rsync',
  'base64',
  'xxd',
  'od',
  'strings',
  'md5sum',
  'sha256sum',
  'dd',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'sed',
  'awk',
  'gawk',
  'jq',
  'yq',
  'cd',
  'pushd',
  'unlink',
  'chattr',
  'setfacl',
  'split',
  'readlink',
  'realpath',
  'mkfifo',
  'xz',
  'bzip2',
  'zstd',
  'curl',
  'wget',
]);
/** Commands that name files only through options (`curl -o FILE`); their operands are URLs. */
const OUTPUT_OPTIONS: Record<string, string[]> = {
  curl: ['-o', '--output', '-K', '--config', '-T', '--upload-file', '-c', '--cookie-jar'],
  wget: ['-O', '--output-document', '-P', '--directory-prefix', '-o', '--output-file', '-a', '--append-output'],
};
/** Commands whose first operand is a program or pattern, not a file (unless given with -e/-f). */
const PROGRAM_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'sed', 'awk', 'gawk', 'jq', 'yq']);
/** Commands after which a relative path is no longer the workspace's. */
const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);
/** Places every hook may use: temporary files, the standard streams, the runtime's own commands. */
const ALLOWED_PREFIXES = [
  '/tmp',
  '/var/tmp',
  '/dev/null',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/fd/',
  '/dev/tty',
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/tcp/',
  '/dev/udp/',
  '/proc/self',
  '/sqlite-memory',
  '/eventbus',
];

/**
 * Hooks run in the agent's workspace; a path outside it (`/etc`, `/usr`,
 * `~/.ssh`) reads secrets or changes the machine for every other agent and
 * user. Temporary files (`/tmp`, `$TMPDIR`) and the standard streams are fine.
 */
export default defineRule<Options>({
  id: 'path-outside-workspace',
  meta: {
    description:
      'A file command or redirect uses a path outside the workspace and the temporary directories (absolute, in the home directory, or climbing out with `..`).',
    severity: 'warning',
    category: 'runtime',
    securitySeverity: 5.0,
  },
  messages: {
    outside:
      'Unexpected access to `{{path}}` outside the workspace: hooks should touch only the workspace (relative paths) and temporary files (`/tmp`, `$TMPDIR`).',
  },
  optionsSchema: {
    type: 'object',
    properties: { allowedPaths: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  },
  defaultOptions: { allowedPaths: [] },
  checkScript(context) {
    const allowed = [...ALLOWED_PREFIXES, ...(context.options.allowedPaths ?? [])];
    // A relative path is the workspace's while the script stays where the runtime started it.
    const staysPut = !context.commands.some((c) => CHANGES_DIRECTORY.has(commandBase(c) ?? ''));
    const reportIfOutside = (path: string | undefined, start: number, end: number): void => {
      if (path === undefined || !isOutside(path, allowed, staysPut)) return;
      context.report({ messageId: 'outside', data: { path }, range: context.range(start, end) });
    };
    const check = (node: SyntaxNode, value: string | undefined, start = node.startIndex): void =>
      reportIfOutside(value ?? pathOf(node) ?? pathThroughVariable(node), start, node.endIndex);
    for (const command of context.commands) {
      const base = commandBase(command);
      if (!base || !FILE_COMMANDS.has(base)) continue;
      for (const { node, value, start } of fileOperands(command, base)) check(node, value, start);
    }
    for (const { node: redirect, start, end } of placedNodesOfType(context.tree.rootNode, ['file_redirect'])) {
      // What the redirect names is its own (an editor's next run reuses it for a redirect the edit left alone).
      const target = remembered(context.tree, 'redirect-path', start, end, () => redirectPath(redirect, start));
      if (target) reportIfOutside(target.path, start + target.start, start + target.end);
      else {
        // A path through a variable the script sets (`F=/etc/motd; : > "$F"`) depends on more than the redirect: not kept.
        const destination = redirect.childForFieldName('destination');
        if (destination) reportIfOutside(pathThroughVariable(destination), destination.startIndex, destination.endIndex);
      }
    }
  },
});

/** The path a file redirect names, if known, with the place of its destination (relative to the redirect's start). */
function redirectPath(redirect: SyntaxNode, base: number): { path: string; start: number; end: number } | undefined {
  const operator = redirect.children.find((c) => c !== null && !c.isNamed)?.text ?? '';
  const destination = redirect.childForFieldName('destination');
  if (!destination || (operator.endsWith('&') && /^(\d+|-)$/.test(destination.text))) return undefined;
  const path = staticValue(destination) ?? pathOf(destination);
  return path === undefined ? undefined : { path, start: destination.startIndex - base, end: destination.endIndex - base };
}

/** The words of a command that name files: its operands, `dd`'s `if=`/`of=`, `--opt=/path`. */
function fileOperands(command: ShellCommand, base: string): { node: SyntaxNode; value: string | undefined; start: number }[] {
  const operands: { node: SyntaxNode; value: string | undefined; start: number }[] = [];
  const outputs = OUTPUT_OPTIONS[base];
  if (outputs) {
    command.args.forEach((arg, i) => {
      const next = command.args[i + 1];
      // `-o FILE`, and a cluster whose last letter is one (`wget -qO FILE`).
      const option = arg.value !== undefined && /^-[A-Za-z]+$/.test(arg.value) ? `-${arg.value.slice(-1)}` : arg.value;
      if (option !== undefined && outputs.includes(option) && next)
        operands.push({ node: next.node, value: next.value, start: next.start });
    });
    return operands;
  }
  let skipProgram =
    PROGRAM_FIRST.has(base) &&
    !command.args.some((a) => a.value === '-e' || a.value === '-f' || a.value?.startsWith('--expression') || a.value?.startsWith('--file'));
  let optionsDone = false;
  for (const arg of command.args) {
    const value = arg.value;
    if (!optionsDone && value === '--') {
      optionsDone = true;
      continue;
    }
    if (base === 'dd' && value !== undefined && /^(if|of)=/.test(value)) {
      operands.push({ node: arg.node, value: value.slice(3), start: arg.start + 3 });
      continue;
    }
    if (!optionsDone && value?.startsWith('-')) {
      const eq = value.indexOf('=');
      if (value.startsWith('--') && eq !== -1) operands.push({ node: arg.node, value: value.slice(eq + 1), start: arg.start + eq + 1 });
      continue;
    }
    if (skipProgram) {
      skipProgram = false;
      continue;
    }
    operands.push({ node: arg.node, value, start: arg.start });
  }
  return operands;
}

/** A computed path that still says where it points: `$HOME/…`, `${HOME}/…` → `~/…`; `$TMPDIR/…` is temporary. */
function pathOf(node: SyntaxNode): string | undefined {
  const template = wordTemplate(node, '\u0000');
  if (!template.text.startsWith('\u0000') || template.expansions.length === 0) return undefined;
  const use = variableUse(template.expansions[0]!);
  if (!use || use.operator !== undefined) return undefined;
  const rest = template.text.slice(1).split('\u0000')[0]!;
  if (use.name === 'HOME') return `~${rest}`;
  return undefined;
}

/** A path that starts with a variable the script sets to static texts (`D=/etc; rm "$D/passwd"`): the first that is outside, else the first. */
function pathThroughVariable(node: SyntaxNode): string | undefined {
  const template = wordTemplate(node, '\u0000');
  if (!template.text.startsWith('\u0000') || template.expansions.length === 0) return undefined;
  const use = variableUse(template.expansions[0]!);
  if (!use || use.operator !== undefined || use.length) return undefined;
  const rest = template.text.slice(1).split('\u0000')[0]!;
  const paths = staticTexts(node.tree, use.name)?.map((text) => text + rest);
  return paths?.find((path) => path.startsWith('/') || path.startsWith('~')) ?? paths?.[0];
}

/**
 * Whether a path is outside the workspace and the allowed places: `~/…`, an
 * absolute path once its `..` are resolved (`/tmp/../etc` is `/etc`), and,
 * while the script has not changed directory, a relative path that climbs out
 * (`../../etc/passwd`).
 */
function isOutside(path: string, allowed: readonly string[], relativeToWorkspace: boolean): boolean {
  if (path.startsWith('~')) return true;
  if (!path.startsWith('/')) {
    if (!relativeToWorkspace || path === '') return false;
    const climbed = posix.normalize(path);
    return climbed === '..' || climbed.startsWith('../');
  }
  const normalised = posix.normalize(path);
  return !allowed.some(
    (prefix) =>
      normalised === prefix ||
      normalised.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) ||
      (prefix.endsWith('/') && normalised === prefix.slice(0, -1)),
  );
}
