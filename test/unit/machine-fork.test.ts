import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Driver } from './machine-helpers.js';

test('fork (sequential): the parent waits, the first branch in name order starts at its initial', () => {
  const d = new Driver('fork.workflow.json');
  const o = d.go('BUILD_DONE', 'lint_run', { plan: 'p' });
  assert.deepEqual(o.fork_started, { branches: ['lint', 'types'], join: 'all', mode: 'sequential', current: 'lint' });
  assert.equal(d.run.state, 'building', 'the parent stays in its state');
  assert.equal(d.run.context.plan, 'p', 'the fork event data merges into the parent');
  const v = d.view();
  assert.equal(v.state, 'lint_run');
  assert.equal(v.branch, 'lint');
  assert.equal(v.fork?.current, 'lint');
  assert.deepEqual(v.fork?.branches.map((b) => [b.name, b.status]), [['lint', 'running'], ['types', 'pending']]);
  assert.deepEqual(d.kinds(), ['start', 'fork_start', 'branch_start']);
});

test('fork: branches start with a copy of the parent context', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run', { plan: 'p' });
  assert.deepEqual(d.view().context, { build: 1, plan: 'p' });
});

test('fork: events go to the current branch; BRANCH_DONE only in its terminal state', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  d.refused('BRANCH_DONE:lint', 'branch_not_terminal');
  d.refused('BRANCH_DONE:types', 'branch_not_terminal');
  d.refused('BRANCH_DONE:nope', 'unknown_branch');
  d.go('PASS', 'lint_done', { lint: 'clean' });
  assert.equal(d.view().transitions.at(-1)?.event, 'BRANCH_DONE:lint');
  const o = d.go('BRANCH_DONE:lint', 'types_run');
  assert.equal(o.branch, 'lint');
  assert.equal(d.view().fork?.current, 'types');
  assert.deepEqual(d.view().context, { build: 1 }, 'the next branch starts from the parent context');
});

test('fork join all: the parent moves to on_complete with every branch context merged', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  d.go('PASS', 'lint_done', { lint: 'clean', shared: 'lint' });
  d.go('BRANCH_DONE:lint', 'types_run');
  d.go('PASS', 'types_done', { types: 'ok', shared: 'types' });
  const o = d.go('BRANCH_DONE:types', 'deploying');
  assert.equal(o.transitioned, true);
  assert.equal(d.run.fork, undefined);
  assert.equal(d.run.state, 'deploying');
  assert.deepEqual(d.run.context, { build: 1, lint: 'clean', types: 'ok', shared: 'types' });
  const join = d.journal.at(-1);
  assert.equal(join?.kind, 'join');
  assert.equal(join?.kind === 'join' && join.outcome, 'complete');
});

test('fork join merge: a key one branch changed is not reset by a branch that left it alone', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  d.go('PASS', 'lint_done', { build: 2 });
  d.go('BRANCH_DONE:lint', 'types_run');
  d.go('PASS', 'types_done');
  d.go('BRANCH_DONE:types', 'deploying');
  assert.equal(d.run.context.build, 2);
});

test('fork join any: the first BRANCH_DONE joins', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_ANY', 'lint_run');
  d.go('PASS', 'lint_done', { lint: 'clean' });
  d.go('BRANCH_DONE:lint', 'deploying');
  assert.equal(d.run.fork, undefined);
  assert.equal(d.run.context.lint, 'clean');
});

test('fork failure: a branch in a failing final state fails the fork -> on_fail', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  const o = d.go('FAIL', 'fixing', { why: 'lint errors' });
  assert.equal(o.transitioned, true);
  assert.equal(d.run.fork, undefined);
  assert.equal(d.run.state, 'fixing');
  assert.equal(d.run.status, 'running');
  assert.equal(d.run.context.why, 'lint errors', 'the failed branch context merges so on_fail sees why');
  const join = d.journal.at(-1);
  assert.equal(join?.kind === 'join' && join.outcome, 'fail');
  assert.deepEqual(d.kinds().slice(-3), ['transition', 'branch_done', 'join']);
});

test('fork failure without on_fail: the parent goes to its state named failed', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_ANY', 'lint_run');
  d.go('FAIL', 'failed');
  assert.equal(d.run.state, 'failed');
  assert.equal(d.run.status, 'failed');
});

test('fork: a branch reaching a final state other than its terminal fails (it can never finish)', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  d.go('ODD', 'fixing');
});

test('fork: a fork or invoke inside a branch is refused', () => {
  const d = new Driver('fork.workflow.json');
  d.go('NESTED', 'forker');
  d.refused('INNER', 'nested_not_supported');
});

test('fork (parallel): every branch starts; events name their branch', () => {
  const d = new Driver('fork.workflow.json');
  const o = d.send('BUILD_PARALLEL');
  assert.equal(o.fork_started?.mode, 'parallel');
  assert.deepEqual(d.run.fork?.branches.map((b) => b.status), ['running', 'running']);
  d.refused('PASS', 'unknown_branch');
  d.go('PASS', 'types_done', undefined, { branch: 'types' });
  assert.equal(d.view({ branch: 'lint' }).state, 'lint_run');
  d.go('BRANCH_DONE:types', 'building');
  d.go('PASS', 'lint_done', { lint: 1 }, { branch: 'lint' });
  d.go('BRANCH_DONE:lint', 'deploying');
  assert.equal(d.run.context.lint, 1);
});

test('fork (parallel): one failing branch fails the fork', () => {
  const d = new Driver('fork.workflow.json');
  d.send('BUILD_PARALLEL');
  d.go('FAIL', 'fixing', undefined, { branch: 'lint' });
  assert.equal(d.run.fork, undefined);
});

test('fork (sequential): naming another branch than the current one is refused', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  d.refused('PASS', 'unknown_branch', undefined, { branch: 'types' });
});

test('BRANCH_DONE with no fork active is refused (safe_next does not catch it)', () => {
  const d = new Driver('fork.workflow.json');
  d.refused('BRANCH_DONE:lint', 'unknown_branch');
});

test('fork: branch transitions count on the run and on the branch', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  d.go('PASS', 'lint_done');
  const lint = d.run.fork?.branches.find((b) => b.name === 'lint');
  assert.equal(lint?.status !== 'pending' && lint?.counters.transitions, 1);
  assert.equal(d.run.counters.transitions, 1);
});

test('fork: interrupts fire in the current branch, and $return stays in it', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  const o = d.file('.eslintrc.json');
  assert.equal(o.interrupted, true);
  assert.equal(o.state, 'cfg_checking');
  assert.equal(d.run.state, 'building', 'the parent is untouched');
  assert.equal(d.run.interrupt, undefined);
  d.go('CHECKED', 'lint_run');
  assert.equal(d.view().fork?.current, 'lint');
});

test('fork: pause and resume keep the fork', () => {
  const d = new Driver('fork.workflow.json');
  d.go('BUILD_DONE', 'lint_run');
  d.pause();
  d.resume();
  d.go('PASS', 'lint_done');
});
