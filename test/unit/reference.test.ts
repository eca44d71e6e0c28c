/**
 * The schema reference's examples (test/fixtures/workflows/reference/, see its
 * README for what was added to complete fragments): each validates with no
 * diagnostics and runs a scripted sequence with every resulting state asserted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import type { JsonObject, JsonValue } from '../../src/engine/model/index.js';
import type { RunStatus } from '../../src/engine/machine/run.js';
import { Driver, FIXTURES, fixtureText, testEnv } from './machine-helpers.js';

type Step =
  | { send: string; data?: JsonValue; expect: string; error?: string; branch?: string }
  | { file: string; expect: string }
  | { approve: true; expect: string };

interface Script {
  fixture: string;
  name: string;
  context?: JsonObject;
  steps: Step[];
  status: RunStatus;
}

const scripts: Script[] = [
  { fixture: 'minimal', name: 'reads then completes', steps: [{ send: 'DONE', expect: 'complete' }], status: 'completed' },
  {
    fixture: 'full-with-guards',
    name: 'deploy is guarded by the test result in the context',
    steps: [
      { send: 'DEPLOY', expect: 'testing', error: 'guard_failed' },
      { send: 'DEPLOY', data: { test_result: 'pass' }, expect: 'testing', error: 'guard_failed' },
    ],
    status: 'running',
  },
  {
    fixture: 'full-with-guards',
    name: 'deploys once the result is in the context',
    context: { test_result: 'pass' },
    steps: [
      { send: 'DEPLOY', expect: 'deploying' },
      { send: 'DONE', expect: 'complete' },
    ],
    status: 'completed',
  },
  { fixture: 'full-with-guards', name: 'fails', steps: [{ send: 'FAIL', expect: 'failed' }], status: 'failed' },
  {
    fixture: 'pattern-simple',
    name: 'simple targets',
    steps: [
      { send: 'DONE', expect: 'planning', error: 'unknown_event' },
      { send: 'READY', expect: 'implementing' },
      { send: 'DONE', expect: 'completed' },
    ],
    status: 'completed',
  },
  {
    fixture: 'pattern-guarded',
    name: 'guards, self-transition, approval',
    steps: [
      { send: 'SUBMIT', expect: 'draft', error: 'guard_failed' },
      { send: 'ADD_ITEM', data: { item_count: 1, payment_method: 'card_4242' }, expect: 'draft' },
      { send: 'SUBMIT', expect: 'pending_payment' },
      { send: 'CONFIRM_PAYMENT', expect: 'pending_payment' },
      { send: 'CANCEL', expect: 'pending_payment', error: 'pending_approval' },
      { approve: true, expect: 'confirmed' },
      { send: 'SHIP', expect: 'shipped' },
      { send: 'DELIVER', expect: 'delivered' },
    ],
    status: 'completed',
  },
  {
    fixture: 'pattern-branched',
    name: 'first passing branch, under then at the limit',
    steps: [
      { send: 'POSTED', expect: 'evaluating' },
      { send: 'NEXT', data: { post_count: 5 }, expect: 'posting' },
      { send: 'POSTED', expect: 'reporting' },
    ],
    status: 'completed',
  },
  {
    fixture: 'pattern-invoke',
    name: 'a failing test run invokes the debug machine, which returns to testing',
    steps: [
      { send: 'DONE', expect: 'testing' },
      { send: 'TESTS_FAIL', expect: 'investigating' },
      { send: 'FOUND', data: { cause: 'typo' }, expect: 'fixing' },
      { send: 'FIXED', expect: 'testing' },
      { send: 'TESTS_PASS', expect: 'completed' },
    ],
    status: 'completed',
  },
  {
    fixture: 'pattern-invoke',
    name: 'a debug machine that gives up fails the parent through on_fail',
    steps: [
      { send: 'DONE', expect: 'testing' },
      { send: 'TESTS_FAIL', expect: 'investigating' },
      { send: 'GIVE_UP', expect: 'failed' },
    ],
    status: 'failed',
  },
  {
    fixture: 'pattern-fork',
    name: 'three branches in name order, then review',
    steps: [
      { send: 'FORK', expect: 'implementing' },
      { send: 'BRANCH_DONE:docs', expect: 'implementing', error: 'branch_not_terminal' },
      { send: 'DONE', expect: 'branch-done' },
      { send: 'BRANCH_DONE:docs', expect: 'implementing' },
      { send: 'DONE', expect: 'branch-done' },
      { send: 'BRANCH_DONE:lint', expect: 'implementing' },
      { send: 'DONE', expect: 'branch-done' },
      { send: 'BRANCH_DONE:test', expect: 'review' },
      { send: 'PASS', expect: 'completed' },
    ],
    status: 'completed',
  },
  {
    fixture: 'pattern-fork',
    name: 'a failing branch fails the fork',
    steps: [
      { send: 'FORK', expect: 'implementing' },
      { send: 'FAIL', expect: 'failed' },
    ],
    status: 'failed',
  },
  {
    fixture: 'interrupts',
    name: 'a pb file and an env file interrupt, each returns',
    steps: [
      { file: 'site/pb/hooks/auth.pb.js', expect: 'pb_validating' },
      { file: '.env', expect: 'pb_validating' },
      { send: 'VALIDATED', expect: 'implementing' },
      { file: 'config/.env.production', expect: 'env_checking' },
      { send: 'CHECKED', expect: 'implementing' },
      { send: 'CHECKED', expect: 'implementing', error: 'unknown_event' },
      { send: 'DONE', expect: 'completed' },
      { file: '.env', expect: 'completed' },
    ],
    status: 'completed',
  },
  {
    fixture: 'complete-reference',
    name: 'read, review, interrupt, approval gate',
    steps: [
      { send: 'UNDERSTOOD', expect: 'review' },
      { send: 'REVIEWED', expect: 'review', error: 'guard_failed' },
      { file: 'deploy/.env', expect: 'secrets_check' },
      { send: 'CHECKED', expect: 'review' },
      { send: 'REVISE', data: { issues_found: 3 }, expect: 'review', error: 'unknown_event' },
      { send: 'NOTHING_FOUND', data: { issues_found: 0 }, expect: 'complete' },
    ],
    status: 'completed',
  },
  {
    fixture: 'complete-reference',
    name: 'findings go to the approval gate',
    context: { issues_found: 2 },
    steps: [
      { send: 'UNDERSTOOD', expect: 'review' },
      { send: 'REVIEWED', expect: 'approve' },
      { send: 'APPROVED', expect: 'approve' },
      { approve: true, expect: 'complete' },
    ],
    status: 'completed',
  },
];

const REF = 'reference';
const fixtures = [...new Set(scripts.map((s) => s.fixture)), 'debug-machine'];

for (const f of fixtures) {
  test(`reference ${f}: validates with no diagnostics`, () => {
    const file = join(FIXTURES, REF, `${f}.workflow.json`);
    const r = checkWorkflowFile(fixtureText(join(REF, `${f}.workflow.json`)), file);
    assert.deepEqual(r.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`), []);
  });
}

for (const s of scripts) {
  test(`reference ${s.fixture}: ${s.name}`, () => {
    const env = testEnv([join(REF, 'debug-machine.workflow.json')]);
    const d = new Driver(join(REF, `${s.fixture}.workflow.json`), { env, ...(s.context ? { context: s.context } : {}) });
    s.steps.forEach((step, i) => {
      const label = `step ${i + 1} (${JSON.stringify(step)})`;
      if ('send' in step) {
        const o = d.send(step.send, step.data, step.branch === undefined ? {} : { branch: step.branch });
        assert.equal(o.error?.code, step.error, `${label}: ${o.error?.message ?? 'no error'}`);
      } else if ('file' in step) {
        d.file(step.file);
      } else {
        assert.equal(d.approve().error, undefined, label);
      }
      assert.equal(d.state, step.expect, label);
    });
    assert.equal(d.run.status, s.status);
  });
}
