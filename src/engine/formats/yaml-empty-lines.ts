/**
 * The `yaml` package's `parseDocument`, with long runs of empty lines read
 * once instead of line by line. Its lexer, parser and composer spend a few
 * microseconds on every line, so a broken document with 100,000 empty lines
 * (which the fast path, fast-yaml.ts, declines) took 150+ ms (the statechart
 * fuzzer, issue 13: every document in 50 ms).
 *
 * How: every run of at least MIN_RUN line breaks is cut down to KEEP in a
 * shorter text, which the package's Lexer reads (the lexer only asks whether a
 * line is empty, never how many there are). Its lexemes go to the package's
 * Parser as the package documents for a user-provided lexer. Up to a run's
 * last line break the short text is the original (offsets shifted); that last
 * line break stands for the rest of the run:
 * - a lexeme holding whole runs (a block scalar's body, a multi-line quoted or
 *   plain scalar) is handed over as the original text it stands for, so every
 *   value is exactly what the package reads from the original;
 * - a line break of its own (empty lines between entries or in a flow
 *   collection, which mean nothing) stays one, and the offsets after it are
 *   shifted back to the original text by `toOriginal`;
 * - a lexeme that starts or ends inside a run (an unclosed quote ends before
 *   its last line break) leaves the document to the package, as before.
 * - a block scalar's body is read short too (the package's composer splits its
 *   lines, slowly: 40 ms for a folded body of 90,000 empty lines), and its
 *   value gets the missing line breaks back (`fixValue`).
 */
