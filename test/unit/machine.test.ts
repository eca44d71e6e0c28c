import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Driver, loadFixture, testEnv } from './machine-helpers.js';
import * as m from '../../src/engine/machine/operations.js';
import { hashText } from '../../src/engine/machine/run.js';

// --- starting -------------------------------------------------------------

test('start: the run stands in the initial state with the workflow context, running', () => {
  const d = new Driver('order.workflow.json');
  assert.equal(d.run.state, 'draft');
  assert.equal(d.run.status, 'running');
  assert.deepEqual(d.run.context, { item_count: 0 });
  assert.equal(d.run.version, 1);
  assert.equal(d.run.workflow.id, 'order');
  assert.deepEqual(d.kinds(), ['start']);
});

test('start: a given context merges over the workflow context', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 2, extra: true } });
  assert.deepEqual(d.run.context, { item_count: 2, extra: true });
});

test('start: the run keeps the exact definition text it started with', () => {
  const env = testEnv();
  const { wf, text } = loadFixture(env, 'order.workflow.json');
  const r = m.startRun(wf, text, { runId: 'x', hash: hashText(text) }, env);
  assert.equal(r.run?.workflow.definitionText, text);
  assert.equal(r.run?.workflow.hash, hashText(text));
});

test('start: the snapshot is plain JSON (round-trips through JSON.stringify)', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  assert.deepEqual(JSON.parse(JSON.stringify(d.run)), d.run);
});

// --- the transition patterns ---------------------------------------------

test('simple transition: "EVENT": "target"', () => {
  const d = new Driver('order.workflow.json');
  d.go('CANCEL', 'cancelled');
});

test('guarded transition passes when guard and guards all pass', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 2, payment_method: 'card' } });
  d.go('SUBMIT', 'pending_payment');
});

test('guarded transition: `guard` and `guards` together, the failing one is named (guard)', () => {
  const d = new Driver('order.workflow.json', { context: { payment_method: 'card' } });
  const o = d.refused('SUBMIT', 'guard_failed');
  assert.match(o.error?.message ?? '', /"has_items"/);
});

test('guarded transition: `guard` and `guards` together, the failing one is named (guards)', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 1 } });
  const o = d.refused('SUBMIT', 'guard_failed');
  assert.match(o.error?.message ?? '', /"has_payment"/);
});

test('an undefined guard fails at run time with a message that says so', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 1, payment_method: 'x' } });
  d.go('SUBMIT', 'pending_payment');
  d.go('CONFIRM_PAYMENT', 'confirmed');
  const o = d.refused('HOLD', 'guard_failed');
  assert.match(o.error?.message ?? '', /"undefined_guard" is not defined/);
});

test('branched transition: the first branch whose guards pass wins', () => {
  const d = new Driver('branched.workflow.json', { context: { post_count: 2 } });
  d.go('POSTED', 'evaluating');
});

test('branched transition: a later branch with all guards passing', () => {
  const d = new Driver('branched.workflow.json', { context: { post_count: 5, report: 'r' } });
  d.go('POSTED', 'reporting');
});

test('branched transition: the unguarded default is taken last', () => {
  const d = new Driver('branched.workflow.json', { context: { post_count: 5 } });
  d.go('POSTED', 'stalled');
});

test('branched transition: no branch passes -> guard_failed', () => {
  const d = new Driver('branched.workflow.json', { context: { post_count: 9 } });
  const o = d.refused('STRICT', 'guard_failed');
  assert.match(o.error?.message ?? '', /under_limit/);
});

test('invoke transition starts a child run (covered in machine-invoke tests)', () => {
  const d = new Driver('invoke-parent.workflow.json');
  const o = d.go('DEBUG', 'reproducing');
  assert.deepEqual(o.child_started, { workflow: 'debug_machine', state: 'reproducing' });
});

test('fork transition starts the branches (covered in machine-fork tests)', () => {
  const d = new Driver('fork.workflow.json');
  const o = d.go('BUILD_DONE', 'lint_run');
  assert.equal(o.fork_started?.current, 'lint');
});

// --- events the state does not define, safe_next -----------------------------

test('unknown event: refused, the message lists the events available', () => {
  const d = new Driver('order.workflow.json');
  const o = d.refused('SHIP', 'unknown_event');
  assert.match(o.error?.message ?? '', /available: ADD_ITEM, SUBMIT, CANCEL/);
});

