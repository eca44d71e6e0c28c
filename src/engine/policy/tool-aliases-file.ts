/**
 * `.stategate/tool-aliases.json`: the user's extra tool aliases (the VS Code
 * setting `stategate.toolAliases`) where every process that decides tool calls
 * can read them: the hook, the CLI and the MCP server run outside VS Code and
 * cannot read its settings. The extension keeps the file in step with the
 * setting; the store folder is one agents cannot write (util/paths/protected.ts),
 * and the setting itself may not be changed by an agent in any settings file
 * (`.vscode/settings.json`, `*.code-workspace`, user and machine settings:
 * paths/vscode-hook-settings.ts guards every `stategate.*` key), since an alias
 * that maps a writing tool onto `Read` would let it write unchecked.
 *
 * A file that is present but unreadable is an error, not "no aliases": an
 * alias can put a tool under `disallowed_tools`, so ignoring it could allow a
 * call the author meant to forbid (fail closed).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import type { ExtraAliases } from '../agent/tools.js';

export const TOOL_ALIASES_FILE = 'tool-aliases.json';

export type AliasesRead = { readonly ok: true; readonly aliases?: ExtraAliases } | { readonly ok: false; readonly reason: string };

/** Keeps the entries that are a non-empty id mapped onto a non-empty name; undefined when none are. */
export function cleanAliases(value: unknown): ExtraAliases | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (k !== '' && typeof v === 'string' && v !== '') out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

export function readToolAliases(dir: string): AliasesRead {
  const file = path.join(dir, TOOL_ALIASES_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'ENOENT') return { ok: true };
    return { ok: false, reason: `${file} cannot be read (${(err as Error)?.message ?? String(err)})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `${file} is not valid JSON (${(err as Error).message}); fix it or delete it (the stategate.toolAliases setting rewrites it)` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    return { ok: false, reason: `${file} must be an object of tool id → tool name strings, e.g. {"my_writer": "Write"}` };
  }
  const aliases = cleanAliases(value);
  return aliases ? { ok: true, aliases } : { ok: true };
}

/** Writes the aliases (atomically), or removes the file when there are none. Returns whether the file changed. */
export function writeToolAliases(dir: string, aliases: ExtraAliases | undefined): boolean {
  const file = path.join(dir, TOOL_ALIASES_FILE);
  const text = aliases ? `${JSON.stringify(aliases, null, 2)}\n` : undefined;
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return false;
  if (text === undefined) fs.rmSync(file, { force: true });
  else {
    fs.mkdirSync(dir, { recursive: true });
    writeFileAtomic(file, text);
  }
  return true;
}
