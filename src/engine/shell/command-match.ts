/**
 * Word-by-word matching of a command against `allowed_commands` entries
 * (docs/enforcement.md, Shell commands). An entry is a list of words separated by
 * whitespace; the command's first words must equal them one by one, where `*`
 * inside an entry word matches any run of characters within that one word.
 * Words after the entry's last word are free (they are arguments).
 *
 * Leading `NAME=value` words of an entry name assignments the command must
 * carry (`NODE_OPTIONS=--max-old-space-size=4096 npm test`): that is how an
 * entry allows an assignment command-args.ts finds risky. A match tells what
 * the entry fixes, so a risky flag the entry names itself passes.
 */
import type { Assignment } from './command-args';
import type { Word } from './words';

export type Entry = readonly string[];

export function parseEntry(entry: string): Entry {
  return typeof entry === 'string' ? entry.trim().split(/\s+/).filter((w) => w !== '') : [];
}

/** An entry split into the assignments it names and the command words it fixes. */
interface SplitEntry {
  readonly assigns: Entry;
  readonly words: Entry;
}

const ASSIGNMENT_WORD = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

function splitEntry(entry: Entry): SplitEntry {
  let n = 0;
  while (n < entry.length - 1 && ASSIGNMENT_WORD.test(entry[n] ?? '')) n++;
  return { assigns: entry.slice(0, n), words: entry.slice(n) };
}

/** The part of an entry word before its first `*`: what it fixes literally. */
const literalPart = (w: string): string => {
  const star = w.indexOf('*');
  return star < 0 ? w : w.slice(0, star);
};

/** A matching entry, and what it fixes. */
export interface EntryMatch {
  readonly entry: string;
  /** Does the entry fix the command's word at `index` literally up to character `upTo` (its flag's name)? */
  covers(index: number, upTo: number): boolean;
  /** Does the entry name an assignment to `name`? */
  namesAssignment(name: string): boolean;
}

class Matched implements EntryMatch {
  constructor(
    readonly entry: string,
    private readonly split: SplitEntry,
  ) {}

  covers(index: number, upTo: number): boolean {
    const w = this.split.words[index];
    return w !== undefined && literalPart(w).length >= upTo;
  }

  namesAssignment(name: string): boolean {
    return this.split.assigns.some((a) => {
      const fixed = literalPart(a);
      return fixed.startsWith(`${name}=`) || fixed.startsWith(`${name}+=`);
    });
  }
}

/** An assignment as one word (`NAME=value`), for matching entry words against it. */
const assignmentWord = (a: Assignment): { value: string; dynamic: boolean } => ({
  value: `${a.name}${a.append ? '+=' : '='}${a.value?.value ?? ''}`,
  dynamic: a.value?.dynamic ?? false,
});

/**
 * Entries are split once, not on every decision: a state's `allowed_commands`
 * is asked about on every shell call. Bounded so a long-lived host that sees
 * many workflows does not grow without end.
 */
const splitEntries = new Map<string, SplitEntry>();
const MAX_SPLIT_ENTRIES = 4096;

function parsedEntry(raw: string): SplitEntry {
  let entry = splitEntries.get(raw);
  if (entry === undefined) {
    if (splitEntries.size >= MAX_SPLIT_ENTRIES) splitEntries.clear();
    entry = splitEntry(parseEntry(raw));
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
export function matchCommand(words: readonly Word[], entries: readonly string[], assigns: readonly Assignment[] = []): MatchResult {
  const m = matchEntries(words, entries, assigns);
  return m.match ? { ok: true, entry: m.match.entry } : { ok: false, dynamic: m.dynamic };
}

/**
 * The first entry, in the list's order, that the command matches and that
 * `accept` takes (its arguments are fine under it); `matched` says whether
 * any entry matched at all. Stops at the first accepted one: this is asked
 * of every simple command.
 */
export function matchEntries(
  words: readonly Word[],
  entries: readonly string[],
  assigns: readonly Assignment[] = [],
  accept: (m: EntryMatch) => boolean = () => true,
): { match?: EntryMatch; matched: boolean; dynamic: boolean } {
  let dynamic = false;
  let matched = false;
  for (const raw of entries) {
    const split = parsedEntry(raw);
    const entry = split.words;
    if (entry.length === 0 || entry.length > words.length) continue;
    let ok = split.assigns.every((e) =>
      assigns.some((a) => {
        const w = assignmentWord(a);
        dynamic ||= w.dynamic;
        return !w.dynamic && wordMatches(e, w.value);
      }),
    );
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
    if (ok) {
      const match = new Matched(raw, split);
      if (accept(match)) return { match, matched: true, dynamic };
      matched = true;
    }
  }
  return { matched, dynamic: dynamic || (words[0]?.dynamic ?? false) };
}
