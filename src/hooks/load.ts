import { readFile } from 'node:fs/promises';
import type { Diagnostic } from '../diagnostics.js';
import { profileFromBytes } from '../profile/profile.js';
import { extractHooks } from './extract.js';
import type { HookScript } from './types.js';

/**
 * A profile's hook scripts, for the executor and the simulator: they take
 * hooks, never the engine. The diagnostics are the reader's and the YAML
 * parser's (a profile that does not parse has no hooks to run).
 */
export async function loadProfileHooks(file: string): Promise<{ hooks: HookScript[]; diagnostics: Diagnostic[] }> {
  const loaded = profileFromBytes(file, await readFile(file));
  if (!loaded.ok) return { hooks: [], diagnostics: [loaded.diagnostic] };
  return { hooks: extractHooks(loaded.profile), diagnostics: loaded.profile.problems };
}
