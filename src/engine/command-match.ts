/**
 * Word-by-word matching of a command against `allowed_commands` entries
 * (DESIGN.md, Shell commands). An entry is a list of words separated by
 * whitespace; the command's first words must equal them one by one, where `*`
 * inside an entry word matches any run of characters within that one word.
 * Words after the entry's last word are free (they are arguments).
 */
import type { Word } from './shell-words';

export type Entry = readonly string[];

export function parseEntry(entry: string): Entry {
  return typeof entry === 'string' ? entry.trim().split(/\s+/).filter((w) => w !== '') : [];
}

/**
 * Entries are split once, not on every decision: a state's `allowed_commands`
 * is asked about on every shell call. Bounded so a long-lived host that sees
 * many workflows does not grow without end.
 */
const splitEntries = new Map<string, Entry>();
const MAX_SPLIT_ENTRIES = 4096;

function parsedEntry(raw: string): Entry {
  let entry = splitEntries.get(raw);
  if (entry === undefined) {
    if (splitEntries.size >= MAX_SPLIT_ENTRIES) splitEntries.clear();
    entry = parseEntry(raw);
    splitEntries.set(raw, entry);
  }
  return entry;
}

/** `*` matches any run of characters (including none); every other character is literal. */
export function wordMatches(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === value;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  let at = first.length;
  const end = value.length - last.length;
  for (const mid of parts.slice(1, -1)) {
    const found = value.indexOf(mid, at);
    if (found < 0 || found + mid.length > end) return false;
    at = found + mid.length;
  }
  return true;
}

export type MatchResult = { readonly ok: true; readonly entry: string } | { readonly ok: false; readonly dynamic: boolean };

/**
 * Does the command (its words after quote removal) match one of the entries?
 * `dynamic` on a failure says a run-time word stood where an entry needed a
 * literal one (so the reason is "cannot be analysed", not "not allowed").
 */
export function matchCommand(words: readonly Word[], entries: readonly string[]): MatchResult {
  let dynamic = false;
  for (const raw of entries) {
    const entry = parsedEntry(raw);
    if (entry.length === 0 || entry.length > words.length) continue;
    let ok = true;
    for (let i = 0; i < entry.length && ok; i++) {
      const w = words[i];
      // A `*` glob passes only where the entry word's own `*` covers it: the
      // entry's literal parts hold no `*`, so each glob star falls inside an
      // entry star, which matches whatever the glob expands to.
      // Only in the entry's last word: a glob expanding to several words
      // would shift the words an entry fixes after it.
      if (w && w.starGlob && i > 0 && i === entry.length - 1) ok = wordMatches(entry[i] ?? '', w.value);
      else if (!w || w.dynamic) {
        dynamic ||= w?.dynamic ?? false;
        ok = false;
      } else ok = wordMatches(entry[i] ?? '', w.value);
    }
    if (ok) return { ok: true, entry: raw };
  }
  return { ok: false, dynamic: dynamic || (words[0]?.dynamic ?? false) };
}
