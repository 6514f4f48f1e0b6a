import { readFile } from 'node:fs/promises';
import type { Diagnostic } from '../../diagnostics.js';
import type { HookScript } from '../../hooks/types.js';
import { profileFromBytes } from '../../profile/profile.js';
import { configScripts } from './config.js';
import { claudeCodeConfig } from './read.js';

/** A file's Claude Code hook scripts (frontmatter, settings, plugin hooks), for the executor. */
export async function loadClaudeCodeHooks(file: string): Promise<{ hooks: HookScript[]; diagnostics: Diagnostic[] }> {
  const loaded = profileFromBytes(file, await readFile(file));
  if (!loaded.ok) return { hooks: [], diagnostics: [loaded.diagnostic] };
  return { hooks: configScripts(claudeCodeConfig(loaded.profile)), diagnostics: loaded.profile.problems };
}
