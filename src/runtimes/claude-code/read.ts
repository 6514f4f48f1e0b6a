import { entry, fromJson, fromYaml, type PNode } from '../../hooks/tree.js';
import { findPair, rootMap, type Profile } from '../../profile/profile.js';
import { type CcConfig, type FileFacts, isClaudeCodeEntry, readEvents, sourceOf } from './config.js';

/**
 * The Claude Code hooks of a file, wherever they are written: the Claude
 * Code entries of a frontmatter's `hooks:` (an agent, skill or command), or
 * the `hooks` object of a settings file, a plugin's `hooks/hooks.json` or
 * inline in its `plugin.json`. Undefined when the file has none.
 */
export function claudeCodeConfig(profile: Profile, facts: FileFacts = {}): CcConfig | undefined {
  const where = sourceOf(profile.path, facts);
  const base = { file: profile.path, ...where };
  if (profile.kind === 'json') {
    if (!profile.json) return undefined;
    const root = fromJson(profile, profile.json);
    const hooks = entry(root, 'hooks');
    // plugin.json's `hooks` may also be a path or a list of paths to hook files; those files are read on their own.
    if (!hooks || hooks.value.kind !== 'object')
      return hooks && where.source !== 'plugin-manifest' ? { ...base, hooksEntry: hooks, events: [] } : undefined;
    return { ...base, hooksEntry: hooks, events: readEvents(hooks.value, ['hooks'], base) };
  }
  if (profile.kind === 'script' || profile.kind === 'python' || profile.kind === 'node') return undefined;
  const pair = findPair(rootMap(profile), 'hooks');
  if (!pair) return undefined;
  const keyRange = profile.lines.rangeOf(0, 0);
  const value: PNode = fromYaml(profile, pair.value, keyRange, 0);
  if (value.kind !== 'object') return undefined;
  const events = readEvents(value, ['hooks'], base, (e) => isClaudeCodeEntry(e.key, e.value));
  if (events.length === 0) return undefined;
  const hooksKey = fromYaml(profile, pair.key, keyRange, 0);
  return { ...base, hooksEntry: { key: 'hooks', keyRange: hooksKey.range, value }, events };
}
