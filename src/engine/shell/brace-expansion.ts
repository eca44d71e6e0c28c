/**
 * Brace expansion of literal text (`tests/{a,b}.py`, `{1..3}`), done the way
 * bash does it, before anything runs: the words it makes are known from the
 * text alone, so the analysis reads them as the literal words they are
 * (docs/design/shell-parser.md, "Brace expansion"). A word with anything
 * run-time in it (`$`, quotes, backslashes, `?`/`[` globs) is left alone and
 * stays a run-time word.
 */
import type { Word } from './words';

/** Characters a word may hold to be expanded here: plain text, `*` globs and the braces themselves. */
const LITERAL = /^[A-Za-z0-9_./:@%+=,*{}-]+$/;
/** More words than this from one word: left as a run-time word (and a deny, where that matters). */
const MAX_WORDS = 256;

/**
 * The words a written word stands for after brace expansion, or undefined
 * when it has no brace expansion this can read (it is then kept as it is).
 */
export function braceWords(w: Word): Word[] | undefined {
  if (!w.dynamic || w.starGlob || !w.text.includes('{') || !LITERAL.test(w.text)) return undefined;
  // bash drops the empty words an expansion makes (`{x,}` is the one word `x`).
  const out = expand(w.text)?.filter((s) => s !== '');
  if (!out || (out.length === 1 && out[0] === w.text)) return undefined;
  // Each result is plain text again; a `*` left in it is still a glob (command-match.ts reads those).
  return out.map((s) => (s.includes('*') ? { value: s, dynamic: true, starGlob: true, text: s } : { value: s, dynamic: false, text: s }));
}

/** bash's expansion of one word: the first well-formed `{...}` from the left, then the rest of the word. */
function expand(text: string, budget = { left: MAX_WORDS }): string[] | undefined {
  const found = firstBrace(text);
  if (!found) return [text];
  const { open, close, items } = found;
  const pre = text.slice(0, open);
  const posts = expand(text.slice(close + 1), budget);
  if (!posts) return undefined;
  const out: string[] = [];
  for (const item of items) {
    const alts = expand(item, budget);
    if (!alts) return undefined;
    for (const a of alts) {
      for (const p of posts) {
        if (--budget.left < 0) return undefined;
        out.push(pre + a + p);
      }
    }
  }
  return out;
}

/**
 * The first `{` (from the left) that opens a brace expansion: a matching `}`
 * with a comma at its own level (`{a,b}`) or a sequence (`{1..3}`, `{a..e}`,
 * `{01..10..2}`). Other braces (`{}`, `{x}`) are literal text for bash.
 */
function firstBrace(text: string): { open: number; close: number; items: string[] } | undefined {
  for (let open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        close = i;
        break;
      } else if (c === ',' && depth === 1) commas.push(i);
    }
    if (close < 0) continue;
    const body = text.slice(open + 1, close);
    if (commas.length > 0) {
      const items: string[] = [];
      let from = open + 1;
      for (const at of [...commas, close]) {
        items.push(text.slice(from, at));
        from = at + 1;
      }
      return { open, close, items };
    }
    const seq = sequence(body);
    if (seq) return { open, close, items: seq };
  }
  return undefined;
}

/** `{x..y[..step]}` with integers (zero-padded when an end is) or single letters; undefined when not one. */
function sequence(body: string): string[] | undefined {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  // Letters of one case only: between `Z` and `a` lie `[`, `\` and a backtick.
  const chr = /^(?:([a-z])\.\.([a-z])|([A-Z])\.\.([A-Z]))(?:\.\.(-?\d+))?$/.exec(body);
  if (!num && !chr) return undefined;
  const m = num ?? [chr![0], chr![1] ?? chr![3], chr![2] ?? chr![4], chr![5]];
  const from = num ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = num ? Number(m[2]) : m[2]!.charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step >= MAX_WORDS) return undefined;
  const width = num && (/^-?0\d/.test(m[1]!) || /^-?0\d/.test(m[2]!)) ? Math.max(m[1]!.length, m[2]!.length) : 0;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
    if (!num) out.push(String.fromCharCode(v));
    else out.push(v < 0 ? `-${String(-v).padStart(width - 1, '0')}` : String(v).padStart(width, '0'));
  }
  return out;
}
