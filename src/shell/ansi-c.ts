const ANSI_C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** The text of `$'…'` as bash decodes it: `$'\x72m'` and `$'\162\155'` are `rm`. An escape bash does not know stays as written. */
export function ansiCValue(inner: string): string {
  return inner.replace(
    /\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|c(.)|(.))/gs,
    (whole, octal?: string, hex?: string, u?: string, longU?: string, control?: string, other?: string) => {
      if (control !== undefined) return String.fromCharCode(control.charCodeAt(0) & 0x1f);
      if (other !== undefined) return ANSI_C_ESCAPES[other] ?? (`\\'"?`.includes(other) ? other : whole);
      const code = octal !== undefined ? parseInt(octal, 8) & 0xff : parseInt((hex ?? u ?? longU)!, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    },
  );
}
