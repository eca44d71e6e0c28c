import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Driver, testEnv } from './machine-helpers.js';

test('invoke: the child starts at its initial state with context = input; the parent waits', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing', { asked: true });
  assert.equal(d.run.state, 'testing');
  assert.equal(d.run.context.asked, true, 'the invoking event data merges into the parent');
  assert.equal(d.run.child?.workflow.id, 'debug_machine');
  assert.deepEqual(d.run.child?.context, { scope: 'last_change' });
  const v = d.view();
  assert.equal(v.scope, 'child');
  assert.deepEqual(v.allowed_tools, ['Read', 'Bash'], 'the child\'s own state rules apply');
  assert.equal(v.child?.parent_state, 'testing');
  assert.ok(d.run.child?.workflow.definitionText.includes('"debug_machine"'), 'the child keeps its own definition text');
});

test('invoke: events go to the child, with the child\'s own guards', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing');
  d.refused('TESTS_PASS', 'unknown_event');
  d.go('FOUND', 'fixing');
});

test('invoke success: the parent resumes at on_complete with the child context merged', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing');
  d.go('FOUND', 'fixing', { root_cause: 'off by one' });
  const o = d.go('FIXED', 'verifying');
  assert.equal(o.transitioned, true);
  assert.equal(d.run.child, undefined);
  assert.deepEqual(d.run.context, { attempt: 1, scope: 'last_change', root_cause: 'off by one' });
  const done = d.journal.at(-1);
  assert.equal(done?.kind === 'child_done' && done.outcome, 'complete');
  assert.equal(d.run.status, 'running');
});

test('invoke failure (meta.failure_states): the parent moves to on_fail', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing');
  d.go('GIVE_UP', 'triage', { reason: 'no repro' });
  assert.equal(d.run.context.reason, 'no repro');
  assert.equal(d.run.status, 'running');
});

test('invoke: with failure_states listed, a child final named "failed" is a success', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing');
  d.go('STUCK', 'verifying');
});

test('a failing child without on_fail: the parent goes to its state named failed', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG_NO_FAIL', 'reproducing');
  d.go('GIVE_UP', 'failed');
  assert.equal(d.run.status, 'failed');
});

test('a failing child without on_fail and no failed state: the run is failed', () => {
  const d = new Driver('invoke-parent-nofailed.workflow.json');
  d.go('DEBUG', 'reproducing');
  const o = d.send('GIVE_UP');
  assert.equal(o.status, 'failed');
  assert.equal(d.run.status, 'failed');
  assert.equal(d.run.state, 'testing', 'the parent stays where it was');
  assert.equal(d.run.child, undefined);
  d.refused('DEBUG', 'not_running');
});

test('invoke of a workflow that cannot be found is refused (invoke_unresolved), data not merged', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.refused('MISSING', 'invoke_unresolved', { x: 1 });
  assert.equal(d.run.context.x, undefined);
});

test('invoke: nothing resolves without a resolver', () => {
  const env = testEnv([]);
  const d = new Driver('invoke-parent.workflow.json', { env });
  d.refused('DEBUG', 'invoke_unresolved');
});

test('invoke: approvals parked in the child are approved in the child', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing');
  assert.equal(d.approve().error?.code, 'no_pending_approval');
});

test('force_state clears a child run', () => {
  const d = new Driver('debug.workflow.json');
  // debug.workflow has no invoke; put a child in place the way the machine would.
  const child = new Driver('invoke-parent.workflow.json');
  child.go('DEBUG', 'reproducing');
  d.run = { ...d.run, child: child.run.child! };
  const o = d.force('implementing');
  assert.deepEqual(o.cleared, ['child']);
  assert.equal(d.run.child, undefined);
});

test('invoke: child transitions count on the run', () => {
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing');
  d.go('FOUND', 'fixing');
  d.go('FIXED', 'verifying');
  assert.equal(d.run.counters.transitions, 3, 'FOUND, FIXED, and the return to the parent');
});

test('locate (for the policy) finds the innermost position: the child\'s workflow and state', async () => {
  const { locate } = await import('../../src/engine/machine/operations.js');
  const d = new Driver('invoke-parent.workflow.json');
  d.go('DEBUG', 'reproducing');
  const at = locate(d.run, d.env);
  assert.ok(!('code' in at));
  assert.equal(at.workflow.id, 'debug_machine');
  assert.equal(at.node.id, 'reproducing');
  assert.equal(at.scope, 'child');
  assert.equal(at.position, d.run.child, 'a reference into the given snapshot');
});
