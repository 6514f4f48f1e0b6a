/**
 * Number parsing and formatting as Redis does it (util.c's `string2ll`,
 * `string2d`, and the `strtod` calls of the commands that read scores and
 * timeouts): what a hook sends must be accepted or refused exactly as Redis would.
 */
import { fail, MUST_BE_POSITIVE, NOT_AN_INTEGER } from './errors.js';

export const LLONG_MAX = 9223372036854775807n;
export const LLONG_MIN = -9223372036854775808n;

/** Redis's `string2ll`: no sign but `-`, no leading zeros, no blanks, 64-bit range. */
export function parseLongLong(text: string): bigint | null {
  if (text.length > 20 || !/^(0|-?[1-9][0-9]*)$/.test(text)) return null;
  const value = BigInt(text);
  return value > LLONG_MAX || value < LLONG_MIN ? null : value;
}

export function requireLongLong(text: string, message = NOT_AN_INTEGER): bigint {
  const value = parseLongLong(text);
  if (value === null) fail(message);
  return value;
}

/** For indexes and counts: a 64-bit integer, as a JS number (beyond 2^53 only its magnitude matters). */
export function requireLong(text: string, message = NOT_AN_INTEGER): number {
  return Number(requireLongLong(text, message));
}

export function requirePositiveLong(text: string): number {
  const value = parseLongLong(text);
  if (value === null || value < 0n) fail(MUST_BE_POSITIVE);
  return Number(value);
}

const DECIMAL_FLOAT = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const INFINITY_FLOAT = /^([+-]?)(inf|infinity)$/i;

/**
 * C `strtod` over the whole text: decimal or inf/infinity; null when the
 * text is not a number. `rangeError` reports what strtod flags as ERANGE
 * (overflow to infinity, or underflow of a non-zero value to zero).
 */
function strtodWhole(text: string): { value: number; rangeError: boolean } | null {
  const infinity = INFINITY_FLOAT.exec(text);
  if (infinity) return { value: infinity[1] === '-' ? -Infinity : Infinity, rangeError: false };
  const hex = HEX_FLOAT.exec(text);
  if (hex) return parseHexFloat(hex[1] ?? '', hex[2] ?? '', hex[3] ?? '', hex[4] ?? '0');
  if (!DECIMAL_FLOAT.test(text)) return null;
  const value = Number(text);
  const mantissaIsZero = !/[1-9]/.test(text.replace(/[eE].*$/, ''));
  const rangeError = !Number.isFinite(value) || (value === 0 && !mantissaIsZero);
  return { value, rangeError };
}

/** C99 hexadecimal floats (`0x1.8p3`), which strtod accepts and so Redis does. */
const HEX_FLOAT = /^([+-]?)0[xX](?=\.?[0-9a-fA-F])([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?$/;

function parseHexFloat(sign: string, whole: string, fraction: string, exponent: string): { value: number; rangeError: boolean } {
  const digits = `${whole}${fraction}`.replace(/^0+/, '') || '0';
  const mantissa = Number(BigInt(`0x${digits}`));
  const magnitude = mantissa * 2 ** (Number(exponent) - 4 * fraction.length);
  const value = sign === '-' ? -magnitude : magnitude;
  return { value, rangeError: !Number.isFinite(value) || (value === 0 && mantissa !== 0) };
}

/** Redis's `string2d` (scores, increments): rejects blanks, overflow, underflow and NaN. */
export function parseRedisDouble(text: string): number | null {
  const parsed = strtodWhole(text);
  if (!parsed || parsed.rangeError) return null;
  return parsed.value;
}

function isCSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * Score bounds of ZRANGEBYSCORE and friends, which call bare `strtod`: it
 * skips leading blanks, tolerates overflow, and an empty text reads as 0.
 */
export function parseScoreBound(text: string): { value: number; exclusive: boolean } | null {
  const exclusive = text.startsWith('(');
  let body = exclusive ? text.slice(1) : text;
  if (body === '') return { value: 0, exclusive };
  let start = 0;
  while (start < body.length && isCSpace(body.charCodeAt(start))) start++;
  body = body.slice(start);
  const parsed = strtodWhole(body);
  if (!parsed) return null;
  return { value: parsed.value, exclusive };
}

/** `printf("%.17g")`, which is how Redis 7.0 prints scores over RESP2. */
export function formatDouble(value: number): string {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential(16).split('e');
  const exponent = Number(exponentText);
  const trimFraction = (digits: string): string => (digits.includes('.') ? digits.replace(/\.?0+$/, '') : digits);
  if (exponent < -4 || exponent >= 17) {
    const sign = exponent < 0 ? '-' : '+';
    return `${trimFraction(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trimFraction(value.toFixed(16 - exponent));
}

/**
 * Blocking timeouts in seconds (decimals allowed) to milliseconds, as
 * `getTimeoutFromObjectOrReply`: truncates, so 0.0001 means "forever" like Redis.
 */
export function parseTimeoutSeconds(text: string): number {
  const parsed = strtodWhole(text);
  if (!parsed || text.length === 0 || isCSpace(text.charCodeAt(0)) || (parsed.rangeError && parsed.value === 0)) {
    fail('timeout is not a float or out of range');
  }
  const milliseconds = Math.trunc(parsed.value * 1000);
  if (!(milliseconds >= 0)) fail('timeout is negative');
  return milliseconds;
}

/** Redis's index window for LRANGE and ZRANGE: negative counts from the end, clamped. */
export function rankWindow(startText: string, stopText: string, length: number): [number, number] | null {
  let start = requireLong(startText);
  let stop = requireLong(stopText);
  if (start < 0) start += length;
  if (stop < 0) stop += length;
  if (start < 0) start = 0;
  if (start > stop || start >= length) return null;
  if (stop >= length) stop = length - 1;
  return [start, stop];
}
