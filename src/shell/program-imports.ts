import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** How many of a program's own modules are read, at most, and how large each may be. */
const MAX_MODULES = 64;
const MAX_MODULE_BYTES = 1 << 20;

const NODE_EXTENSIONS = ['', '.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.tsx', '/index.ts', '/index.js', '/index.mjs'];

/**
 * The texts of the modules a hook program imports from its own tree, and of theirs in turn (relative
 * imports only: `from './handlers/stop'`, `require('../lib')`, Python's `from .utils import x` and
 * `from . import tasks`), up to MAX_MODULES files: what the program does may be written there (a router
 * whose Stop handler reads `stop_hook_active` in another file).
 */
export function localModuleTexts(program: {
  readonly file: string;
  readonly text: string;
  readonly language: 'python' | 'node';
}): string[] {
  const seen = new Set<string>([resolve(program.file)]);
  const texts: string[] = [];
  const queue: { file: string; text: string }[] = [{ file: program.file, text: program.text }];
  while (queue.length > 0 && seen.size < MAX_MODULES) {
    const { file, text } = queue.shift()!;
    const candidates = program.language === 'node' ? nodeImports(file, text) : pythonImports(file, text);
    for (const options of candidates) {
      const found = options.find((path) => !seen.has(path) && isSmallFile(path));
      if (found === undefined || seen.size >= MAX_MODULES) continue;
      seen.add(found);
      let moduleText: string;
      try {
        moduleText = readFileSync(found, 'utf8');
      } catch {
        continue;
      }
      texts.push(moduleText);
      queue.push({ file: found, text: moduleText });
    }
  }
  return texts;
}

function isSmallFile(path: string): boolean {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info?.isFile() === true && info.size <= MAX_MODULE_BYTES;
  } catch {
    return false;
  }
}

/** For each relative import or require, the files it may name. */
function nodeImports(file: string, text: string): string[][] {
  const dir = dirname(file);
  const imports: string[][] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"\n]{1,200})['"]/g)) {
    const base = resolve(dir, match[1]!.replace(/\.js$/, ''));
    imports.push([resolve(dir, match[1]!), ...NODE_EXTENSIONS.map((extension) => base + extension)]);
  }
  return imports;
}

/** For each relative `from .x import …` / `from . import a, b`, the files it may name. */
function pythonImports(file: string, text: string): string[][] {
  const imports: string[][] = [];
  for (const match of text.matchAll(/^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t\n]+)/gm)) {
    let dir = dirname(file);
    for (let i = 1; i < match[1]!.length; i++) dir = dirname(dir);
    const module = match[2] ? join(dir, ...match[2].split('.')) : undefined;
    if (module) imports.push([`${module}.py`, join(module, '__init__.py')]);
    else
      for (const name of match[3]!.split(/[\s,()]+/).filter(Boolean))
        imports.push([join(dir, `${name}.py`), join(dir, name, '__init__.py')]);
  }
  return imports;
}
