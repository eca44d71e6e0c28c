/**
 * What kind of name belongs at a JSON path of a workflow: the one table that
 * says where states, guards, tools, context fields, events and workflow ids
 * are expected. Completion reads it; keep it in step with the loader's
 * transition shapes (statewright-transitions.ts).
 */
import { pathMatches, type Cursor } from './cursor.js';
import type { Slot } from './occurrences.js';

export type Expected =
  | { readonly kind: 'state'; readonly slot: Slot; readonly owner?: string }
  | { readonly kind: 'guard'; readonly owner: string }
  | { readonly kind: 'tool' }
  | { readonly kind: 'context-field' }
  | { readonly kind: 'event'; readonly owner: string }
  | { readonly kind: 'workflow' }
  /** Stage fields: the state's events for `completion_tool`, placeholders in `prompt`. */
  | { readonly kind: 'completion-tool'; readonly owner: string }
  | { readonly kind: 'prompt'; readonly owner: string };

type Rule = readonly [pattern: readonly string[], expected: (path: readonly (string | number)[]) => Expected];

const owner = (path: readonly (string | number)[]): string => String(path[1]);
const state = (slot: Slot) => (path: readonly (string | number)[]): Expected => (path[0] === 'states' ? { kind: 'state', slot, owner: owner(path) } : { kind: 'state', slot });
const guard = (path: readonly (string | number)[]): Expected => ({ kind: 'guard', owner: owner(path) });
const ON = ['states', '*', 'on', '*'];

/** Value positions (the cursor on a value, or where a value is being typed). */
const VALUE_RULES: readonly Rule[] = [
  [['initial'], state('initial')],
  [['states', '*', 'safe_next'], state('safe_next')],
  [ON, state('target')],
  [[...ON, 'target'], state('target')],
  [[...ON, '#', 'target'], state('branch-target')],
  [[...ON, 'on_complete'], state('on_complete')],
  [[...ON, 'on_fail'], state('on_fail')],
  [[...ON, 'fork', 'on_complete'], state('on_complete')],
  [[...ON, 'fork', 'on_fail'], state('on_fail')],
  [[...ON, 'fork', 'branches', '*', 'initial'], state('fork-initial')],
  [[...ON, 'fork', 'branches', '*', 'terminal'], state('fork-terminal')],
  [['interrupts', '*', 'target'], state('interrupt-target')],
  [['meta', 'failure_states', '#'], state('failure_states')],
  [[...ON, 'guard'], guard],
  [[...ON, 'guards', '#'], guard],
  [[...ON, '#', 'guard'], guard],
  [[...ON, '#', 'guards', '#'], guard],
  [['guards', '*', 'field'], () => ({ kind: 'context-field' })],
  [['states', '*', 'allowed_tools', '#'], () => ({ kind: 'tool' })],
  [['states', '*', 'allowedTools', '#'], () => ({ kind: 'tool' })], // the camelCase spelling (formats/stage-read.ts)
  [['states', '*', 'disallowed_tools', '#'], () => ({ kind: 'tool' })],
  [['states', '*', 'allowed_commands_tool'], () => ({ kind: 'tool' })],
  [[...ON, 'invoke'], () => ({ kind: 'workflow' })],
  [['states', '*', 'completion_tool'], (path) => ({ kind: 'completion-tool', owner: owner(path) })],
  [['states', '*', 'completionTool'], (path) => ({ kind: 'completion-tool', owner: owner(path) })],
  [['states', '*', 'prompt'], (path) => ({ kind: 'prompt', owner: owner(path) })],
];

/** What is expected under the cursor; undefined where no name of ours belongs. */
export function expectedAt(cursor: Cursor): Expected | undefined {
  if (cursor.atKey) {
    // A new key under `on` is an event name.
    return pathMatches(cursor.path, ON) ? { kind: 'event', owner: owner(cursor.path) } : undefined;
  }
  for (const [pattern, expected] of VALUE_RULES) if (pathMatches(cursor.path, pattern)) return expected(cursor.path);
  return undefined;
}
