/**
 * Names to complete where the cursor is: states, guards, context fields,
 * tools, events and workflow ids, each from this file (or the options). The
 * JSON schema's own completion (field names, snippets) comes from VS Code's
 * JSON service; this adds what only the workflow's contents can know.
 */
import { RETURN_TARGET, type Workflow } from '../model/index.js';
import { contextPaths, type CompletionItem, type CompletionKind } from './completion-item.js';
import { cursorAt } from './cursor.js';
import { occurrences } from './occurrences.js';
import { interruptReachable } from './reach.js';
import { expectedAt, type Expected } from './slots.js';
import { stateSummaryLine } from './describe.js';
import { jsonStringContents } from './edits.js';
import { completionToolCandidates, promptItems } from './prompt-completion.js';

export { contextPaths, type CompletionItem, type CompletionKind } from './completion-item.js';

export interface ToolName {
  readonly name: string;
  /** E.g. "alias of Edit (Copilot)". */
  readonly detail?: string;
}

export interface CompletionOptions {
  /** Canonical tool names and known aliases, for `allowed_tools` / `disallowed_tools`. */
  readonly tools?: readonly ToolName[];
  /** Workflow ids known in the workspace, for `invoke`. */
  readonly workflowIds?: readonly string[];
}

const RETURN_SLOTS: ReadonlySet<string> = new Set(['target', 'branch-target', 'safe_next']);

export function completionsAt(text: string, wf: Workflow | undefined, offset: number, options: CompletionOptions = {}): CompletionItem[] {
  const cursor = cursorAt(text, offset, wf?.loc.pointer === '/definition');
  const expected = cursor.afterValue ? undefined : expectedAt(cursor);
  if (!expected) return [];
  const str = cursor.string;
  if (expected.kind === 'prompt') return str ? promptItems(wf, expected.owner, text, str.start, offset) : [];
  const make = (label: string, kind: CompletionKind, detail?: string): CompletionItem => ({
    label,
    kind,
    ...(detail ? { detail } : {}),
    // In a string: replace its contents (and close it if the quote is not typed yet); elsewhere insert a whole literal.
    range: str ? { start: str.start, end: str.end } : { start: offset, end: offset },
    insertText: str ? jsonStringContents(label) + (str.closed ? '' : '"') : JSON.stringify(label),
  });
  return candidates(wf, expected, options).map((c) => make(c.label, c.kind, c.detail));
}

interface Candidate {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
}

function candidates(wf: Workflow | undefined, expected: Expected, options: CompletionOptions): Candidate[] {
  switch (expected.kind) {
    case 'state': {
      if (!wf) return [];
      const states: Candidate[] = [...wf.states.values()].map((s) => ({ label: s.id, kind: 'state', detail: stateSummaryLine(s) }));
      // `$return` goes back to where an interrupt fired: only from states an interrupt handler can be in, and only
      // where an event moves the machine (the slots check/sites.ts allows it in).
      const returnable = RETURN_SLOTS.has(expected.slot) && expected.owner !== undefined && interruptReachable(wf).has(expected.owner);
      return returnable ? [...states, { label: RETURN_TARGET, kind: 'keyword', detail: 'return to the state the interrupt fired in' }] : states;
    }
    case 'guard':
      return wf ? [...wf.guards.values()].map((g) => ({ label: g.name, kind: 'guard', detail: `${g.field} ${g.op}${g.value === undefined ? '' : ` ${JSON.stringify(g.value)}`}` })) : [];
    case 'context-field':
      return wf ? contextPaths(wf.context).map((p) => ({ label: p, kind: 'context-field', detail: 'context field' })) : [];
    case 'tool':
      return (options.tools ?? []).map((t) => ({ label: t.name, kind: 'tool', ...(t.detail ? { detail: t.detail } : {}) }));
    case 'workflow':
      return [...new Set(options.workflowIds ?? [])].filter((id) => id !== wf?.id).map((id) => ({ label: id, kind: 'workflow', detail: 'workflow' }));
    case 'event':
      return wf ? eventNames(wf, expected.owner) : [];
    case 'completion-tool':
      return completionToolCandidates(wf?.states.get(expected.owner));
    case 'prompt':
      return []; // completionsAt answers placeholders itself
  }
}

/** Events used anywhere in the file that the owner state does not define yet; a stage's completion tool first. */
function eventNames(wf: Workflow, owner: string): Candidate[] {
  const state = wf.states.get(owner);
  const own = new Set(state?.on.map((t) => t.event) ?? []);
  const used = new Set(occurrences(wf).filter((o) => o.kind === 'event').map((o) => o.name));
  const tool = state?.completionTool;
  const first: Candidate[] = tool !== undefined && !own.has(tool) ? [{ label: tool, kind: 'event', detail: "this stage's completion tool: its transition picks the next stage" }] : [];
  return [...first, ...[...used].filter((e) => !own.has(e) && e !== tool).sort().map((e): Candidate => ({ label: e, kind: 'event', detail: 'event used in this file' }))];
}

