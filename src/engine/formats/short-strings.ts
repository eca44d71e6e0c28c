/**
 * Short strings (keys, state names, tool names) repeat throughout a workflow
 * and from one check of a file to the next; each would otherwise be a new
 * string, hashed again wherever it is looked up (field sets, maps, property
 * keys). A small table, indexed by a hash of the characters, hands back the
 * string already made when the characters match. The table keeps only strings
 * that do not point into a text (a slice of 13 or more characters would keep
 * the whole old text alive): those are replaced by their internalized copy.
 * Used by the fast JSON path (fast-tree.ts).
 */

/** Strings up to this long go through the table. */
export const SHORT = 32;
const TABLE_SIZE = 8192;
const table: Array<string | undefined> = new Array<string | undefined>(TABLE_SIZE).fill(undefined);

/** `src.slice(start, end)`, or the equal string the table already holds. */
export function shortString(src: string, start: number, end: number): string {
  let hash = end - start;
  for (let i = start; i < end; i++) hash = ((hash << 5) - hash + src.charCodeAt(i)) | 0; // hash * 31 + c, kept in 32 bits
  const slot = (hash ^ (hash >>> 13)) & (TABLE_SIZE - 1);
  const known = table[slot];
  if (known !== undefined && known.length === end - start && src.startsWith(known, start)) return known;
  let made = src.slice(start, end);
  // A property key is internalized: a flat copy of its own (engines do not slice internalized strings).
  if (made.length >= 13) made = Object.keys({ [made]: 0 })[0] ?? made;
  table[slot] = made;
  return made;
}
