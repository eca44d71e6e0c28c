/**
 * Text edits on workflow JSON that keep the file well-formed: replacing a
 * name inside a string literal, and inserting / removing properties through
 * jsonc-parser's `modify` (which handles commas and indentation).
 */
import { modify, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import type { Workflow } from '../model.js';

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
  const edits = modify(text, [...workflowPath(wf), ...path], value, { formattingOptions: formattingOf(text) });
  return edits.map((e) => ({ start: e.offset, end: e.offset + e.length, newText: e.content }));
}
