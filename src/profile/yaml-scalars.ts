import { Scalar } from 'yaml';

/**
 * The scalars of the frontmatter fast path (fast-yaml.ts): plain values by the
 * YAML 1.2 core schema, quoted strings with their escapes, folding, and the
 * node built for each, as `yaml`'s composer builds it. What they do not read
 * they refuse by throwing `Unsupported`, and the document goes to `yaml`.
 */

export class Unsupported extends Error {}

export function unsupported(): never {
  throw new Unsupported();
}

const PLAIN_INT = /^-?(?:0|[1-9][0-9]{0,14})$/;

export function fold(lines: string[]): string {
  let out = lines[0]!;
  let blanks = 0;
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]!;
    if (line === '') {
      blanks++;
      continue;
    }
    out += blanks === 0 ? ` ${line}` : '\n'.repeat(blanks) + line;
    blanks = 0;
  }
  return out;
}

export function scalar(value: unknown, source: string, type: Scalar.Type, start: number, valueEnd: number, end: number): Scalar {
  const node = new Scalar(value);
  node.range = [start, valueEnd, end];
  node.source = source;
  node.type = type;
  return node;
}

/** YAML 1.2 core schema for the plain scalars this reader accepts; other numbers are left to `yaml`. */
export function resolvePlain(raw: string): unknown {
  switch (raw) {
    case '':
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
  }
  const c = raw.charCodeAt(0);
  if ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46) {
    if (PLAIN_INT.test(raw)) return Number.parseInt(raw, 10);
    unsupported();
  }
  return raw;
}

const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', ' ': ' ' };

export function doubleQuoted(rest: string): { value: string; length: number } {
  let value = '';
  for (let k = 1; k < rest.length; k++) {
    const c = rest[k]!;
    if (c === '"') return { value, length: k + 1 };
    if (c !== '\\') {
      value += c;
      continue;
    }
    const e = rest[++k];
    const escaped = e === undefined ? undefined : ESCAPES[e];
    if (escaped !== undefined) {
      value += escaped;
    } else if (e === 'x' || e === 'u') {
      const digits = e === 'x' ? 2 : 4;
      const hex = rest.slice(k + 1, k + 1 + digits);
      if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) unsupported();
      const code = Number.parseInt(hex, 16);
      // Lone surrogates are left to yaml.
      if (code >= 0xd800 && code <= 0xdfff) unsupported();
      value += String.fromCharCode(code);
      k += digits;
    } else {
      unsupported();
    }
  }
  return unsupported();
}

export function singleQuoted(rest: string): { value: string; length: number } {
  let value = '';
  for (let k = 1; k < rest.length; k++) {
    const c = rest[k]!;
    if (c !== "'") {
      value += c;
    } else if (rest[k + 1] === "'") {
      value += "'";
      k++;
    } else {
      return { value, length: k + 1 };
    }
  }
  return unsupported();
}
