/**
 * `.vscode/settings.json`, `*.code-workspace` files and VS Code's user and
 * machine settings hold what turns agent hooks on or off or moves them
 * (`chat.useHooks`, `chat.useClaudeHooks`, `chat.hookFilesLocations`) and
 * stategate's own settings (`stategate.toolAliases` relabels tools: an agent
 * that maps its writing tool onto `Read` would write unseen), next to many
 * settings an agent may well need to change (formatter, test runner).
 *
 * The precise rule, not a ban of the whole file: a write there passes when
 * the file's content after it leaves every guarded setting as it was, and a
 * write whose result cannot be computed (a patch, an edit whose text is not
 * found exactly once, content that does not parse as JSONC) is denied. It is
 * sound because the comparison is of the parsed values (jsonc-parser, as VS
 * Code reads them), taken from the whole content the write leaves, not of the
 * edit's text: no spelling of a key (nested `"stategate": {...}`, a language
 * override, a workspace file's `settings`) escapes it.
 *
 * Guarded settings are found by name, not by a fixed list: every key whose
 * name mentions "hook", and every key that is `stategate` or starts with
 * `stategate.`, at any depth, so a setting added later is covered too.
 */
import { parse, type ParseError } from 'jsonc-parser';
import type { EditShape } from '../../agent/edit-lines.js';

type Input = Record<string, unknown>;

/**
 * Settings files larger than this are not parsed: a decision must come within the client's hook
 * timeout, and parsing is synchronous (nothing can interrupt it). A write to one is denied,
 * saying why; VS Code's own settings files are a few kilobytes.
 */
export const MAX_SETTINGS_CHARS = 8 * 1024 * 1024;

/** A key path as a chain to its parent: a key's path is only spelled out when it is a hook setting. */
interface KeyPath {
  readonly key: string;
  readonly parent: KeyPath | undefined;
}

function spelled(p: KeyPath): string[] {
  const out: string[] = [];
  for (let at: KeyPath | undefined = p; at; at = at.parent) out.push(at.key);
  return out.reverse();
}

/**
 * Every `key path -> value` under a guarded key (hooks, stategate.*), as one comparable string; undefined
 * when the text does not parse (or nests too deep for the parser, or is too large to parse in time).
 * The walk is iterative and shares each path prefix: copying the path at every key made a deep
 * file quadratic (a 5.6 MB settings file nested thousands of levels took tens of seconds).
 */
function hookSettings(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return '[]';
  if (text.length > MAX_SETTINGS_CHARS) return undefined;
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch {
    return undefined; // jsonc-parser recurses per level: a file nested past the stack cannot be checked
  }
  if (errors.length > 0 || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const found: Array<[string, string]> = [];
  const stack: Array<[unknown, KeyPath | undefined]> = [[value, undefined]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, child] of Object.entries(v as Input)) {
      const here: KeyPath = { key: k, parent: at };
      if (/hook/i.test(k) || /^stategate(\.|$)/i.test(k)) found.push([JSON.stringify(spelled(here)), JSON.stringify(child)]);
      else stack.push([child, here]);
    }
  }
  return JSON.stringify(found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Does `after` keep every guarded setting (hooks, stategate.*) of `before` (undefined: the file does not exist yet)? */
export function hookSettingsUnchanged(before: string | undefined, after: string): boolean {
  const was = hookSettings(before);
  const now = hookSettings(after);
  return was !== undefined && now !== undefined && was === now;
}

/** `text` with `oldText` replaced: once when it occurs exactly once, everywhere with `all`; undefined otherwise. */
function replaced(text: string, oldText: string, newText: string, all: boolean): string | undefined {
  if (oldText === '') return undefined;
  const count = text.split(oldText).length - 1;
  if (count === 0 || (count > 1 && !all)) return undefined;
  return all ? text.split(oldText).join(newText) : text.replace(oldText, () => newText);
}

const replaceAll = (x: unknown): boolean => typeof x === 'object' && x !== null && ((x as Input)['replace_all'] === true || (x as Input)['replaceAll'] === true);

/**
 * The file's content after a write or edit call (Write content; Edit and
 * MultiEdit applied in order to `current`), or undefined when stategate
 * cannot tell (patches, inserts, text not found exactly once, no current file to edit).
 */
export function contentAfter(shape: EditShape, input: unknown, current: string | undefined): string | undefined {
  switch (shape.kind) {
    case 'write':
      return shape.content;
    case 'replace':
      return current === undefined ? undefined : replaced(current, shape.oldText, shape.newText, replaceAll(input));
    case 'multi': {
      const raw = typeof input === 'object' && input !== null ? ((input as Input)['edits'] ?? (input as Input)['replacements']) : undefined;
      let text = current;
      for (const [i, edit] of shape.edits.entries()) {
        if (text === undefined) return undefined;
        text = replaced(text, edit.oldText, edit.newText, replaceAll(Array.isArray(raw) ? raw[i] : undefined));
      }
      return text;
    }
    default:
      return undefined;
  }
}
