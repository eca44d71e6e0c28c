/**
 * Tool names offered in `allowed_tools` / `disallowed_tools`: canonical
 * Statewright names first, then client aliases, each described by the engine's
 * tool table (tools.ts), which decides what a name means.
 *
 * tools.ts does not export its list of names, so the names to offer are
 * listed here; any the table does not know are dropped, so this list can
 * lag behind the table but never contradict it. Once tools.ts exports its
 * names, read them from there instead.
 */
import { toolEntry } from '../agent/tools.js';
import type { ToolName } from './completion.js';

const OFFERED = [
  ...['Read', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'Bash', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch', 'Task', 'TodoWrite'],
  // VS Code's agent (as hooks report it) and the Copilot extension's ids.
  ...['read_file', 'create_file', 'replace_string_in_file', 'multi_replace_string_in_file', 'apply_patch', 'run_in_terminal', 'grep_search', 'file_search', 'list_dir', 'fetch_webpage'],
  ...['copilot_readFile', 'copilot_replaceString', 'copilot_multiReplaceString', 'copilot_applyPatch', 'copilot_createFile', 'copilot_findTextInFiles', 'copilot_findFiles', 'copilot_listDirectory', 'copilot_fetchWebPage'],
];

export function toolCompletions(): ToolName[] {
  const out: ToolName[] = [];
  for (const name of OFFERED) {
    const entry = toolEntry(name);
    if (!entry) continue;
    out.push({ name, detail: entry.canonical === name ? `${entry.kind} tool` : `alias of ${entry.canonical}` });
  }
  return out;
}
