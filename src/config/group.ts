import type { LoadedConfig } from './load.js';

export type { LoadedConfig };

/** Inputs grouped by the configuration that governs them (in first-seen order), to lint each group in one pass. */
export function groupByConfig<T extends { filePath: string }>(
  items: readonly T[],
  configFor: (file: string) => LoadedConfig,
): Map<LoadedConfig, T[]> {
  const groups = new Map<LoadedConfig, T[]>();
  for (const item of items) {
    const loaded = configFor(item.filePath);
    const group = groups.get(loaded);
    if (group) group.push(item);
    else groups.set(loaded, [item]);
  }
  return groups;
}
