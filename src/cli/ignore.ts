import { relative, sep } from 'node:path';

/** Minimal gitignore-style globs: `**`, `*`, `?`, matched against the path relative to the base. */
export function ignored(file: string, patterns: readonly string[], base: string): boolean {
  const rel = relative(base, file).split(sep).join('/');
  return patterns.some((pattern) => globToRegExp(pattern).test(rel));
}

export function globToRegExp(pattern: string): RegExp {
  let source = '';
  const anchored = pattern.includes('/') && !pattern.startsWith('**/');
  const body = pattern.replace(/^\//, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '*' && body[i + 1] === '*') {
      source += body[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += body[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`${anchored ? '^' : '(?:^|/)'}${source}(?:/.*)?$`);
}