test('a refused event is journaled as rejected with its code', () => {
  const d = new Driver('order.workflow.json');
  d.refused('SHIP', 'unknown_event');
  const last = d.journal.at(-1);
  assert.equal(last?.kind, 'rejected');
  assert.equal(last?.kind === 'rejected' && last.code, 'unknown_event');
});

test('safe_next catches an event the state does not define', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 1, payment_method: 'x' } });
  d.go('SUBMIT', 'pending_payment');
  d.go('CONFIRM_PAYMENT', 'confirmed');
  const o = d.go('WHATEVER', 'shipped', { note: 'n' });
  assert.equal(o.transitioned, true);
  const t = d.journal.at(-1);
  assert.equal(t?.kind === 'transition' && t.via, 'safe_next');
  assert.equal(d.run.context.note, 'n');
});

test('safe_next does not override a defined event whose guard fails', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 1, payment_method: 'x' } });
  d.go('SUBMIT', 'pending_payment');
  d.go('CONFIRM_PAYMENT', 'confirmed');
  d.refused('HOLD', 'guard_failed');
});

test('safe_next does not override a defined event', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 1, payment_method: 'x' } });
  d.go('SUBMIT', 'pending_payment');
  d.go('CONFIRM_PAYMENT', 'confirmed');
  d.go('SHIP', 'shipped');
});

// --- guard timing and data merge ------------------------------------------

test('guard timing: a guard fails when the data it checks arrives in the same transition', () => {
  const d = new Driver('order.workflow.json');
  d.refused('SUBMIT', 'guard_failed', { item_count: 3, payment_method: 'card' });
  assert.deepEqual(d.run.context, { item_count: 0 }, 'refused data is not merged');
  d.go('ADD_ITEM', 'draft', { item_count: 3, payment_method: 'card' });
  d.go('SUBMIT', 'pending_payment');
});

test('data merges shallowly: top-level keys replace, others are kept', () => {
  const d = new Driver('order.workflow.json', { context: { nested: { a: 1, b: 2 }, keep: 'k' } });
  d.go('ADD_ITEM', 'draft', { nested: { a: 9 } });
  assert.deepEqual(d.run.context, { item_count: 0, nested: { a: 9 }, keep: 'k' });
});

test('non-object event data merges nothing', () => {
  const d = new Driver('order.workflow.json');
  for (const data of [null, 'str', 5, [1, 2]]) d.go('ADD_ITEM', 'draft', data);
  assert.deepEqual(d.run.context, { item_count: 0 });
});

test('__proto__ in event data is kept as a plain key and never pollutes', () => {
  const d = new Driver('order.workflow.json');
  const data = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"bad": 1}}}');
  d.go('ADD_ITEM', 'draft', data);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(d.run.context), Object.prototype);
  assert.deepEqual(Object.keys(d.run.context).sort(), ['__proto__', 'constructor', 'item_count']);
  assert.equal((d.run.context as Record<string, unknown>).polluted, undefined);
});

test('the caller\'s snapshot is never modified', () => {
  const d = new Driver('order.workflow.json');
  const before = structuredClone(d.run);
  const original = d.run;
  d.go('ADD_ITEM', 'draft', { item_count: 5 });
  assert.deepEqual(original, before);
});

// --- final states ---------------------------------------------------------

test('reaching a final state completes the run', () => {
  const d = new Driver('order.workflow.json');
  const o = d.go('CANCEL', 'cancelled');
  assert.equal(o.status, 'completed');
  assert.equal(d.run.status, 'completed');
});

test('transitions from a final state are refused', () => {
  const d = new Driver('order.workflow.json');
  d.go('CANCEL', 'cancelled');
  d.refused('ADD_ITEM', 'final_state');
});

test('a top-level run ending in its failure state is failed', () => {
  const d = new Driver('interrupts.workflow.json');
  const o = d.go('FAIL', 'failed');
  assert.equal(o.status, 'failed');
});

test('meta.failure_states decides failure for the top-level run too', () => {
  const d = new Driver('debug-machine.workflow.json', { context: {} });
  d.go('GIVE_UP', 'gave_up');
  assert.equal(d.run.status, 'failed');
  const e = new Driver('debug-machine.workflow.json');
  e.go('STUCK', 'failed');
  assert.equal(e.run.status, 'completed', 'with a failure_states list, "failed" is not special');
});

// --- counters and re-entry ------------------------------------------------

