/** Shared helpers for the simulator's tests: profiles and scenarios written to a temp dir, sandbox detection. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxMissing } from '../executor/helpers.js';

export { sandboxMissing };

/** A test title that says, in the report, why it was skipped. */
export function needsSandbox(title: string): string {
  return sandboxMissing ? `${title} [skipped: ${sandboxMissing}]` : title;
}

if (sandboxMissing) console.warn(`[simulate tests] sandboxed simulations are skipped: ${sandboxMissing}`);

/** A profile whose hooks are the given scripts, as literal block scalars. */
export function profileText(name: string, hooks: Record<string, string>): string {
  const body = Object.entries(hooks)
    .map(
      ([hook, script]) =>
        `  ${hook}: |\n${script
          .trimEnd()
          .split('\n')
          .map((line) => `    ${line}`)
          .join('\n')}\n`,
    )
    .join('');
  return `---\nname: ${name}\ndescription: test profile\nhooks:\n${body}---\n\n# ${name}\n`;
}

export function workDir(): { dir: string; write: (name: string, text: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'vah-sim-test-'));
  return {
    dir,
    write: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
