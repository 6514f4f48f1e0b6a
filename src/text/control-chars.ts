import { limitJsonDepth } from './json-safe.js';

/**
 * Text that came from a hook or a file, made safe to print on a terminal.
 * A raw ESC (or CSI, U+009B, which some terminals honour alone) lets the text
 * repaint the screen — clear it and print a forged "Result: exit 0" — and
 * bidirectional overrides reorder what is shown. Each such character is
 * shown as an escape instead, the way `cat -v` or ESLint would: `\x1b`,
 * `\u202e`. Tabs stay; newlines stay only where the caller prints a block.
 */

// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_IN_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_IN_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** What `JSON.stringify` leaves raw of the above: it escapes only C0 (U+0000–U+001F). */
const CONTROL_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

function show(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of text: every control character, newlines included, escaped. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL_IN_LINE, show);
}

/** A block of lines (a hook's stdout): newlines and tabs kept, everything else escaped. */
export function escapeControlBlock(text: string): string {
  return text.replace(CONTROL_IN_BLOCK, show);
}

/** Whether the text holds a character a terminal would act on (for tests and assertions). */
export function hasRawControl(text: string): boolean {
  return new RegExp(CONTROL_IN_BLOCK.source).test(text);
}

/**
 * JSON text (from `JSON.stringify`) with the control characters it leaves
 * raw — DEL, C1 such as CSI (U+009B), the bidirectional and invisible format
 * controls, U+2028/U+2029 — written as `\uXXXX` escapes. They can only occur
 * inside strings there, where the escape stands for the same character:
 * `JSON.parse` gives the same value back, and the bytes a terminal or a
 * viewer shows hold none of them.
 */
export function escapeJsonControl(json: string): string {
  return json.replace(CONTROL_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `JSON.stringify` whose text holds no raw control character (see escapeJsonControl); for every JSON the tool prints. */
export function stringifyJson(value: unknown, space?: number): string {
  // A value nested past MAX_REPORT_JSON_DEPTH (a hook printed it) is cut there: JSON.stringify recurses per level.
  return escapeJsonControl(JSON.stringify(limitJsonDepth(value), null, space));
}
