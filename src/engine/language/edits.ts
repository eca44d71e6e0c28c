/**
 * Text edits on workflow JSON that keep the file well-formed: replacing a
 * name inside a string literal, and inserting / removing properties through
 * jsonc-parser's `modify` (which handles commas and indentation).
 */
import { findNodeAtLocation, modify, type FormattingOptions, type JSONPath, type Node } from 'jsonc-parser';
import type { Workflow } from '../model/index.js';
import { parseJsoncTree } from '../formats/jsonc.js';

/** One replacement of the text between two offsets (end exclusive). */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** `name` as it must be written between the quotes of a JSON string. */
export function jsonStringContents(name: string): string {
  return JSON.stringify(name).slice(1, -1);
}

/** Applies edits (non-overlapping, any order) to `text`; used by tests and to preview fixes. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/** One edit that turns `before` into `after` (the changed middle), or none when they are equal. */
export function diffEdit(before: string, after: string): TextEdit[] {
  if (after === before) return [];
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endOld = before.length;
  let endNew = after.length;
  while (endOld > start && endNew > start && before[endOld - 1] === after[endNew - 1]) {
    endOld--;
    endNew--;
  }
  return [{ start, end: endOld, newText: after.slice(start, endNew) }];
}

/** The indentation the file already uses (first indented line), so inserted JSON matches it. */
export function formattingOf(text: string): FormattingOptions {
  const m = /\n([ \t]+)\S/.exec(text);
  const indent = m?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/** The JSON path of the workflow object (inside a gateway wrapper it is `definition`). */
export function workflowPath(wf: Workflow | undefined): JSONPath {
  return wf?.loc.pointer === '/definition' ? ['definition'] : [];
}

/**
 * Sets (or, with `undefined`, removes) the value at `path` below the workflow
 * object; the edits insert a missing property at the end of its object.
 */
export function setValue(text: string, wf: Workflow | undefined, path: JSONPath, value: unknown): TextEdit[] {
  const full = [...workflowPath(wf), ...path];
  if (value === undefined) return removal(text, full);
  const inserted = insertion(text, full, value);
  if (inserted) return inserted;
  const edits = modify(text, full, value, { formattingOptions: formattingOf(text) });
  return edits.map((e) => ({ start: e.offset, end: e.offset + e.length, newText: e.content }));
}

function tree(text: string): Node | undefined {
  return parseJsoncTree(text);
}

const endOf = (n: Node): number => n.offset + n.length;

/** The leading whitespace of the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/**
 * Adds a new property after the last one of its object, laid out like its
 * neighbours (one per line, or inline in a one-line object), creating missing
 * parent objects on the way; nothing else in the file moves. Undefined when
 * the property exists already (then `modify` replaces its value).
 */
function insertion(text: string, path: JSONPath, value: unknown): TextEdit[] | undefined {
  const root = tree(text);
  if (!root || findNodeAtLocation(root, path)) return undefined;
  let k = path.length - 1;
  let wrapped = value;
  let container = k === 0 ? root : findNodeAtLocation(root, path.slice(0, k));
  while (container?.type !== 'object' && k > 0) {
    if (container) return undefined; // a non-object is in the way: let `modify` report nothing rather than guess
    wrapped = { [String(path[k])]: wrapped };
    k--;
    container = k === 0 ? root : findNodeAtLocation(root, path.slice(0, k));
  }
  if (container?.type !== 'object') return undefined;
  const fmt = formattingOf(text);
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  const eol = fmt.eol ?? '\n';
  const last = container.children?.[container.children.length - 1];
  const close = endOf(container) - 1;
  const oneLine = !text.slice(container.offset, last ? last.offset : close).includes('\n');
  const key = JSON.stringify(String(path[k]));
  if (oneLine) {
    const entry = `${key}: ${JSON.stringify(wrapped, null, 1).replace(/\n\s*/g, ' ')}`;
    return last ? [{ start: endOf(last), end: endOf(last), newText: `, ${entry}` }] : [{ start: container.offset + 1, end: close, newText: ` ${entry} ` }];
  }
  const indent = last ? lineIndent(text, last.offset) : lineIndent(text, container.offset) + unit;
  const entry = `${key}: ${JSON.stringify(wrapped, null, unit).replace(/\n/g, eol + indent)}`;
  return [{ start: last ? endOf(last) : container.offset + 1, end: last ? endOf(last) : container.offset + 1, newText: `${last ? ',' : ''}${eol}${indent}${entry}` }];
}

/**
 * Removes a property or array item with the comma that separated it, touching
 * nothing else (jsonc-parser's `modify` would reformat the neighbouring entry).
 */
function removal(text: string, path: JSONPath): TextEdit[] {
  const root = tree(text);
  const node = root && findNodeAtLocation(root, path);
  // An object's entry is its `property` node (key and value); an array's entry is the item itself.
  const entry: Node | undefined = node?.parent?.type === 'property' ? node.parent : node;
  const siblings = entry?.parent?.children;
  if (!entry || !siblings) return [];
  const i = siblings.indexOf(entry);
  const prev = siblings[i - 1];
  const next = siblings[i + 1];
  // After a previous entry: cut from its end, taking the comma before this one; first of several: up to the next one.
  if (prev) return [{ start: endOf(prev), end: endOf(entry), newText: '' }];
  if (next) return [{ start: entry.offset, end: next.offset, newText: '' }];
  return [{ start: entry.offset, end: endOf(entry), newText: '' }];
}
