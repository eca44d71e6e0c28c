/**
 * Expected source ranges computed from fixture text (never hard-coded offsets):
 * `lit` for the contents of a string literal (the IR's string ranges exclude
 * the quotes), `span` for any raw substring.
 */
import assert from 'node:assert/strict';
import type { Diagnostic } from '../../../src/engine/model/index.js';

export interface Range {
  readonly start: number;
  readonly end: number;
}

/** The raw range of the `nth` (0-based) occurrence of `needle`. */
export function span(text: string, needle: string, nth = 0): Range {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `fixture has no occurrence ${nth} of ${JSON.stringify(needle)}`);
  }
  return { start: at, end: at + needle.length };
}

/** The contents (without quotes) of the `nth` occurrence of the string literal `"value"`. */
export function lit(text: string, value: string, nth = 0): Range {
  const r = span(text, JSON.stringify(value), nth);
  return { start: r.start + 1, end: r.end - 1 };
}

export function rangeOf(d: Diagnostic): Range {
  return { start: d.loc.start, end: d.loc.end };
}

/** The diagnostics with `code`, as {code, start, end} for readable assertion failures. */
export function withCode(diagnostics: readonly Diagnostic[], code: string): Array<{ code: string } & Range> {
  return diagnostics.filter((d) => d.code === code).map((d) => ({ code: d.code, ...rangeOf(d) }));
}
