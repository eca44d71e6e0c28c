/**
 * Where the cursor is in a (possibly incomplete) workflow document, from
 * jsonc-parser's `getLocation`, which works on broken text too: the JSON path
 * of the value or key under the cursor, and the string literal it is in.
 */
import { getLocation, type JSONPath } from 'jsonc-parser';

export interface Cursor {
  /** Path relative to the workflow object (a gateway wrapper's `definition` is stripped). */
  readonly path: readonly (string | number)[];
  /** True when the cursor is on (or where one would type) a property key. */
  readonly atKey: boolean;
  /**
   * The string literal under the cursor, if any: the range of its contents
   * (quotes excluded) and whether its closing quote is there yet.
   */
  readonly string?: { readonly start: number; readonly end: number; readonly closed: boolean; readonly value: string };
  /** True right after a complete value (`"target": "a"|`): nothing more belongs there. */
  readonly afterValue?: boolean;
}

/** Where nothing belongs: a document too deep to read (see cursorAt). */
const NOWHERE: Cursor = { path: [], atKey: false, afterValue: true };

export function cursorAt(text: string, offset: number, wrapped: boolean): Cursor {
  let location: ReturnType<typeof getLocation>;
  try {
    location = getLocation(text, offset);
  } catch (err) {
    // getLocation recurses per nesting level: thousands of levels exhaust the stack. Such a document is
    // refused anyway (formats/tree-depth.ts), and nothing is offered inside it.
    if (err instanceof RangeError) return NOWHERE;
    throw err;
  }
  const path = stripWrapper(location.path, wrapped);
  const node = location.previousNode;
  // On a key, getLocation reports the key as a `property` node spanning the key literal.
  if (node && (node.type === 'string' || node.type === 'property') && offset > node.offset && offset <= node.offset + node.length) {
    const raw = text.slice(node.offset, node.offset + node.length);
    const closed = raw.length >= 2 && raw.endsWith('"') && !raw.endsWith('\\"');
    const start = node.offset + 1;
    const end = closed ? node.offset + node.length - 1 : node.offset + node.length;
    // Inside the literal, or right after an unclosed one: the cursor can never be past the closing quote here.
    if (offset <= end) {
      return { path, atKey: location.isAtPropertyKey, string: { start, end, closed, value: literalValue(raw, closed) } };
    }
  }
  const afterValue = node !== undefined && node.type !== 'property' && offset >= node.offset + node.length;
  return afterValue ? { path, atKey: location.isAtPropertyKey, afterValue } : { path, atKey: location.isAtPropertyKey };
}

/** The string a literal stands for; a `property` node carries no value of its own. */
function literalValue(raw: string, closed: boolean): string {
  try {
    const v: unknown = JSON.parse(closed ? raw : `${raw}"`);
    return typeof v === 'string' ? v : '';
  } catch {
    return raw.slice(1, closed ? -1 : undefined);
  }
}

function stripWrapper(path: JSONPath, wrapped: boolean): (string | number)[] {
  return wrapped && path[0] === 'definition' ? path.slice(1) : [...path];
}

/** True when `path` matches `pattern`, where `*` matches any key and `#` any array index. */
export function pathMatches(path: readonly (string | number)[], pattern: readonly string[]): boolean {
  if (path.length !== pattern.length) return false;
  return pattern.every((p, i) => {
    const seg = path[i];
    if (p === '*') return typeof seg === 'string';
    if (p === '#') return typeof seg === 'number';
    return seg === p;
  });
}
