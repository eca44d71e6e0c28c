/**
 * `.vscode/settings.json` (and VS Code's user settings) hold what turns agent
 * hooks on or off or moves them (`chat.useHooks`, `chat.useClaudeHooks`,
 * `chat.hookFilesLocations`), next to many settings an agent may well need to
 * change (formatter, test runner). So a write there passes when the file's
 * content after it leaves every hook setting as it was; a write whose result
 * cannot be computed (a patch, an edit whose text is not found exactly once,
 * content that does not parse) is denied.
 *
 * Hook settings are found by name, not by a fixed list: every key whose name
 * mentions "hook" at any depth (`"chat.useHooks"`, a nested `"chat": {"useHooks"}`,
 * a language override), so a setting VS Code adds later is covered too.
 */
import { parse, type ParseError } from 'jsonc-parser';
import type { EditShape } from '../edit-lines.js';

type Input = Record<string, unknown>;

/** Every `key path -> value` under a key that mentions hooks, as one comparable string; undefined when the text does not parse. */
function hookSettings(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return '[]';
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const found: Array<[string, string]> = [];
  const visit = (v: unknown, at: string[]): void => {
    if (typeof v !== 'object' || v === null) return;
    for (const [k, child] of Object.entries(v as Input)) {
      const here = [...at, k];
      if (/hook/i.test(k)) found.push([JSON.stringify(here), JSON.stringify(child)]);
      else visit(child, here);
    }
  };
  visit(value, []);
  return JSON.stringify(found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Does `after` keep every hook setting of `before` (undefined: the file does not exist yet)? */
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
