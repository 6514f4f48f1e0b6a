import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { UsageError } from './discover.js';
import type { CliIO } from '../io.js';

const exec = promisify(execFile);

export const HOOK_MARKER = '# Installed by validate-agent-hooks init-pre-commit';

export const INIT_PRE_COMMIT_HELP = `Usage: validate-agent-hooks init-pre-commit [--force]

Install a git pre-commit hook (in .git/hooks, or core.hooksPath when set) that
lints the staged agent profiles (.claude/agents/**/*.md) and refuses the commit
when one has an error. It lints the staged content, not the working file.

  --force    Replace an existing pre-commit hook
`;

/**
 * Writes `pre-commit` into the repository's hooks directory. The hook calls
 * this very installation (the absolute paths of node and of the bin, taken
 * now), falling back to `npx --no-install validate-agent-hooks` if they have
 * moved. Each staged profile is linted from the index (`git show :path` into
 * `--stdin`): the commit records the index, so a file that is fixed in the
 * working tree but not re-staged must still block it, and the reverse.
 */
export async function initPreCommitCommand(args: string[], io: CliIO): Promise<number> {
  // Usage problems are reported here rather than thrown: this module is loaded
  // beside the bundled CLI, whose UsageError is another class.
  try {
    return await install(args, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`validate-agent-hooks: ${error.message}\n`);
    return 2;
  }
}

async function install(args: string[], io: CliIO): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    }));
  } catch (error) {
    throw new UsageError(`init-pre-commit: ${(error as Error).message.split('\n')[0]!}`);
  }
  if (values.help) {
    io.stdout(INIT_PRE_COMMIT_HELP);
    return 0;
  }
  const hooksDir = await gitHooksDir(io.cwd);
  const hookPath = join(hooksDir, 'pre-commit');
  const existing = await readFile(hookPath, 'utf8').catch(() => undefined);
  if (existing !== undefined && !values.force) {
    const ours = existing.includes(HOOK_MARKER) ? ' (installed by validate-agent-hooks earlier)' : '';
    throw new UsageError(`init-pre-commit: ${hookPath} exists${ours}; pass --force to replace it.`);
  }
  await mkdir(hooksDir, { recursive: true });
  await writeFile(hookPath, preCommitScript(process.execPath, binPath()), 'utf8');
  await chmod(hookPath, 0o755);
  io.stdout(`Installed the pre-commit hook at ${hookPath}.\n`);
  return 0;
}

/** `git rev-parse --git-path hooks` honours core.hooksPath and worktrees; relative answers are relative to cwd. */
async function gitHooksDir(cwd: string): Promise<string> {
  try {
    const { stdout } = await exec('git', ['rev-parse', '--git-path', 'hooks'], { cwd });
    return resolve(cwd, stdout.trim());
  } catch (error) {
    const reason = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new UsageError(`init-pre-commit: not in a git repository (${reason})`);
  }
}

/** The package's bin, found from this module in src/ (tests) or dist/src/ (installed). */
function binPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'validate-agent-hooks') {
      return join(dir, 'bin', 'validate-agent-hooks');
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the validate-agent-hooks package directory');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function preCommitScript(nodePath: string, bin: string): string {
  return `#!/bin/sh
${HOOK_MARKER}.
# Lints the staged agent profiles; reinstall with: validate-agent-hooks init-pre-commit --force
# Skip once with: git commit --no-verify
NODE=${shellQuote(nodePath)}
BIN=${shellQuote(bin)}

lint() {
  if [ -x "$NODE" ] && [ -f "$BIN" ]; then
    "$NODE" "$BIN" "$@"
  else
    npx --no-install validate-agent-hooks "$@"
  fi
}

files=$(git -c core.quotePath=false diff --cached --name-only --diff-filter=ACM -- '.claude/agents/*.md')
[ -z "$files" ] && exit 0

status=0
newline='
'
old_ifs=$IFS
IFS=$newline
for file in $files; do
  IFS=$old_ifs
  # The staged blob, not the working file: that is what the commit records.
  git show ":$file" | lint --stdin --stdin-filename "$file" || status=1
done
IFS=$old_ifs

if [ "$status" -ne 0 ]; then
  echo "validate-agent-hooks: commit refused: fix the findings above in the staged profiles (or commit with --no-verify)." >&2
fi
exit $status
`;
}
