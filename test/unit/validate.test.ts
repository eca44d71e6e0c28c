/**
 * Every semantic rule: a failing case (asserting the code and the exact range,
 * computed from the fixture text) and a passing case (no diagnostics at all).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadStatewright } from '../../src/engine/formats/statewright.js';
import type { Diagnostic, InvokeResolver, ResolvedWorkflow, Workflow } from '../../src/engine/model/index.js';
import { validateWorkflow, type ValidateOptions } from '../../src/engine/check/rules.js';
import { lit, span, withCode, type Range } from './support/ranges.js';

type Obj = Record<string, unknown>;

/** Compact JSON, so an object's range can be found with indexOf. */
function doc(states: Obj, extra: Obj = {}): string {
  return JSON.stringify({ id: 'w', initial: 'start', ...extra, states });
}

function load(text: string): Workflow {
  const { workflow, diagnostics } = loadStatewright(text);
  assert.ok(workflow, `fixture did not load: ${JSON.stringify(diagnostics)}`);
  return workflow;
}

function check(text: string, opts: ValidateOptions = {}): Diagnostic[] {
  const { workflow, diagnostics } = loadStatewright(text);
  assert.ok(workflow);
  return [...diagnostics, ...validateWorkflow(workflow, opts)];
}

const DONE = { done: { type: 'final' } };
const G = { guards: { g: { field: 'ok', op: 'eq', value: true } } };
const forkTo = (fork: Obj) => ({ start: { on: { GO: { fork } } } });
const forkStates = { a1: { on: { NEXT: 'a2' } }, a2: { type: 'final' }, ...DONE };
const handler = {
  interrupts: { env: { trigger: { file_pattern: '**/*.env' }, target: 'handler' } },
};

interface Row {
  readonly name: string;
  readonly code: string;
  readonly bad: string;
  readonly at: (text: string) => Range;
  readonly good: string;
  readonly opts?: ValidateOptions;
}

/** A resolver over fixture workflows, by id. */
function resolverOf(...texts: string[]): InvokeResolver {
  const byId = new Map<string, ResolvedWorkflow>();
  for (const t of texts) {
    const wf = load(t);
    byId.set(wf.id, { workflow: wf, file: `/fixtures/${wf.id}.json` });
  }
  return (name) => byId.get(name);
}

const child = (invokes?: string) =>
  JSON.stringify({
    id: 'child',
    initial: 's',
    states: invokes ? { s: { on: { GO: { invoke: invokes, on_complete: 'end' } } }, end: { type: 'final' } } : { s: { on: { GO: 'end' } }, end: { type: 'final' } },
  });
const invoking = doc({ start: { on: { GO: { invoke: 'child', on_complete: 'done' } } }, ...DONE });

