import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Driver } from './machine-helpers.js';
import { matchInterrupt, normaliseRelPath } from '../../src/engine/machine/patterns/interrupts.js';
import { testEnv, loadFixture } from './machine-helpers.js';

const wf = loadFixture(testEnv(), 'interrupts.workflow.json').wf;

const matches: [path: string, expected: string | undefined][] = [
  ['site/pb/hooks/auth.pb.js', 'pb_check'],
  ['site/pb/deep/nested/file.js', 'pb_check'],
  ['src/app.js', 'js_any'],
  ['.env', 'env_audit'],
  ['config/.env.production', 'env_audit'],
  ['site\\pb\\x.js', 'pb_check'],
  ['./site/pb/x.js', 'pb_check'],
  ['src/app.ts', undefined],
  ['/abs/site/pb/x.js', undefined],
  ['../outside/.env', undefined],
  ['C:/x/.env', undefined],
];

for (const [path, expected] of matches) {
  test(`file ${path} fires ${expected ?? 'nothing'} (first match in definition order, dot: true)`, () => {
    assert.equal(matchInterrupt(wf, path)?.name, expected);
  });
}

test('normaliseRelPath makes separators / and refuses paths outside the workspace', () => {
  assert.equal(normaliseRelPath('a\\b\\c.ts'), 'a/b/c.ts');
  assert.equal(normaliseRelPath('./a'), 'a');
  assert.equal(normaliseRelPath('/a'), undefined);
  assert.equal(normaliseRelPath('a/../../b'), undefined);
  assert.equal(normaliseRelPath(''), undefined);
});

test('a file change fires the interrupt from a non-final state and records where to return', () => {
  const d = new Driver('interrupts.workflow.json');
  const o = d.file('site/pb/hooks/auth.pb.js');
  assert.equal(o.interrupted, true);
  assert.deepEqual(o.interrupt, { name: 'pb_check', from: 'implementing', to: 'pb_validating' });
  assert.equal(d.run.state, 'pb_validating');
  assert.equal(d.run.interrupt?.returnTo, 'implementing');
  assert.equal(d.run.interrupt?.file, 'site/pb/hooks/auth.pb.js');
});

test('$return round trip: back to the interrupted state, interrupt ended', () => {
  const d = new Driver('interrupts.workflow.json');
  d.go('DONE', 'testing');
  d.file('site/pb/x.js');
  const o = d.go('VALIDATED', 'testing', { ok: true });
  assert.equal(o.interrupt_ended, 'pb_check');
  assert.equal(d.run.interrupt, undefined);
  assert.equal(d.run.context.ok, true);
  assert.deepEqual(d.kinds().slice(-2), ['transition', 'interrupt_return']);
});

test('$return through a multi-state handler: the interrupt stays active inside it', () => {
  const d = new Driver('interrupts.workflow.json');
  d.file('site/pb/x.js');
  d.go('NEEDS_FIX', 'pb_fixing');
  assert.equal(d.run.interrupt?.name, 'pb_check', 'still handling');
  d.go('RECHECK', 'pb_validating');
  d.go('NEEDS_FIX', 'pb_fixing');
  d.go('FIXED', 'implementing');
  assert.equal(d.run.interrupt, undefined);
});

test('$return with no active interrupt is refused', () => {
  const d = new Driver('interrupts.workflow.json');
  d.run = { ...d.run, state: 'pb_validating' };
  d.refused('VALIDATED', 'no_interrupt_to_return_to');
});

test('leaving the handler by another transition ends the interrupt', () => {
  const d = new Driver('interrupts.workflow.json');
  d.file('.env');
  assert.equal(d.run.state, 'env_checking');
  const o = d.go('LEAVE', 'testing');
  assert.equal(o.interrupt_ended, 'env_audit');
  assert.equal(d.run.interrupt, undefined);
  const t = d.journal.at(-1);
  assert.equal(t?.kind === 'transition' && t.endedInterrupt, 'env_audit');
});

test('leaving the handler to a final state ends it (and the run)', () => {
  const d = new Driver('interrupts.workflow.json');
  d.file('site/pb/x.js');
  d.go('FAIL', 'failed');
  assert.equal(d.run.interrupt, undefined);
  assert.equal(d.run.status, 'failed');
});

