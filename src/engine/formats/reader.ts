/**
 * Typed reads from a jsonc tree that never throw: a value of the wrong type is
 * reported (`invalid-type`) and read as absent, so the loader can skip the bad
 * part and still build the rest of the workflow.
 */
import type { Diagnostic, JsonObject, JsonValue, NameRef, RelatedInfo, Severity, SourceLoc } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import { childPointer, describeNode, nodeLoc, nodeValue, ownerLoc, type JsonNode } from './jsonc.js';
import { Ref } from './ir-objects.js';

/** One `"key": value` of an object, with where it sits. */
export class Entry {
  private loc: SourceLoc | undefined;
  constructor(
    readonly key: string,
    /** The key's string node. */
    private readonly keyNode: JsonNode,
    readonly node: JsonNode,
    readonly pointer: string,
  ) {}

  /** The key's range (made on first use: most keys are never reported or kept in the IR). */
  get keyLoc(): SourceLoc {
    return (this.loc ??= nodeLoc(this.keyNode, this.pointer));
  }

  /** The same entry read under another key (an alias read as the field it spells differently); it stays where it is written. */
  renamed(key: string): Entry {
    return new Entry(key, this.keyNode, this.node, this.pointer);
  }
}

/** An object's entries by key (a linear search: objects in workflows have a handful of keys). */
export interface Fields {
  /** The entries in order. */
  readonly list: readonly Entry[];
  get(key: string): Entry | undefined;
  has(key: string): boolean;
  [Symbol.iterator](): Iterator<[string, Entry]>;
}

class EntryList implements Fields {
  constructor(readonly list: readonly Entry[]) {}

  get(key: string): Entry | undefined {
    const list = this.list;
    for (let i = 0; i < list.length; i++) if ((list[i] as Entry).key === key) return list[i];
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  *[Symbol.iterator](): Iterator<[string, Entry]> {
    for (const e of this.list) yield [e.key, e];
  }
}

/** Entries (as `entries` returns them: no repeated keys) by key, without the unknown-field check. */
export function fieldsOf(list: readonly Entry[]): Fields {
  return new EntryList(list);
}

/** Objects with more keys than this find repeated keys with a Map rather than a scan. */
const SCAN_LIMIT = 12;

export class Reader {
  readonly diagnostics: Diagnostic[] = [];

  report(
    severity: Severity,
    code: string,
    message: string,
    loc: SourceLoc,
    extra: { related?: RelatedInfo[]; data?: Record<string, JsonValue> } = {},
  ): void {
    this.diagnostics.push({ severity, code, message, loc, ...extra });
  }

  /**
   * The object's entries in order. A repeated key is reported; like JSON.parse,
   * the last occurrence is the one read.
   */
  entries(obj: JsonNode, pointer: string, what: string, duplicateCode = 'duplicate-key'): Entry[] {
    const children = obj.children;
    if (!children) return [];
    // Exactly sized (an array grown by push from empty reserves 17 slots, and this runs for every object read).
    const out: Entry[] = new Array<Entry>(children.length);
    let n = 0;
    const byKey = children.length > SCAN_LIMIT ? new Map<string, Entry>() : undefined;
    let prefix: string | undefined; // `${pointer}/`, made once for the object's keys
    for (let i = 0; i < children.length; i++) {
      const pc = (children[i] as JsonNode).children;
      const keyNode = pc?.[0];
      const valueNode = pc?.[1];
      if (!keyNode || !valueNode || typeof keyNode.value !== 'string') continue; // a syntax error, already reported
      const key = keyNode.value;
      const entry = new Entry(key, keyNode, valueNode, plainKey(key) ? (prefix ??= `${pointer}/`) + key : childPointer(pointer, key));
      const earlier = byKey ? byKey.get(key) : scan(out, n, key);
      if (earlier) {
        this.report(
          'error',
          duplicateCode,
          `\`${key}\` appears twice in ${what}; only the last one counts. Remove or rename one of them.`,
          entry.keyLoc,
          { related: [{ message: `first \`${key}\``, loc: earlier.keyLoc }] },
        );
        // Keep definition order of the surviving (last) entry: the ones after the earlier move up.
        for (let j = out.indexOf(earlier) + 1; j < n; j++) out[j - 1] = out[j] as Entry;
        n--;
      }
      byKey?.set(key, entry);
      out[n++] = entry;
    }
    if (n < out.length) out.length = n;
    return out;
  }

  /** Entries by key, with unknown keys warned about (with a suggestion for typos). */
  fields(obj: JsonNode, pointer: string, what: string, known: readonly string[]): Fields {
    const list = this.entries(obj, pointer, what);
    const knownSet = setOf(known);
    for (const entry of list) {
      if (knownSet.has(entry.key)) continue;
      const closest = closestName(entry.key, known);
      this.report(
        'warning',
        'unknown-field',
        `Unknown field \`${entry.key}\` in ${what}; it is ignored.${didYouMean(closest)}`,
        entry.keyLoc,
        closest === undefined ? {} : { data: { closest } },
      );
    }
    return new EntryList(list);
  }

  /** True when `node` is an object; otherwise reports what was expected. */
  isObject(node: JsonNode, pointer: string, what: string): boolean {
    return node.type === 'object' || this.expect(node, pointer, 'object', `${what} must be an object`);
  }

