/**
 * One escape in a double-quoted YAML scalar, read as the `yaml` package reads
 * it (compose/resolve-flow-scalar.js): the one-character escapes of YAML 1.2
 * and `\xXX`, `\uXXXX`, `\UXXXXXXXX` as code points. For fast-yaml.ts, which
 * takes a double-quoted scalar on one line only: an escaped line break (a
 * continuation), an escape the package reports as invalid, or a code point
 * past U+10FFFF returns undefined, and the document goes to the package.
 */

/** The one-character escapes and what they stand for (YAML 1.2, 5.7), tab aside: the fast path takes no tabs. */
const SINGLE: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};

const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9a-fA-F]+$/;

/** The escape whose backslash is at `at`: the text it stands for and the offset after it, or undefined. */
export function readEscape(text: string, at: number): { readonly text: string; readonly end: number } | undefined {
  const name = text[at + 1];
  if (name === undefined) return undefined;
  const single = SINGLE[name];
  if (single !== undefined) return { text: single, end: at + 2 };
  const digits = HEX_DIGITS[name];
  if (digits === undefined) return undefined;
  const hex = text.slice(at + 2, at + 2 + digits);
  if (hex.length !== digits || !HEX.test(hex)) return undefined;
  const code = parseInt(hex, 16);
  if (code > 0x10ffff) return undefined;
  return { text: String.fromCodePoint(code), end: at + 2 + digits };
}