test('a state change resets the per-state counters; transitions keep counting', () => {
  const d = new Driver('order.workflow.json');
  d.run.counters.iterations = 4;
  d.run.counters.filesEdited = ['a.ts'];
  d.run.counters.bytesRead = 100;
  d.run.counters.stepsTotal = 4;
  d.go('CANCEL', 'cancelled');
  assert.deepEqual(d.run.counters, { iterations: 0, transitions: 1, filesEdited: [], editLines: 0, bytesRead: 0, stepsTotal: 4 });
});

test('re-entry: a transition to the current state counts but keeps the per-state counters', () => {
  const d = new Driver('order.workflow.json');
  d.run.counters.iterations = 4;
  d.run.counters.filesEdited = ['a.ts'];
  const o = d.go('ADD_ITEM', 'draft');
  assert.equal(o.transitioned, true);
  assert.equal(d.run.counters.iterations, 4);
  assert.deepEqual(d.run.counters.filesEdited, ['a.ts']);
  assert.equal(d.run.counters.transitions, 1);
});

test('re-entry: a self-transition records the edge once and the state once', () => {
  const d = new Driver('order.workflow.json');
  d.go('ADD_ITEM', 'draft');
  d.go('ADD_ITEM', 'draft');
  assert.deepEqual(d.run.visited, ['draft']);
  assert.deepEqual(d.run.taken, [{ from: 'draft', event: 'ADD_ITEM', to: 'draft' }]);
});

// --- pause / resume / stop --------------------------------------------------

test('pause: status paused, state and context kept, events refused', () => {
  const d = new Driver('order.workflow.json');
  d.go('ADD_ITEM', 'draft', { item_count: 1 });
  d.pause();
  assert.equal(d.run.status, 'paused');
  assert.deepEqual(d.run.context, { item_count: 1 });
  d.refused('ADD_ITEM', 'not_running');
});

test('resume: running again, iterations reset, transitions and context kept', () => {
  const d = new Driver('order.workflow.json');
  d.go('ADD_ITEM', 'draft', { item_count: 1 });
  d.run.counters.iterations = 7;
  d.pause();
  const o = d.resume();
  assert.equal(o.status, 'running');
  assert.equal(d.run.counters.iterations, 0);
  assert.equal(d.run.counters.transitions, 1);
  assert.deepEqual(d.run.context, { item_count: 1 });
  d.go('CANCEL', 'cancelled');
});

test('resume of a run that is not paused is refused', () => {
  const d = new Driver('order.workflow.json');
  assert.equal(d.resume().error?.code, 'not_running');
});

test('pause of a paused run is refused', () => {
  const d = new Driver('order.workflow.json');
  d.pause();
  assert.equal(d.pause().error?.code, 'not_running');
});

test('stop: status stopped, then everything is refused', () => {
  const d = new Driver('order.workflow.json');
  d.stop();
  assert.equal(d.run.status, 'stopped');
  d.refused('CANCEL', 'not_running');
  assert.equal(d.resume().error?.code, 'not_running');
  assert.equal(d.stop().error?.code, 'not_running');
});

test('stop works on a paused run', () => {
  const d = new Driver('order.workflow.json');
  d.pause();
  assert.equal(d.stop().status, 'stopped');
});

// --- force_state --------------------------------------------------------------

test('force_state is refused without meta.debug', () => {
  const d = new Driver('order.workflow.json');
  const o = d.force('shipped');
  assert.equal(o.error?.code, 'debug_only');
  assert.equal(d.run.state, 'draft');
});

test('force_state with debug jumps, patches context and bypasses guards', () => {
  const d = new Driver('debug.workflow.json');
  d.refused('GO', 'guard_failed');
  const o = d.force('implementing', { forced: true });
  assert.equal(o.forced, true);
  assert.equal(d.run.state, 'implementing');
  assert.equal(d.run.context.forced, true);
  const e = d.journal.at(-1);
  assert.equal(e?.kind, 'force');
});

test('force_state resets iteration counts', () => {
  const d = new Driver('debug.workflow.json');
  d.run.counters.iterations = 9;
  d.force('implementing');
  assert.equal(d.run.counters.iterations, 0);
});

test('force_state to an unknown state is refused', () => {
  const d = new Driver('debug.workflow.json');
  assert.equal(d.force('nowhere').error?.code, 'unknown_state');
});

test('force_state clears a parked approval', () => {
  const d = new Driver('debug.workflow.json');
  d.send('READY');
  assert.ok(d.run.pendingApproval);
  const o = d.force('planning');
  assert.deepEqual(o.cleared, ['pendingApproval']);
  assert.equal(d.run.pendingApproval, undefined);
  d.send('READY');
  assert.ok(d.run.pendingApproval, 'a new request can be parked');
});

