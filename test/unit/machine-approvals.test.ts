import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Driver } from './machine-helpers.js';

const PLAN = { plan: 'p' };

test('ask mode (the default): a requires_approval transition is parked, not taken', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  const o = d.send('READY', { reason: 'ready' });
  assert.equal(o.transitioned, false);
  assert.equal(o.error, undefined);
  assert.deepEqual(o.pending_approval, { event: 'READY', target: 'executing', message: 'Agent wants to start executing' });
  assert.equal(d.run.state, 'planning');
  assert.equal(d.run.pendingApproval?.target, 'executing');
  assert.equal(d.run.context.reason, undefined, 'data waits for the approval');
  assert.equal(d.journal.at(-1)?.kind, 'approval_requested');
});

test('guards are checked when the approval is asked: a failing guard is refused, nothing parked', () => {
  const d = new Driver('approvals.workflow.json');
  d.refused('READY', 'guard_failed');
  assert.equal(d.run.pendingApproval, undefined);
});

test('while parked, every other transition is refused with pending_approval', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  d.send('READY');
  d.refused('REVISE', 'pending_approval');
  d.refused('ABANDON', 'pending_approval');
  d.refused('READY', 'pending_approval');
});

test('approve: the parked transition happens and its data merges then', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  d.send('READY', { reason: 'ready' });
  const o = d.approve();
  assert.equal(o.approved, true);
  assert.equal(o.to, 'executing');
  assert.equal(d.run.state, 'executing');
  assert.equal(d.run.context.reason, 'ready');
  assert.equal(d.run.pendingApproval, undefined);
  assert.deepEqual(d.kinds().slice(-2), ['approved', 'transition']);
});

test('reject: the run stays, the data is dropped, transitions are possible again', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  d.send('READY', { reason: 'ready' });
  const o = d.reject();
  assert.equal(o.rejected, true);
  assert.equal(d.run.state, 'planning');
  assert.equal(d.run.context.reason, undefined);
  assert.equal(d.journal.at(-1)?.kind, 'approval_rejected');
  d.go('REVISE', 'planning');
});

test('approve or reject with nothing parked is refused', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  assert.equal(d.approve().error?.code, 'no_pending_approval');
  assert.equal(d.reject().error?.code, 'no_pending_approval');
});

test('approval_mode "none": advisory, the transition happens at once and the outcome says so', () => {
  const d = new Driver('approvals-none.workflow.json', { context: PLAN });
  const o = d.go('READY', 'executing', { reason: 'r' });
  assert.deepEqual(o.approval_notice, { event: 'READY', target: 'executing', message: 'Agent wants to start executing' });
  assert.equal(d.run.pendingApproval, undefined);
  assert.equal(d.run.context.reason, 'r');
  const t = d.journal.at(-1);
  assert.equal(t?.kind === 'transition' && t.via, 'advisory_approval');
});

test('an interrupt withdraws a parked approval (journaled) and moves to its handler', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  d.send('READY', { reason: 'r' });
  const o = d.file('config/.env.local');
  assert.equal(o.interrupted, true);
  assert.equal(o.interrupt?.withdrew_approval, 'READY');
  assert.equal(d.run.pendingApproval, undefined);
  assert.equal(d.run.state, 'env_checking');
  assert.deepEqual(d.kinds().slice(-2), ['approval_withdrawn', 'interrupt']);
  assert.equal(d.run.context.reason, undefined);
  assert.equal(d.approve().error?.code, 'no_pending_approval');
  d.go('CHECKED', 'planning');
  d.send('READY');
  assert.ok(d.run.pendingApproval, 'the agent can ask again after the interrupt');
});

test('an INTERRUPT:<name> event also withdraws a parked approval', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  d.send('READY');
  const o = d.go('INTERRUPT:env_audit', 'env_checking');
  assert.equal(o.interrupted?.withdrew_approval, 'READY');
});

test('approval requests while paused are refused; approve on a paused run is refused', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  d.send('READY');
  d.pause();
  assert.equal(d.approve().error?.code, 'not_running');
  d.resume();
  assert.equal(d.approve().approved, true);
});

test('describe shows the parked approval and marks transitions unavailable', () => {
  const d = new Driver('approvals.workflow.json', { context: PLAN });
  assert.equal(d.view().transitions.find((t) => t.event === 'READY')?.requires_approval, true);
  d.send('READY');
  const v = d.view();
  assert.equal(v.pending_approval?.event, 'READY');
  assert.ok(v.transitions.every((t) => !t.available));
});
