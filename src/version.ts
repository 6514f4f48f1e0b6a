import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, read once from package.json (two levels up from src/ and from dist/src/). */
export function toolVersion(): string {
  if (cached) return cached;
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'validate-agent-hooks' && pkg.version) return (cached = pkg.version);
    } catch {
      // try the next location
    }
  }
  return (cached = '0.0.0');
}
