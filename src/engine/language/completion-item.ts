/**
 * What a completion offers (the editor maps `kind` to its icons), and the
 * context paths several completions offer (guards' fields, expressions,
 * prompt placeholders).
 */
import type { JsonObject } from '../model/index.js';

export type CompletionKind = 'state' | 'keyword' | 'guard' | 'tool' | 'context-field' | 'event' | 'workflow' | 'action' | 'field';

export interface CompletionItem {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
  /** The text range the item replaces (the string's contents when the cursor is in one). */
  readonly range: { readonly start: number; readonly end: number };
  readonly insertText: string;
}

/** Top-level context keys and the dotted paths into nested objects (guards may address either). */
export function contextPaths(context: JsonObject, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(context)) {
    const path = prefix + key;
    out.push(path);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push(...contextPaths(value, `${path}.`));
  }
  return out;
}