import { Lexer, visit, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';
import { composeCapped } from './yaml-error-cap.js';

/**
 * Line breaks a run keeps: more than 1,024, the longest the package lets an
 * implicit key run (measured in characters), so every such check on a run
 * comes out as on the original.
 */
const KEEP = 1100;
/** Runs shorter than this are left alone (no document that anyone writes has one). */
const MIN_RUN = 2 * KEEP;
const RUN = new RegExp(`\\n{${MIN_RUN},}`, 'g');
/** The lexer's marker lexemes (parse/cst.js), which take no room in the text; a text holding them is left to the package. */
const KEEP_RUN = '\n'.repeat(KEEP);
const MARKERS = /[\x02\x18\x1f]/;
const SCALAR_MARKER = '\x1f';

export interface ShortParse {
  readonly doc: Document.Parsed;
  /** An offset in the package's ranges and errors -> the offset in the original text. */
  readonly toOriginal: (offset: number) => number;
  /** How many lexemes the parser was handed (the work done). */
  readonly lexemes: number;
  /** Errors the composer counted without making them (yaml-error-cap.ts). */
  readonly uncounted: number;
  /** Where reading stopped, in the parser's offsets (yaml-error-cap.ts). */
  readonly stoppedAt?: number;
  /** A string scalar's value (the node's range start, its value as read) -> its value in the original text. */
  readonly stringValue: (rangeStart: number | undefined, value: string) => string;
}

interface Run {
  /** Where the run starts in the short text (the original's up to its last line break). */
  readonly short: number;
  /** Its line breaks in the original. */
  readonly length: number;
}

/** The parse of `text` with its long runs of empty lines cut, or undefined when there are none (or the lexemes do not fit). */
export function parseDocumentShort(text: string, options: ParseOptions & DocumentOptions & SchemaOptions): ShortParse | undefined {
  if (!text.includes('\n'.repeat(MIN_RUN)) || MARKERS.test(text)) return undefined;
  const runs: Run[] = [];
  let removed = 0;
  const short = text.replace(RUN, (m: string, at: number) => {
    runs.push({ short: at - removed, length: m.length });
    removed += m.length - KEEP;
    return KEEP_RUN;
  });
  const lexemes = originalLexemes(text, short, runs);
  if (!lexemes) return undefined;
  // As parseDocument does, reading stopped in a run of quoted scalars as the package's path is (yaml-error-cap.ts).
  const read = composeCapped(lexemes.lexemes, lexemes.length, options, true);
  if (!read) return undefined;
  const { doc, uncounted, stoppedAt } = read;
  if (!foldedFixesHold(doc, lexemes.fixes)) return undefined;
  const { shifts, fixes } = lexemes;
  // Some messages quote a token's text (`Unexpected scalar token in YAML stream: "  \n\n…"`, found by the property
  // test); a token that ran over a cut run is quoted short. The package's error tokens quote their whole text and
  // cover it exactly, so such a quote is made again from the original text; any other message with a line break
  // sends the document to the package.
  let parserText: string | undefined; // the text the parser read, made only for such a message
  for (const e of [...doc.errors, ...doc.warnings]) {
    if (!e.message.includes('\\n')) continue;
    parserText ??= lexemes.lexemes.filter((l) => !(l.length === 1 && MARKERS.test(l))).join('');
    const quoted = `: ${JSON.stringify(parserText.slice(e.pos[0], e.pos[1]))}`;
    if (e.code !== 'UNEXPECTED_TOKEN' || !e.message.endsWith(quoted)) return undefined;
    const original = text.slice(toOriginal(shifts, e.pos[0]), toOriginal(shifts, e.pos[1]));
    e.message = `${e.message.slice(0, -quoted.length)}: ${JSON.stringify(original)}`;
  }
  // A position inside a cut run is placed in the original as far from the run's nearer end as it is in the
  // short text (the package places an error at a run's first or last line break, or next to them: an error
  // ending at a block scalar body's last line break, found by the property test). One far from both ends
  // cannot be placed: such a document is the package's too.
  if ([...doc.errors, ...doc.warnings].some((e) => farInsideRun(shifts, e.pos[0]) || farInsideRun(shifts, e.pos[1]))) return undefined;
  return {
    doc,
    toOriginal: (offset) => toOriginal(shifts, offset),
    lexemes: lexemes.lexemes.length,
    uncounted,
    ...(stoppedAt === undefined ? {} : { stoppedAt }),
    stringValue: (start, value) => {
      const fix = start === undefined ? undefined : fixes.get(start);
      return fix ? fixValue(fix, value) : value;
    },
  };
}

/** Past `at` (the parser's offsets), this many line breaks were left out; the run that ends there is the KEEP characters before it. */
interface Shift {
  readonly at: number;
  readonly total: number;
}

/** How near a run's end (in line breaks) a position inside it must be to be placed in the original. */
const NEAR_RUN_END = 16;

/** Whether `offset` falls inside a cut run, further than NEAR_RUN_END from both of its ends. */
function farInsideRun(shifts: readonly Shift[], offset: number): boolean {
  const next = shifts[firstShiftAfter(shifts, offset)];
  if (!next) return false;
  const start = next.at - KEEP;
  return offset - start > NEAR_RUN_END && next.at - offset > NEAR_RUN_END;
}

/** An offset of the parser's -> the original's: shifted by the runs before it, and by its own run when nearer that run's end. */
function toOriginal(shifts: readonly Shift[], offset: number): number {
  const i = firstShiftAfter(shifts, offset);
  const next = shifts[i];
  if (next && offset > next.at - KEEP && next.at - offset <= NEAR_RUN_END) return offset + next.total;
  return offset + (i === 0 ? 0 : shifts[i - 1]!.total);
}

/** The index of the first shift past `offset` (binary search). */
function firstShiftAfter(shifts: readonly Shift[], offset: number): number {
  let lo = 0;
  let hi = shifts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (shifts[mid]!.at <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The lexemes of the short text, each holding the original text it stands
 * for, except the second line break of a run split into line breaks, which
 * stays one; `length` is the length of the text they make up.
 */
function originalLexemes(text: string, short: string, runs: readonly Run[]): Lexemes | undefined {
  const lexemes: string[] = [];
  const shifts: Shift[] = [];
  const fixes = new Map<number, Fix>();
  let at = 0; // in the short text
  let out = 0; // in the text the parser sees
  let orig = 0; // in the original
  let r = 0; // the first run whose last line break is not yet passed
  let total = 0;
  /** The block scalar header last read (`|+` at `out`), until its body. */
  let header: { at: number; literal: boolean; keep: boolean } | undefined;
  let scalar = false;
  for (const lexeme of new Lexer().lex(short)) {
    if (lexeme.length === 1 && MARKERS.test(lexeme)) {
      scalar = lexeme === SCALAR_MARKER;
      lexemes.push(lexeme);
      continue;
    }
    // After a scalar marker, a scalar: the body of the header before it, if any.
    const body = scalar ? header : undefined;
    const c = lexeme.charCodeAt(0);
    if (scalar) header = undefined;
    else if (c === 124 || c === 62) header = { at: out, literal: c === 124, keep: lexeme.includes('+') };
    else if (c !== 32 && c !== 35 && c !== 10 && c !== 13) header = undefined; // not a space, comment or line break
    scalar = false;
    const end = at + lexeme.length;
    let source = lexeme;
    if (lexeme === '\n') {
      // A line break of its own (empty lines between entries or in a flow collection, which mean nothing):
      // a run's last one stands for the rest of the run, and the offsets after it shift.
      if (r < runs.length && at === runs[r]!.short + KEEP - 1) {
        orig += runs[r]!.length - KEEP;
        total += runs[r]!.length - KEEP;
        shifts.push({ at: out + 1, total });
        r++;
      }
    } else if (r < runs.length && runs[r]!.short < end) {
      // A lexeme that starts or ends inside a run (past its first line break) holds a part of it that may
      // depend on the run's length (an unclosed quote ends before its last line break): left to the package.
      // Except a block scalar's body right after its header's line break, the run's first: the body holds
      // the rest of the run, as it would hold all of a run further down.
      const bodyAfterHeader = body !== undefined && at === runs[r]!.short + 1;
      if (at > runs[r]!.short && at < runs[r]!.short + KEEP && !bodyAfterHeader) return undefined;
      const first = r;
      while (r < runs.length && runs[r]!.short + KEEP <= end) r++;
      if (r < runs.length && end > runs[r]!.short + 1 && end < runs[r]!.short + KEEP) return undefined;
      const held = runs.slice(first, r);
      const fix = !body ? undefined : body.literal ? literalFixes(lexeme, at, held, body.keep) : foldedFixes(lexeme, at, held, body.keep);
      if (body && fix) {
        // A block scalar's body: the parser reads it short (the package splits its lines, slowly),
        // the offsets after each run shift, and the value gets its line breaks back (`fixValue`).
        for (const run of held) {
          total += run.length - KEEP;
          shifts.push({ at: out + run.short - at + KEEP, total });
          orig += run.length - KEEP;
        }
        fixes.set(body.at, fix);
      } else {
        // A lexeme holding whole runs (a multi-line quoted or plain scalar, a block scalar body read whole): the original text.
        source = text.slice(orig, orig + lexeme.length + held.reduce((n, run) => n + run.length - KEEP, 0));
      }
    }
    lexemes.push(source);
    at = end;
    out += source.length;
    orig += source.length;
  }
  if (at !== short.length || orig !== text.length || r !== runs.length) return undefined;
  return { lexemes, shifts, fixes, length: out };
}

/**
 * Line breaks to put back into a block scalar's value. Literal: `count` of
 * them before the value's `newlines`-th line break, per run. Folded: `counts[i]`
 * of them at the i-th stretch of at least LONG_BLOCK line breaks in the value
 * (foldedFixes says why each run makes exactly one).
 */
type Fix =
  | { readonly folded: false; readonly runs: readonly { readonly newlines: number; readonly count: number }[] }
  | { readonly folded: true; readonly counts: readonly number[] };

interface Lexemes {
  readonly lexemes: string[];
  readonly shifts: Shift[];
  /** By the offset of the block scalar's header (its node's range start). */
  readonly fixes: Map<number, Fix>;
  /** The length of the text the lexemes make up. */
  readonly length: number;
}

/**
 * In a literal block scalar every line break of the body before its last
 * content line is one in the value (resolve-block-scalar.js), and so is every
 * one after it with keep chomping (`|+`); with clip or strip those are
 * dropped. So a run's missing line breaks go right before the value's line
 * break that the run's first one is. Undefined (read it whole) when empty
 * lines after the run hold spaces (more-indented ones count as content) and
 * the chomping is not keep.
 */
function literalFixes(body: string, at: number, held: readonly Run[], keep: boolean): Fix | undefined {
  const runs: { newlines: number; count: number }[] = [];
  for (const run of held) {
    const s = Math.max(0, run.short - at); // -1: the run's first line break ends the header's line
    const rest = body.slice(s);
    const trailing = !/[^\n ]/.test(rest);
    // Clip or strip: whether the run is trailing (its line breaks dropped) depends on whether a line of spaces
    // after it is content, which depends on the indentation the package detects. Keep: every line break is one
    // in the value either way.
    if (trailing && !keep && rest.includes(' ')) return undefined;
    let newlines = 0;
    for (let i = body.indexOf('\n'); i >= 0 && i < s; i = body.indexOf('\n', i + 1)) newlines++;
    runs.push({ newlines, count: trailing && !keep ? 0 : run.length - KEEP });
  }
  return { folded: false, runs };
}

/**
 * Value line breaks in a row that only a cut run makes in a folded value: a
 * run keeps KEEP line breaks, KEEP - 1 empty lines, each one line break of the
 * value (the line break before them is folded away at most).
 */
const LONG_BLOCK = KEEP - 1;
/** Empty or blank lines in a row elsewhere in a folded body: far fewer than LONG_BLOCK, so their line breaks never look like a run's. */
const STRAY_LINES = 500;

/**
 * In a folded block scalar every empty line is one line break of the value,
 * however many there are (line folding drops at most the line break before
 * them), and trailing ones follow the chomping as in a literal one. So a run
 * cut to KEEP line breaks leaves LONG_BLOCK or more line breaks in a row in
 * the value, and the original has `run.length - KEEP` more of them there.
 * That stretch of the value is found again by its length: undefined (read it
 * whole) unless every stretch of blank lines (empty, or spaces only) in the
 * body holds at most one run, and fewer than STRAY_LINES lines besides, so
 * that no other stretch of the value is as long and no two runs make one.
 */
function foldedFixes(body: string, at: number, held: readonly Run[], keep: boolean): Fix | undefined {
  const counts: number[] = [];
  for (const run of held) {
    const rest = body.slice(Math.max(0, run.short - at));
    const trailing = !/[^\n ]/.test(rest);
    // Clip or strip: whether the run is trailing (its line breaks dropped) depends on whether a line of spaces
    // after it is content, which depends on the indentation the package detects. Keep: every line break is one
    // in the value either way.
    if (trailing && !keep && rest.includes(' ')) return undefined;
    if (!trailing || keep) counts.push(run.length - KEEP);
  }
  return blankStretchesApart(body, held.map((run) => run.short - at)) ? { folded: true, counts } : undefined;
}

/** Whether each stretch of blank lines in `body` holds at most one of the runs (starting at `runStarts`) and fewer than STRAY_LINES other lines. */
function blankStretchesApart(body: string, runStarts: readonly number[]): boolean {
  let r = 0;
  let lines = 0; // blank lines in the current stretch, a run's own not counted
  let runs = 0; // runs starting in it
  for (let start = 0; start < body.length; ) {
    if (r < runStarts.length && start === runStarts[r]! + 1) {
      // The run's KEEP - 1 empty lines (its first line break ends the line before it).
      if (++runs > 1) return false;
      r++;
      start += KEEP - 1;
      continue;
    }
    if (r < runStarts.length && start > runStarts[r]!) return false; // a run not at a line break of its own
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    let blank = true;
    for (let i = start; i < end; i++) if (body.charCodeAt(i) !== 32) blank = false;
    if (blank && end < body.length) {
      if (++lines >= STRAY_LINES) return false;
    } else {
      lines = 0;
      runs = 0;
    }
    start = end + 1;
  }
  return r === runStarts.length;
}

/** Where the value has at least LONG_BLOCK line breaks in a row: the offset of each such stretch's first. */
function longBlocks(value: string): number[] {
  const at: number[] = [];
  const long = new RegExp(`\\n{${LONG_BLOCK},}`, 'g');
  for (let m = long.exec(value); m; m = long.exec(value)) at.push(m.index);
  return at;
}

/** Whether each folded block scalar read short has one long stretch of line breaks per run that needs line breaks back. */
function foldedFixesHold(doc: Document.Parsed, fixes: ReadonlyMap<number, Fix>): boolean {
  if (![...fixes.values()].some((f) => f.folded)) return true;
  let holds = true;
  visit(doc, {
    Scalar(_, node) {
      const fix = node.range ? fixes.get(node.range[0]) : undefined;
      if (fix?.folded && (typeof node.value !== 'string' || longBlocks(node.value).length !== fix.counts.length)) {
        holds = false;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return holds;
}

/** A block scalar's value with the line breaks of its runs put back. */
function fixValue(fix: Fix, value: string): string {
  if (fix.folded) {
    const at = longBlocks(value);
    for (let b = at.length - 1; b >= 0; b--) {
      const count = fix.counts[b] ?? 0;
      if (count > 0) value = value.slice(0, at[b]) + '\n'.repeat(count) + value.slice(at[b]);
    }
    return value;
  }
  const fixes = fix.runs;
  for (let f = fixes.length - 1; f >= 0; f--) {
    const { newlines, count } = fixes[f]!;
    if (count === 0) continue;
    let q = -1;
    for (let n = 0; n <= newlines; n++) {
      q = value.indexOf('\n', q + 1);
      if (q < 0) break;
    }
    if (q < 0) q = value.length;
    value = value.slice(0, q) + '\n'.repeat(count) + value.slice(q);
  }
  return value;
}
