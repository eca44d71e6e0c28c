/**
 * How many lines an edit changes, computed from the edit's own shape (the
 * policy checks `max_edit_lines` before the edit runs, so it cannot diff the
 * file). One rule for every shape: a change block counts max(lines removed,
 * lines added), so replacing one line with one line is 1, inserting 3 is 3,
 * deleting 2 is 2. Unchanged context an agent includes in old/new text (common
 * leading and trailing lines) is not counted, so quoting context is free and
 * cannot be used to dilute a count either.
 */

export type EditShape =
  /** `all`: replace_all / replaceAll, every occurrence is replaced. */
  | { readonly kind: 'replace'; readonly oldText: string; readonly newText: string; readonly all?: boolean }
  | { readonly kind: 'multi'; readonly edits: readonly { readonly oldText: string; readonly newText: string; readonly all?: boolean }[] }
  | { readonly kind: 'patch'; readonly patch: string }
  | { readonly kind: 'write'; readonly content: string }
  | { readonly kind: 'insert'; readonly code: string };

/** Lines of a text; a final newline does not start another line. */
export function textLines(text: string): string[] {
  if (typeof text !== 'string' || text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** max(removed, added) after dropping the common leading and trailing lines. */
function replaceLines(oldText: string, newText: string): number {
  const a = textLines(oldText);
  const b = textLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return Math.max(a.length - start - end, b.length - start - end);
}

/**
 * Unified diffs and VS Code's `*** Begin Patch` format: each run of
 * consecutive -/+ lines is one change block. File headers (`---`, `+++`,
 * `***`) are not content.
 */
function patchLines(patch: string): number {
  let total = 0;
  let removed = 0;
  let added = 0;
  const flush = (): void => {
    total += Math.max(removed, added);
    removed = 0;
    added = 0;
  };
  const lines = textLines(patch);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    // A `--- `/`+++ ` pair is a file header; alone, each is a changed line starting with `-- `/`++ `.
    const header =
      line.startsWith('***') ||
      (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) ||
      (line.startsWith('+++ ') && (lines[i - 1] ?? '').startsWith('--- '));
    if (header) flush();
    else if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
    else flush();
  }
  flush();
  return total;
}

/** `insert_edit_into_file` code elides unchanged parts with `...existing code...` lines. */
const EXISTING_CODE = /^\s*(?:\/\/|#|--|\/\*|<!--|;)?\s*\.\.\.\s*existing code\s*\.\.\.\s*(?:\*\/|-->)?\s*$/i;

export function editLineCount(shape: EditShape): number {
  switch (shape.kind) {
    case 'replace':
      return replaceLines(shape.oldText, shape.newText);
    case 'multi':
      return shape.edits.reduce((n, ed) => n + replaceLines(ed.oldText, ed.newText), 0);
    case 'patch':
      return patchLines(shape.patch);
    case 'write':
      return textLines(shape.content).length;
    case 'insert':
      return textLines(shape.code).filter((l) => !EXISTING_CODE.test(l)).length;
  }
}

/**
 * Files a patch touches: `*** Add/Update/Delete File: p`, `*** Move to: p`,
 * `+++ b/p`, and a unified diff's `--- a/p` header (the file a deletion, `+++
 * /dev/null`, removes; a header only where `+++` follows, so a removed line
 * `--- x` in a hunk is content).
 */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  const lines = textLines(patch);
  lines.forEach((line, i) => {
    const old = lines[i + 1]?.startsWith('+++ ') ? /^--- (?:a\/)?(.+?)(?:\t.*)?$/.exec(line) : null;
    const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line) ?? /^\+\+\+ (?:b\/)?(.+?)(?:\t.*)?$/.exec(line) ?? old;
    const p = m?.[1]?.trim();
    if (p && p !== '/dev/null' && !out.includes(p)) out.push(p);
  });
  return out;
}

/** Does the edit replace every occurrence of a text somewhere (so its size depends on the file)? */
export function replacesAll(shape: EditShape): boolean {
  return (shape.kind === 'replace' && shape.all === true) || (shape.kind === 'multi' && shape.edits.some((e) => e.all === true));
}

/** Non-overlapping occurrences of `needle` in `text`, as a replace-all finds them. */
function occurrences(text: string, needle: string): number {
  return needle === '' ? 0 : text.split(needle).length - 1;
}

/**
 * The lines an edit changes, given the file it edits (`current`; undefined
 * when it cannot be read). A replace_all counts its block once per
 * occurrence: replacing a line that occurs 40 times changes 40 lines, not 1.
 * MultiEdit's edits apply in order, each to the text the one before left.
 * `unknown`: a replace_all on a file stategate cannot read, whose occurrences
 * cannot be counted (each such edit is counted once; the caller refuses it
 * where max_edit_lines holds).
 */
export function editLinesInFile(shape: EditShape, current: string | undefined): { lines: number; unknown: boolean } {
  if (shape.kind !== 'replace' && shape.kind !== 'multi') return { lines: editLineCount(shape), unknown: false };
  const edits = shape.kind === 'replace' ? [shape] : shape.edits;
  let text = current;
  let lines = 0;
  let unknown = false;
  for (const e of edits) {
    const block = replaceLines(e.oldText, e.newText);
    if (!e.all) {
      lines += block;
      if (text !== undefined && e.oldText !== '') text = text.replace(e.oldText, () => e.newText);
      continue;
    }
    if (text === undefined) {
      unknown = true;
      lines += block;
      continue;
    }
    // An edit that finds nothing fails; counted once, as if it were applied.
    lines += block * Math.max(1, occurrences(text, e.oldText));
    if (e.oldText !== '') text = text.split(e.oldText).join(e.newText);
  }
  return { lines, unknown };
}
