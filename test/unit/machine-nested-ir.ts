/** A hand-built IR with a compound state, to show the types carry hierarchy. */
import type { SourceLoc, StateNode, Workflow } from '../../src/engine/model/index.js';

const loc: SourceLoc = { pointer: '', start: 0, end: 0 };

function node(id: string, extra: Partial<StateNode>): StateNode {
  const key = id.split('.').at(-1) ?? id;
  return { key, id, kind: 'atomic', children: [], rules: { disallowedTools: [], blockedEnv: [], envOverrides: {} }, on: [], keyLoc: loc, loc, ...extra };
}

export function nestedWorkflow(): Workflow {
  const states = new Map<string, StateNode>([
    ['processing', node('processing', { kind: 'compound', children: ['processing.validating'], initial: { name: 'processing.validating', loc } })],
    [
      'processing.validating',
      node('processing.validating', {
        parent: 'processing',
        on: [{ kind: 'simple', event: 'VALID', eventLoc: loc, loc, target: { name: 'done', loc }, guards: [], requiresApproval: false }],
      }),
    ],
    ['done', node('done', { kind: 'final' })],
  ]);
  return {
    format: 'statechart',
    id: 'nested',
    initial: { name: 'processing', loc },
    context: {},
    meta: { approvalMode: 'ask', captureOutput: false, debug: false, raw: {} },
    states,
    topLevel: ['processing', 'done'],
    guards: new Map(),
    interrupts: [],
    loc,
  };
}
