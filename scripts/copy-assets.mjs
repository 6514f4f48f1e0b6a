// Copies the non-TypeScript files the compiled code loads at run time into dist/.
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
for (const dir of ['rules', 'src']) {
  const walk = (rel) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = join(rel, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(json|js|mjs|sh)$/.test(entry.name)) {
        mkdirSync(join(root, 'dist', rel), { recursive: true });
        cpSync(join(root, path), join(root, 'dist', path));
      }
    }
  };
  if (existsSync(join(root, dir))) walk(dir);
}