  missing(owner: JsonNode, pointer: string, field: string, what: string, hint = ''): void {
    const subject = what.charAt(0).toUpperCase() + what.slice(1);
    this.report('error', 'missing-field', `${subject} is missing the required field \`${field}\`.${hint}`, ownerLoc(owner, pointer), {
      data: { field },
    });
  }

  string(e: Entry | undefined): string | undefined {
    if (!e) return undefined;
    if (e.node.type !== 'string' && !this.expect(e.node, e.pointer, 'string', `\`${e.key}\` must be a string`)) return undefined;
    return e.node.value as string;
  }

  /** A string that names something (a state, a guard, a workflow), with its location. */
  ref(e: Entry | undefined): NameRef | undefined {
    const name = this.string(e);
    return e && name !== undefined ? new Ref(name, nodeLoc(e.node, e.pointer)) : undefined;
  }

  number(e: Entry | undefined): number | undefined {
    if (!e) return undefined;
    if (e.node.type !== 'number' && !this.expect(e.node, e.pointer, 'number', `\`${e.key}\` must be a number`)) return undefined;
    return e.node.value as number;
  }

  boolean(e: Entry | undefined): boolean | undefined {
    if (!e) return undefined;
    if (e.node.type !== 'boolean' && !this.expect(e.node, e.pointer, 'boolean', `\`${e.key}\` must be true or false`)) return undefined;
    return e.node.value as boolean;
  }

  /** One of `allowed`; anything else is reported with the allowed values. */
  oneOf<T extends string>(e: Entry | undefined, allowed: readonly T[]): T | undefined {
    const value = this.string(e);
    if (!e || value === undefined) return undefined;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    const closest = closestName(value, allowed);
    this.report(
      'error',
      'invalid-value',
      `\`${e.key}\` must be one of ${allowed.map((a) => `"${a}"`).join(', ')}; found "${value}".${didYouMean(closest)}`,
      nodeLoc(e.node, e.pointer),
      closest === undefined ? {} : { data: { closest } },
    );
    return undefined;
  }

  /** An array of strings; non-string items are reported and dropped. */
  stringArray(e: Entry | undefined): string[] | undefined {
    if (!e) return undefined;
    if (e.node.type !== 'array' && !this.expect(e.node, e.pointer, 'array', `\`${e.key}\` must be an array of strings`)) return undefined;
    const items = e.node.children ?? [];
    if (allStrings(items)) return items.map((item) => item.value as string); // exactly sized: the IR keeps it
    const out: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as JsonNode;
      if (item.type === 'string') out.push(item.value as string);
      else this.expect(item, childPointer(e.pointer, i), 'string', `Each item of \`${e.key}\` must be a string`);
    }
    return out;
  }

  /** Like stringArray, keeping each item's location. */
  refArray(e: Entry | undefined): NameRef[] | undefined {
    if (!e) return undefined;
    if (e.node.type !== 'array' && !this.expect(e.node, e.pointer, 'array', `\`${e.key}\` must be an array of strings`)) return undefined;
    return this.stringItems(e);
  }

  /** `{"NAME": "value"}` with string values; other values are reported and dropped. */
  stringRecord(e: Entry | undefined): Record<string, string> | undefined {
    if (!e || !this.isObject(e.node, e.pointer, `\`${e.key}\``)) return undefined;
    const out: Record<string, string> = {};
    for (const item of this.entries(e.node, e.pointer, `\`${e.key}\``)) {
      const value = this.string(item);
      if (value !== undefined) out[item.key] = value;
    }
    return out;
  }

  jsonObject(e: Entry | undefined): JsonObject | undefined {
    if (!e || !this.isObject(e.node, e.pointer, `\`${e.key}\``)) return undefined;
    return nodeValue(e.node) as JsonObject;
  }

  private stringItems(e: Entry): NameRef[] {
    const items = e.node.children ?? [];
    if (allStrings(items)) {
      return items.map((item, i) => {
        const pointer = childPointer(e.pointer, i);
        return new Ref(item.value as string, nodeLoc(item, pointer));
      });
    }
    const out: NameRef[] = [];
    (e.node.children ?? []).forEach((item, i) => {
      const pointer = childPointer(e.pointer, i);
      if (this.expect(item, pointer, 'string', `Each item of \`${e.key}\` must be a string`)) {
        out.push(new Ref(item.value as string, nodeLoc(item, pointer)));
      }
    });
    return out;
  }

  private expect(node: JsonNode, pointer: string, type: JsonNode['type'], message: string): boolean {
    if (node.type === type) return true;
    this.report('error', 'invalid-type', `${message}; found ${describeNode(node)}.`, nodeLoc(node, pointer), {
      data: { expected: type },
    });
    return false;
  }
}

/** The entry with `key` among the first `n` of `list`. */
function scan(list: readonly Entry[], n: number, key: string): Entry | undefined {
  for (let i = 0; i < n; i++) if ((list[i] as Entry).key === key) return list[i];
  return undefined;
}

/** A key that needs no escaping in a JSON pointer (as childPointer decides). */
function plainKey(key: string): boolean {
  return !key.includes('~') && !key.includes('/');
}

function allStrings(items: readonly JsonNode[]): boolean {
  for (let i = 0; i < items.length; i++) if ((items[i] as JsonNode).type !== 'string') return false;
  return true;
}

/** The field lists are constants: each one's Set is made once. */
const sets = new WeakMap<readonly string[], ReadonlySet<string>>();

function setOf(known: readonly string[]): ReadonlySet<string> {
  let set = sets.get(known);
  if (!set) sets.set(known, (set = new Set(known)));
  return set;
}