test('no nesting: while an interrupt is active no other fires', () => {
  const d = new Driver('interrupts.workflow.json');
  d.file('site/pb/x.js');
  const o = d.file('.env');
  assert.equal(o.interrupted, false);
  assert.equal(o.reason, 'interrupt_active');
  assert.equal(d.run.state, 'pb_validating');
  assert.equal(d.run.interrupt?.name, 'pb_check');
  d.refused('INTERRUPT:env_audit', 'interrupt_active');
});

test('re-entry suppression: a change while standing in the handler state does not fire again', () => {
  const d = new Driver('interrupts.workflow.json');
  d.file('.env');
  d.go('LEAVE', 'testing');
  d.run = { ...d.run, state: 'env_checking' };
  const o = d.file('.env');
  assert.equal(o.interrupted, false);
  assert.equal(o.reason, 'already_in_handler');
});

test('interrupts do not fire from a final state', () => {
  const d = new Driver('interrupts.workflow.json');
  d.go('DONE', 'testing');
  d.go('PASS', 'completed');
  const o = d.file('.env');
  assert.equal(o.interrupted, false);
  assert.equal(o.reason, 'not_running');
});

test('interrupts do not fire while paused (enforcement is off)', () => {
  const d = new Driver('interrupts.workflow.json');
  d.pause();
  assert.equal(d.file('.env').reason, 'not_running');
  assert.equal(d.run.state, 'implementing');
});

test('a file that matches nothing changes nothing and journals nothing', () => {
  const d = new Driver('interrupts.workflow.json');
  const before = d.run;
  const o = d.file('README.md');
  assert.equal(o.interrupted, false);
  assert.equal(o.reason, 'no_match');
  assert.equal(d.run, before);
  assert.deepEqual(d.kinds(), ['start']);
});

test('INTERRUPT:<name> fires that interrupt by name', () => {
  const d = new Driver('interrupts.workflow.json');
  const o = d.go('INTERRUPT:env_audit', 'env_checking');
  assert.deepEqual(o.interrupted, { name: 'env_audit', from: 'implementing', to: 'env_checking' });
  d.go('CHECKED', 'implementing');
});

test('INTERRUPT:<unknown> is refused, listing the interrupts', () => {
  const d = new Driver('interrupts.workflow.json');
  const o = d.refused('INTERRUPT:nope', 'unknown_event');
  assert.match(o.error?.message ?? '', /pb_check, env_audit, js_any/);
});

test('an interrupt counts as a transition and resets the per-state counters', () => {
  const d = new Driver('interrupts.workflow.json');
  d.run.counters.iterations = 3;
  d.file('.env');
  assert.equal(d.run.counters.iterations, 0);
  assert.equal(d.run.counters.transitions, 1);
});

test('an interrupt from a state with a parked approval: withdrawn, then $return goes back', () => {
  const d = new Driver('interrupts.workflow.json');
  d.go('DONE', 'testing');
  d.send('SHIP');
  assert.ok(d.run.pendingApproval);
  d.file('.env');
  assert.equal(d.run.pendingApproval, undefined, 'withdrawn by the interrupt');
  d.go('CHECKED', 'testing');
});

test('a parked $return is asked with its resolved target and, once approved, ends the interrupt', () => {
  const d = new Driver('interrupts.workflow.json');
  d.go('DONE', 'testing');
  d.file('.env');
  const o = d.send('CONFIRMED', { confirmed: true });
  assert.equal(o.pending_approval?.target, 'testing');
  assert.equal(d.run.interrupt?.name, 'env_audit', 'still active while parked');
  const a = d.approve();
  assert.equal(a.to, 'testing');
  assert.equal(a.interrupt_ended, 'env_audit');
  assert.equal(d.run.interrupt, undefined);
  assert.equal(d.run.context.confirmed, true);
});

test('describe shows the active interrupt and resolves $return to the interrupted state', () => {
  const d = new Driver('interrupts.workflow.json');
  d.go('DONE', 'testing');
  d.file('site/pb/x.js');
  const v = d.view();
  assert.equal(v.interrupt?.name, 'pb_check');
  const ret = v.transitions.find((t) => t.event === 'VALIDATED');
  assert.equal(ret?.target, 'testing');
  assert.equal(ret?.returns, true);
});
