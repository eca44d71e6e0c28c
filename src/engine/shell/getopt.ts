/**
 * Reads a command's options the way glibc's getopt_long does, from one table
 * per program (program-options.ts): a long option may be shortened to any
 * prefix that names one option only (`env --s=...` is `--split-string`), an
 * ambiguous or unknown one makes the program stop with an error, `--name=v`
 * or `--name v` give a required argument, an optional one is only ever
 * attached, short options cluster (`-iu NAME`), and `--` ends options.
 * Reading it any other way lets an agent hide an option from the analysis
 * that the program itself still obeys.
 */
import { wordShape } from './dynamic-shape';
import type { OptionSpec, ProgramOptions } from './option-spec';
import type { Word } from './words';

export interface ReadOption {
  readonly spec: OptionSpec;
  /** As written, up to its argument (`--s`, `-S`). */
  readonly spelling: string;
  /** Its argument (attached ones as a word of their own). */
  readonly value?: Word;
  /** Index of the option's word. */
  readonly index: number;
  /** Index of the last word it used (its argument's, when that is the next word). */
  readonly last: number;
}

export type Getopt =
  | {
      readonly ok: true;
      readonly options: readonly ReadOption[];
      /** The words that are not options, with their indexes. */
      readonly operands: readonly { readonly word: Word; readonly index: number }[];
      /** Without permutation: the index of the first operand (the wrapped command), or words.length. */
      readonly end: number;
    }
  | {
      readonly ok: false;
      /** Why the program would not read it the way stategate can (said in the reason). */
      readonly error: string;
      /** The word at fault. */
      readonly index: number;
      /** The word is only known when it runs (else: the program itself would stop with an error, or the option is unknown). */
      readonly dynamic?: boolean;
    };

/** The option a long name means: exact, else the only one it is a prefix of. */
function longOption(t: ProgramOptions, name: string): OptionSpec | 'ambiguous' | undefined {
  const exact = t.options.find((o) => o.long?.includes(name));
  if (exact) return exact;
  const matches = t.options.filter((o) => o.long?.some((l) => l.startsWith(name)));
  if (matches.length > 1) return 'ambiguous';
  return matches[0];
}

const shortOption = (t: ProgramOptions, c: string): OptionSpec | undefined => t.options.find((o) => o.short?.includes(c));

/**
 * A run-time word where an option may stand: readable only if it cannot
 * split, and starts with a literal character (a literal `-` makes it an
 * option, whose name is then checked to be literal too).
 */
function hidesOption(w: Word): boolean {
  if (!w.dynamic) return false;
  const shape = wordShape(w);
  return shape.splits || shape.first === undefined;
}