const rows: Row[] = [
  {
    name: 'the initial state must exist',
    code: 'unknown-initial',
    bad: doc({ start: { on: { GO: 'done' } }, ...DONE }, { initial: 'strat' }),
    at: (t) => lit(t, 'strat'),
    good: doc({ start: { on: { GO: 'done' } }, ...DONE }),
  },
  {
    name: 'at least one state is final',
    code: 'no-final-state',
    bad: doc({ start: { on: { GO: 'mid' } }, mid: { on: { BACK: 'start' } } }),
    at: (t) => lit(t, 'states'),
    good: doc({ start: { on: { GO: 'mid' } }, mid: { on: { BACK: 'start', END: 'done' } }, ...DONE }),
  },
  {
    name: 'a simple target must exist',
    code: 'unknown-target',
    bad: doc({ start: { on: { GO: 'nowhere' } }, ...DONE }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ start: { on: { GO: 'done' } }, ...DONE }),
  },
  {
    name: 'a guarded target must exist',
    code: 'unknown-target',
    bad: doc({ start: { on: { GO: { target: 'nowhere' } } }, ...DONE }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ start: { on: { GO: { target: 'done' } } }, ...DONE }),
  },
  {
    name: 'every branch target must exist',
    code: 'unknown-target',
    bad: doc({ start: { on: { GO: [{ target: 'done', guard: 'g' }, { target: 'nowhere' }] } }, ...DONE }, G),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ start: { on: { GO: [{ target: 'done', guard: 'g' }, { target: 'done' }] } }, ...DONE }, G),
  },
  {
    name: 'the safe_next target must exist',
    code: 'unknown-target',
    bad: doc({ start: { safe_next: 'nowhere', on: { GO: 'done' } }, ...DONE }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ start: { safe_next: 'done', on: { GO: 'done' } }, ...DONE }),
  },
  {
    name: 'invoke on_complete must exist',
    code: 'unknown-target',
    bad: doc({ start: { on: { GO: { invoke: 'child', on_complete: 'nowhere' } } }, ...DONE }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ start: { on: { GO: { invoke: 'child', on_complete: 'done' } } }, ...DONE }),
  },
  {
    name: 'invoke on_fail must exist',
    code: 'unknown-target',
    bad: doc({ start: { on: { GO: { invoke: 'child', on_complete: 'done', on_fail: 'nowhere' } } }, ...DONE }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ start: { on: { GO: { invoke: 'child', on_complete: 'done', on_fail: 'done' } } }, ...DONE }),
  },
  {
    name: 'fork on_complete must exist',
    code: 'unknown-target',
    bad: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'nowhere' }), ...forkStates }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done' }), ...forkStates }),
  },
  {
    name: 'fork on_fail must exist',
    code: 'unknown-target',
    bad: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done', on_fail: 'nowhere' }), ...forkStates }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done', on_fail: 'done' }), ...forkStates }),
  },
  {
    name: 'a fork branch initial must exist',
    code: 'unknown-target',
    bad: doc({ ...forkTo({ branches: { a: { initial: 'nowhere', terminal: 'a2' } }, on_complete: 'done' }), ...forkStates, a1: { on: { NEXT: 'a2' } } }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done' }), ...forkStates }),
  },
  {
    name: 'a fork branch terminal must exist',
    code: 'unknown-target',
    bad: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'nowhere' } }, on_complete: 'done' }), a1: { on: { NEXT: 'done' } }, ...DONE }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done' }), ...forkStates }),
  },
  {
    name: 'an interrupt target must exist',
    code: 'unknown-target',
    bad: doc({ start: { on: { GO: 'done' } }, ...DONE }, { interrupts: { env: { trigger: { file_pattern: '*.env' }, target: 'nowhere' } } }),
    at: (t) => lit(t, 'nowhere'),
    good: doc({ start: { on: { GO: 'done' } }, handler: { on: { OK: '$return' } }, ...DONE }, handler),
  },
  {
    name: '$return is only an event target',
    code: 'return-not-allowed',
    bad: doc({ start: { on: { GO: { invoke: 'child', on_complete: '$return' } } }, ...DONE }),
    at: (t) => lit(t, '$return'),
    good: doc({ start: { on: { GO: { invoke: 'child', on_complete: 'done' } } }, ...DONE }),
  },
  {
    name: '$return only in states reachable from an interrupt target',
    code: 'return-outside-interrupt',
    bad: doc({ start: { on: { GO: 'done', BACK: '$return' } }, handler: { on: { OK: 'done' } }, ...DONE }, handler),
    at: (t) => lit(t, '$return'),
    good: doc({ start: { on: { GO: 'done' } }, handler: { on: { CHECK: 'checking' } }, checking: { on: { OK: '$return' } }, ...DONE }, handler),
  },
  {
    name: 'a guard named in `guard` must be defined',
    code: 'unknown-guard',
    bad: doc({ start: { on: { GO: { target: 'done', guard: 'gg' } } }, ...DONE }, G),
    at: (t) => lit(t, 'gg'),
    good: doc({ start: { on: { GO: { target: 'done', guard: 'g' } } }, ...DONE }, G),
  },
  {
    name: 'a guard named in `guards` must be defined',
    code: 'unknown-guard',
    bad: doc({ start: { on: { GO: { target: 'done', guards: ['g', 'missing'] } } }, ...DONE }, G),
    at: (t) => lit(t, 'missing'),
    good: doc({ start: { on: { GO: { target: 'done', guards: ['g'] } } }, ...DONE }, G),
  },
  {
    name: 'a guard named inside a branch must be defined',
    code: 'unknown-guard',
    bad: doc({ start: { on: { GO: [{ target: 'done', guard: 'missing' }, { target: 'done' }] } }, ...DONE }, G),
    at: (t) => lit(t, 'missing'),
    good: doc({ start: { on: { GO: [{ target: 'done', guard: 'g' }, { target: 'done' }] } }, ...DONE }, G),
  },
  {
    name: 'the default branch must be last',
    code: 'unreachable-branch',
    bad: doc({ start: { on: { GO: [{ target: 'done' }, { target: 'done', guard: 'g' }] } }, ...DONE }, G),
    at: (t) => span(t, '{"target":"done","guard":"g"}'),
    good: doc({ start: { on: { GO: [{ target: 'done', guard: 'g' }, { target: 'done' }] } }, ...DONE }, G),
  },
  {
    name: 'a branch array must not be empty',
    code: 'empty-branches',
    bad: doc({ start: { on: { GO: [], END: 'done' } }, ...DONE }),
    at: (t) => span(t, '[]'),
    good: doc({ start: { on: { GO: [{ target: 'done' }], END: 'done' } }, ...DONE }),
  },
  {
    name: 'requires_approval is not supported inside a branch',
    code: 'approval-in-branch',
    bad: doc({ start: { on: { GO: [{ target: 'done', guard: 'g', requires_approval: true }, { target: 'done' }] } }, ...DONE }, G),
    at: (t) => lit(t, 'requires_approval'),
    good: doc({ start: { on: { GO: { target: 'done', guard: 'g', requires_approval: true } } }, ...DONE }, G),
  },
  {
    name: 'a final state has no transitions',
    code: 'final-state-transition',
    bad: doc({ start: { on: { GO: 'done' } }, done: { type: 'final', on: { AGAIN: 'start' } } }),
    at: (t) => lit(t, 'AGAIN'),
    good: doc({ start: { on: { GO: 'done' } }, ...DONE }),
  },
  {
    name: 'a final state has no safe_next',
    code: 'final-state-transition',
    bad: doc({ start: { on: { GO: 'done' } }, done: { type: 'final', safe_next: 'start' } }),
    at: (t) => lit(t, 'start', 2),
    good: doc({ start: { on: { GO: 'done' } }, ...DONE }),
  },
  {
    name: 'every state is reachable',
    code: 'unreachable-state',
    bad: doc({ start: { on: { GO: 'done' } }, orphan: { on: { GO: 'done' } }, ...DONE }),
    at: (t) => lit(t, 'orphan'),
    good: doc({ start: { on: { GO: 'done', SIDE: 'orphan' } }, orphan: { on: { GO: 'done' } }, ...DONE }),
  },
  {
    name: 'an invoke without on_fail reaches the state named failed',
    code: 'unreachable-state',
    bad: doc({ start: { on: { GO: { invoke: 'child', on_complete: 'done', on_fail: 'done' } } }, failed: { type: 'final' }, ...DONE }),
    at: (t) => lit(t, 'failed'),
    good: doc({ start: { on: { GO: { invoke: 'child', on_complete: 'done' } } }, failed: { type: 'final' }, ...DONE }),
  },
  {
    name: 'a fork branch terminal is final',
    code: 'fork-terminal-not-final',
    bad: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done' }), a1: { on: { NEXT: 'a2' } }, a2: { on: { X: 'done' } }, ...DONE }),
    at: (t) => lit(t, 'a2'),
    good: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done' }), ...forkStates }),
  },
  {
    name: 'a fork has branches',
    code: 'empty-fork',
    bad: doc({ ...forkTo({ branches: {}, on_complete: 'done' }), ...DONE }),
    at: (t) => span(t, '{"fork":{"branches":{},"on_complete":"done"}}'),
    good: doc({ ...forkTo({ branches: { a: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done' }), ...forkStates }),
  },
  ...(['max_iterations', 'max_edit_lines', 'max_files_per_state', 'context_budget_bytes'] as const).flatMap((field) =>
    ['0', '-1', '1.5'].map(
      (raw): Row => ({
        name: `${field} of ${raw} is refused`,
        code: 'invalid-limit',
        bad: doc({ start: { [field]: Number(raw), on: { GO: 'done' } }, ...DONE }),
        at: (t) => {
          const r = span(t, `"${field}":${raw}`);
          return { start: r.end - raw.length, end: r.end };
        },
        good: doc({ start: { [field]: 3, on: { GO: 'done' } }, ...DONE }),
      }),
    ),
  ),
  {
    name: 'an invoked workflow must be found',
    code: 'unknown-workflow',
    bad: invoking,
    at: (t) => lit(t, 'child'),
    good: invoking,
    opts: { resolveInvoke: resolverOf(child()) },
  },
  {
    name: 'an invoke chain must not lead back to the workflow',
    code: 'invoke-cycle',
    bad: invoking,
    at: (t) => lit(t, 'child'),
    good: invoking,
    opts: { resolveInvoke: resolverOf(child('w'), invoking) },
  },
];

describe('validateWorkflow', () => {
  for (const row of rows) {
    it(`${row.code}: ${row.name} (failing case)`, () => {
      const opts = row.code === 'unknown-workflow' ? { resolveInvoke: resolverOf() } : (row.opts ?? {});
      const found = withCode(check(row.bad, opts), row.code);
      assert.deepEqual(found, [{ code: row.code, ...row.at(row.bad) }]);
    });
    it(`${row.code}: ${row.name} (passing case)`, () => {
      const opts = row.code === 'invoke-cycle' ? { resolveInvoke: resolverOf(child()) } : (row.opts ?? {});
      assert.deepEqual(check(row.good, opts), []);
    });
  }
});

describe('validateWorkflow details', () => {
  it('suggests the closest state for a misspelled target', () => {
    const d = check(doc({ start: { on: { GO: 'dnoe' } }, ...DONE })).find((x) => x.code === 'unknown-target');
    assert.deepEqual(d?.data, { closest: 'done' });
    assert.match(d?.message ?? '', /Did you mean `done`\?/);
  });

  it('suggests the closest guard for a misspelled guard name', () => {
    const d = check(doc({ start: { on: { GO: { target: 'done', guard: 'h' } } }, ...DONE }, G)).find((x) => x.code === 'unknown-guard');
    assert.deepEqual(d?.data, { closest: 'g' });
  });

  it('lists the would-be sources of an unreachable state as related information', () => {
    const text = doc({ start: { on: { GO: 'done' } }, island: { on: { GO: 'orphan' } }, orphan: { on: { GO: 'done' } }, ...DONE });
    const d = check(text).find((x) => x.code === 'unreachable-state' && x.data?.state === 'orphan');
    assert.deepEqual(
      d?.related?.map((r) => ({ start: r.loc.start, end: r.loc.end })),
      [lit(text, 'orphan')],
    );
  });

  it('points $return misuse at the interrupts that could make it valid', () => {
    const text = doc({ start: { on: { GO: 'done', BACK: '$return' } }, handler: { on: { OK: 'done' } }, ...DONE }, handler);
    const d = check(text).find((x) => x.code === 'return-outside-interrupt');
    assert.deepEqual(
      d?.related?.map((r) => ({ start: r.loc.start, end: r.loc.end })),
      [lit(text, 'handler')],
    );
  });

  it('treats interrupt targets and fork branch states as reachability roots', () => {
    const text = doc(
      { start: { on: { GO: 'done' } }, handler: { on: { OK: '$return' } }, ...DONE },
      handler,
    );
    assert.deepEqual(check(text), []);
  });

  it('reports an invoke of the workflow itself as a cycle', () => {
    const self = doc({ start: { on: { GO: { invoke: 'w', on_complete: 'done' } } }, ...DONE });
    const found = withCode(check(self, { resolveInvoke: resolverOf(self) }), 'invoke-cycle');
    assert.deepEqual(found, [{ code: 'invoke-cycle', ...lit(self, 'w', 1) }]);
  });

  it('does not report references to states the loader skipped as malformed', () => {
    const text = doc({ start: { on: { GO: 'broken', END: 'done' } }, broken: 3, ...DONE });
    const d = check(text);
    assert.deepEqual(withCode(d, 'unknown-target'), []);
    assert.deepEqual(withCode(d, 'invalid-type'), [{ code: 'invalid-type', ...span(text, '3') }]);
  });

  it('never throws on a workflow without states or with an empty initial', () => {
    const text = JSON.stringify({ id: 'w', initial: '', states: {} });
    const codes = check(text).map((d) => d.code).sort();
    assert.deepEqual(codes, ['no-final-state']);
  });
});
