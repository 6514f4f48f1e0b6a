import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type LintResult, lintFiles } from '../../src/index.js';

export interface HookProject {
  event: string;
  matcher?: string;
  command: string;
  /** Files written under `.claude/hooks/` (executable). */
  files: Record<string, string>;
  async?: boolean;
}

/**
 * Makes `root/name`, a project whose settings run one command handler, lints
 * it (no ShellCheck), and gives its results and each file's findings as
 * `line:column-endColumn rule-id message`, by path in the project.
 */
export async function lintHookProject(
  root: string,
  name: string,
  project: HookProject,
): Promise<{ byFile: Record<string, string[]>; results: LintResult[] }> {
  const dir = join(root, name);
  mkdirSync(join(dir, '.claude', 'hooks'), { recursive: true });
  const handler = { type: 'command', command: project.command, ...(project.async ? { async: true } : {}) };
  const group = { ...(project.matcher === undefined ? {} : { matcher: project.matcher }), hooks: [handler] };
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { [project.event]: [group] } }, null, 2));
  for (const [file, text] of Object.entries(project.files)) {
    mkdirSync(dirname(join(dir, '.claude', 'hooks', file)), { recursive: true });
    writeFileSync(join(dir, '.claude', 'hooks', file), text, { mode: 0o755 });
  }
  const results = await lintFiles([dir], { shellcheck: false, cwd: dir });
  const byFile: Record<string, string[]> = {};
  for (const result of results)
    byFile[result.filePath.slice(dir.length + 1)] = result.diagnostics.map(
      (d) => `${d.line}:${d.column}-${d.endColumn} ${d.ruleId} ${d.message}`,
    );
  return { byFile, results };
}