/** Reads `words` (words[0] is the program) with its table, from word `from` on. */
export function getopt(t: ProgramOptions, words: readonly Word[], from = 1): Getopt {
  const options: ReadOption[] = [];
  const operands: { word: Word; index: number }[] = [];
  const value = (w: Word, v: string): Word => ({ value: v, dynamic: w.dynamic, text: w.text });
  const fail = (index: number, error: string): Getopt => ({ ok: false, index, error, ...(words[index]?.dynamic ? { dynamic: true } : {}) });
  let i = from;
  for (; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    if (hidesOption(w)) return fail(i, `\`${w.text}\` is only known when it runs, where ${t.program} reads its options`);
    if (!w.dynamic && v === '--') {
      for (let k = i + 1; k < words.length; k++) operands.push({ word: words[k]!, index: k });
      return { ok: true, options, operands, end: t.permute ? words.length : i + 1 };
    }
    // `nice -10 cmd`: an old spelling of -n 10.
    if (t.numeric && !w.dynamic && /^-\d+$/.test(v)) continue;
    if (!v.startsWith('-') || v === '-') {
      if (!t.permute) break;
      operands.push({ word: w, index: i });
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = v.slice(2, eq < 0 ? undefined : eq);
      if (w.dynamic && /[$`*?[{~]/.test(name)) return fail(i, `\`${w.text}\` is only known when it runs, where ${t.program} reads its options`);
      const spec = longOption(t, name);
      const spelling = `--${name}`;
      if (spec === 'ambiguous') return fail(i, `${t.program} ${spelling} is ambiguous (it is the start of several options), so ${t.program} stops with an error`);
      if (!spec) return fail(i, `${t.program} ${spelling} is not an option stategate knows for ${t.program}`);
      if (eq >= 0) {
        if (spec.arg === 'none') return fail(i, `${t.program} ${spelling} takes no value, so ${t.program} stops with an error`);
        options.push({ spec, spelling, value: value(w, v.slice(eq + 1)), index: i, last: i });
      } else if (spec.arg === 'required') {
        const next = words[i + 1];
        if (!next) return fail(i, `${t.program} ${spelling} needs a value, so ${t.program} stops with an error`);
        options.push({ spec, spelling, value: next, index: i, last: i + 1 });
        i++;
      } else options.push({ spec, spelling, index: i, last: i });
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (w.dynamic && '$`*?[{~'.includes(c)) return fail(i, `\`${w.text}\` is only known when it runs, where ${t.program} reads its options`);
      const spec = shortOption(t, c);
      if (!spec) return fail(i, `${t.program} -${c} is not an option stategate knows for ${t.program}`);
      const rest = v.slice(k + 1);
      if (spec.arg === 'none') {
        options.push({ spec, spelling: `-${c}`, index: i, last: i });
        continue;
      }
      if (rest !== '') options.push({ spec, spelling: `-${c}`, value: value(w, rest), index: i, last: i });
      else if (spec.arg === 'required') {
        const next = words[i + 1];
        if (!next) return fail(i, `${t.program} -${c} needs a value, so ${t.program} stops with an error`);
        options.push({ spec, spelling: `-${c}`, value: next, index: i, last: i + 1 });
        i++;
      } else options.push({ spec, spelling: `-${c}`, index: i, last: i });
      break;
    }
  }
  if (!t.permute) for (let k = i; k < words.length; k++) operands.push({ word: words[k]!, index: k });
  return { ok: true, options, operands, end: t.permute ? words.length : i };
}

/**
 * The command with each option in its full spelling (`--outp=f` → `--output f`,
 * `-o f` → `--output f`), so the code that finds writes reads one spelling.
 * Options without a long name stay as written; a required argument is a word of
 * its own, an optional one stays attached.
 */
export function canonicalWords(words: readonly Word[], read: Extract<Getopt, { ok: true }>): Word[] {
  const out: Word[] = [words[0]!];
  const byIndex = new Map<number, ReadOption[]>();
  for (const o of read.options) byIndex.set(o.index, [...(byIndex.get(o.index) ?? []), o]);
  const operandAt = new Set(read.operands.map((o) => o.index));
  let dashDash = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const opts = byIndex.get(i);
    if (opts) {
      for (const o of opts) {
        // Without a long name the letter as written (chmod's mode letters share one entry: `-x` stays `-x`).
        const name = o.spec.long?.[0] !== undefined ? `--${o.spec.long[0]}` : o.spelling;
        if (o.value === undefined) out.push({ value: name, dynamic: false, text: o.spelling });
        else if (o.spec.arg === 'required') out.push({ value: name, dynamic: false, text: o.spelling }, o.value);
        else out.push({ ...o.value, value: `${name}${name.startsWith('--') ? '=' : ''}${o.value.value}` });
      }
      i = Math.max(...opts.map((o) => o.last));
      continue;
    }
    if (operandAt.has(i) && !w.dynamic && w.value.startsWith('-') && w.value !== '-' && !dashDash) {
      // An operand that looks like an option (after `--`): keep it an operand.
      out.push({ value: '--', dynamic: false, text: '--' });
      dashDash = true;
    }
    if (!w.dynamic && w.value === '--') dashDash = true;
    out.push(w);
  }
  return out;
}
