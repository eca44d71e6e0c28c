/**
 * Tool names offered in `allowed_tools` / `disallowed_tools`: the canonical
 * Statewright names, then known client aliases.
 *
 * TEMPORARY: the engine's tool table (src/engine/tools.ts, canonical names and
 * aliases) is not committed yet; until it is, this list holds the names
 * DESIGN.md fixes. Replace the two constants with reads of that table so the
 * names exist in one place.
 */
import type { ToolName } from './completion.js';

const CANONICAL = ['Read', 'Edit', 'Write', 'Bash', 'Grep', 'Glob', 'WebFetch'] as const;

const ALIASES: Readonly<Record<string, (typeof CANONICAL)[number]>> = {
  copilot_readFile: 'Read',
  copilot_replaceString: 'Edit',
  copilot_createFile: 'Write',
  run_in_terminal: 'Bash',
  copilot_findTextInFiles: 'Grep',
  copilot_findFiles: 'Glob',
  copilot_fetchWebPage: 'WebFetch',
};

export function toolCompletions(): ToolName[] {
  return [
    ...CANONICAL.map((name) => ({ name, detail: 'tool' })),
    ...Object.entries(ALIASES).map(([name, canonical]) => ({ name, detail: `alias of ${canonical}` })),
  ];
}