test('force_state clears an active interrupt', () => {
  const d = new Driver('debug.workflow.json');
  assert.equal(d.file('README.md').interrupted, true);
  assert.ok(d.run.interrupt);
  const o = d.force('planning');
  assert.deepEqual(o.cleared, ['interrupt']);
  assert.equal(d.run.interrupt, undefined);
});

test('force_state clears an active fork', () => {
  const d = new Driver('debug.workflow.json');
  d.go('FORK', 'implementing');
  assert.ok(d.run.fork);
  const o = d.force('planning');
  assert.deepEqual(o.cleared, ['fork']);
  assert.equal(d.run.fork, undefined);
  assert.equal(d.state, 'planning');
});

test('force_state to a final state completes the run', () => {
  const d = new Driver('debug.workflow.json');
  assert.equal(d.force('done').status, 'completed');
  const e = new Driver('debug.workflow.json');
  assert.equal(e.force('failed').status, 'failed');
});

// --- reload -------------------------------------------------------------------

test('reload applies a new definition when the current state still exists', () => {
  const d = new Driver('order.workflow.json');
  const text = d.run.workflow.definitionText.replace('"CANCEL": "cancelled"\n', '"CANCEL": "cancelled", "RESET": "draft"\n');
  assert.notEqual(text, d.run.workflow.definitionText);
  const o = d.reload(text);
  assert.equal(o.reloaded, true);
  assert.equal(d.run.workflow.definitionText, text);
  d.go('RESET', 'draft');
});

test('reload is refused when the current state no longer exists', () => {
  const d = new Driver('order.workflow.json');
  const text = JSON.stringify({ id: 'order', initial: 'x', states: { x: { on: { A: 'y' } }, y: { type: 'final' } } });
  assert.equal(d.reload(text).error?.code, 'unknown_state');
  assert.equal(d.run.workflow.id, 'order');
});

test('reload is refused when the text does not load', () => {
  const d = new Driver('order.workflow.json');
  assert.equal(d.reload('{ not json').error?.code, 'invalid_definition');
});

// --- describe -----------------------------------------------------------------

test('describe lists each event with its target, guard results and approval flag', () => {
  const d = new Driver('order.workflow.json', { context: { item_count: 1 } });
  const v = d.view();
  assert.equal(v.state, 'draft');
  assert.equal(v.is_final, false);
  const submit = v.transitions.find((t) => t.event === 'SUBMIT');
  assert.deepEqual(submit?.guards, [{ name: 'has_items', passes: true }, { name: 'has_payment', passes: false }]);
  assert.equal(submit?.available, false);
  assert.equal(submit?.requires_approval, false);
  assert.equal(v.transitions.find((t) => t.event === 'CANCEL')?.available, true);
});

test('describe shows the state rules and limits', () => {
  const d = new Driver('debug-machine.workflow.json');
  const v = d.view();
  assert.deepEqual(v.allowed_tools, ['Read', 'Bash']);
  assert.equal(v.max_iterations, null);
  assert.equal(v.iteration, 0);
  assert.equal(v.status, 'running');
});

test('describe never throws on a definition that no longer loads', () => {
  const d = new Driver('order.workflow.json');
  d.run = { ...d.run, workflow: { ...d.run.workflow, definitionText: '{' } };
  const v = d.view();
  assert.equal(v.error?.code, 'invalid_definition');
  d.refused('CANCEL', 'invalid_definition');
});

// --- hierarchy in the IR ------------------------------------------------------

test('an IR with a nested state processing.validating runs: ids are paths, a compound is entered through its initial child', async () => {
  const { nestedWorkflow } = await import('./machine-nested-ir.js');
  const env = testEnv();
  const wf = nestedWorkflow();
  assert.equal(wf.states.get('processing')?.kind, 'compound');
  assert.deepEqual(wf.states.get('processing')?.children, ['processing.validating']);
  assert.equal(wf.states.get('processing.validating')?.parent, 'processing');
  const r = m.startRun(wf, '{}', { runId: 'n', hash: 'h' }, { ...env, load: () => wf });
  assert.equal(r.run?.state, 'processing.validating');
  const s = m.sendEvent(r.run!, 'VALID', undefined, { ...env, load: () => wf });
  assert.equal(s.outcome.to, 'done');
  assert.equal(s.run.status, 'completed');
});
