/**
 * Typed reads from a jsonc tree that never throw: a value of the wrong type is
 * reported (`invalid-type`) and read as absent, so the loader can skip the bad
 * part and still build the rest of the workflow.
 */
import type { Diagnostic, JsonObject, JsonValue, NameRef, RelatedInfo, Severity, SourceLoc } from '../model.js';
import { closestName, didYouMean } from '../suggest.js';
import { childPointer, describeNode, nodeLoc, nodeValue, ownerLoc, type JsonNode } from './jsonc.js';

/** One `"key": value` of an object, with where it sits. */
export interface Entry {
  readonly key: string;
  readonly keyLoc: SourceLoc;
  readonly node: JsonNode;
  readonly pointer: string;
}

export type Fields = ReadonlyMap<string, Entry>;

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
    const byKey = new Map<string, Entry>();
    for (const prop of obj.children ?? []) {
      const keyNode = prop.children?.[0];
      const valueNode = prop.children?.[1];
      if (!keyNode || !valueNode || typeof keyNode.value !== 'string') continue; // a syntax error, already reported
      const key = keyNode.value;
      const entryPointer = childPointer(pointer, key);
      const entry: Entry = { key, keyLoc: nodeLoc(keyNode, entryPointer), node: valueNode, pointer: entryPointer };
      const earlier = byKey.get(key);
      if (earlier) {
        this.report(
          'error',
          duplicateCode,
          `\`${key}\` appears twice in ${what}; only the last one counts. Remove or rename one of them.`,
          entry.keyLoc,
          { related: [{ message: `first \`${key}\``, loc: earlier.keyLoc }] },
        );
        byKey.delete(key); // keep definition order of the surviving (last) entry
      }
      byKey.set(key, entry);
    }
    return [...byKey.values()];
  }

  /** Entries by key, with unknown keys warned about (with a suggestion for typos). */
  fields(obj: JsonNode, pointer: string, what: string, known: readonly string[]): Fields {
    const map = new Map<string, Entry>();
    for (const entry of this.entries(obj, pointer, what)) {
      map.set(entry.key, entry);
      if (known.includes(entry.key)) continue;
      const closest = closestName(entry.key, known);
      this.report(
        'warning',
        'unknown-field',
        `Unknown field \`${entry.key}\` in ${what}; it is ignored.${didYouMean(closest)}`,
        entry.keyLoc,
        closest === undefined ? {} : { data: { closest } },
      );
    }
    return map;
  }

  /** True when `node` is an object; otherwise reports what was expected. */
  isObject(node: JsonNode, pointer: string, what: string): boolean {
    return this.expect(node, pointer, 'object', `${what} must be an object`);
  }

  missing(owner: JsonNode, pointer: string, field: string, what: string, hint = ''): void {
    const subject = what.charAt(0).toUpperCase() + what.slice(1);
    this.report('error', 'missing-field', `${subject} is missing the required field \`${field}\`.${hint}`, ownerLoc(owner, pointer), {
      data: { field },
    });
  }

  string(e: Entry | undefined): string | undefined {
    if (!e || !this.expect(e.node, e.pointer, 'string', `\`${e.key}\` must be a string`)) return undefined;
    return e.node.value as string;
  }

  /** A string that names something (a state, a guard, a workflow), with its location. */
  ref(e: Entry | undefined): NameRef | undefined {
    const name = this.string(e);
    return e && name !== undefined ? { name, loc: nodeLoc(e.node, e.pointer) } : undefined;
  }

  number(e: Entry | undefined): number | undefined {
    if (!e || !this.expect(e.node, e.pointer, 'number', `\`${e.key}\` must be a number`)) return undefined;
    return e.node.value as number;
  }

  boolean(e: Entry | undefined): boolean | undefined {
    if (!e || !this.expect(e.node, e.pointer, 'boolean', `\`${e.key}\` must be true or false`)) return undefined;
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
    if (!e || !this.expect(e.node, e.pointer, 'array', `\`${e.key}\` must be an array of strings`)) return undefined;
    return this.stringItems(e).map((r) => r.name);
  }

  /** Like stringArray, keeping each item's location. */
  refArray(e: Entry | undefined): NameRef[] | undefined {
    if (!e || !this.expect(e.node, e.pointer, 'array', `\`${e.key}\` must be an array of strings`)) return undefined;
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
    const out: NameRef[] = [];
    (e.node.children ?? []).forEach((item, i) => {
      const pointer = childPointer(e.pointer, i);
      if (this.expect(item, pointer, 'string', `Each item of \`${e.key}\` must be a string`)) {
        out.push({ name: item.value as string, loc: nodeLoc(item, pointer) });
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
