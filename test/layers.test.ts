import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The source reads top-down (cli → lsp → simulate/rules/reporters → executor/engine → hooks → profile → shell):
 * an import that runs back up the layers makes two of them depend on each other. Units are the top-level
 * entries of src/ (a directory or a file) and the rules/ tree.
 */
const ROOT = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

function unitOf(path: string): string | undefined {
  const [top, second] = relative(ROOT, path).split('/');
  if (top === 'rules') return 'rules';
  if (top === 'src' && second) return second.replace(/\.[jt]s$/, '');
  return undefined;
}

/** Unit → units it imports (static, type-only and dynamic imports alike). */
function unitGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'rules'))]) {
    const from = unitOf(file)!;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = unitOf(resolve(dirname(file), fileName));
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** A cycle as the list of units along it (first repeated at the end), or null when the graph has none. */
function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (unit: string): string[] | null => {
    if (state.get(unit) === 'done') return null;
    if (state.get(unit) === 'visiting') return [...path.slice(path.indexOf(unit)), unit];
    state.set(unit, 'visiting');
    path.push(unit);
    for (const next of graph.get(unit) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(unit, 'done');
    return null;
  };
  for (const unit of [...graph.keys()].sort()) {
    const cycle = visit(unit);
    if (cycle) return cycle;
  }
  return null;
}

describe('layers', () => {
  it('finds a cycle when there is one, and none in a layered graph', () => {
    const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));
    expect(findCycle(graph({ cli: ['lsp', 'engine'], lsp: ['engine', 'cli'], engine: [] }))).toEqual(['cli', 'lsp', 'cli']);
    expect(findCycle(graph({ cli: ['lsp', 'engine'], lsp: ['engine', 'io'], engine: ['io'], io: [] }))).toBeNull();
  });

  it('no import runs back up the layers: the units of src/ and rules/ import each other without a cycle', () => {
    const graph = unitGraph();
    expect(graph.get('cli')?.has('lsp')).toBe(true); // the graph is really read
    expect(findCycle(graph)).toBeNull();
  });

  it('only the package entry imports the CLI', () => {
    const importers = [...unitGraph()].filter(([, edges]) => edges.has('cli')).map(([unit]) => unit);
    expect(importers).toEqual(['index']);
  });
});
