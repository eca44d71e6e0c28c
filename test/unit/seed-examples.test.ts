/**
 * Every example a seed format presents as valid, as a fixture that validates
 * clean and runs as the format's own text describes (the inventory is
 * test/fixtures/seeds/README.md). One test per example: the fixture is
 * checked with no diagnostics at all (no errors, no warnings), then driven
 * in-process (Runner for workflows and stage pipelines, the flow runner for
 * flows, the chart loader for statecharts, the record validator for the run
 * record) and the states, decisions, context, variables and outputs the
 * format's text states are asserted.
 *
 * A row waiting on work in progress elsewhere carries node:test's `todo`
 * naming the Deliver item of issue 30: it runs and reports but does not fail
 * the suite; the lead removes the `todo` once that work is merged.
 * The AGENT-33 statechart examples run in statechart-spec-scenarios.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { Runner, type ToolAnswer } from '../../src/engine/runs/runner.js';
import type { JsonObject, JsonValue } from '../../src/engine/model/index.js';
import { exportWorkflow, flowStatus, resumeFlow, startFlow } from '../../src/engine/index.js';
import type { FlowSummary } from '../../src/engine/flow/types.js';
import { analyseForPolicy, rewriteForPolicy } from '../../src/engine/shell/gate.js';
import validateRecord from '../../src/engine/schema/agent-state-validator.generated.js';
import { testHost, type TestHost } from './helpers/flow-host.js';
import { tempDir, type CleanupOwner } from './helpers/temp-dir.js';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const SEEDS = path.join(FIXTURES, 'seeds');

/** Validates `file` (relative to test/fixtures) with every diagnostic reported; asserts there are none. */
function validatesClean(file: string): void {
  const full = path.join(FIXTURES, file);
  const r = checkWorkflowFile(fs.readFileSync(full, 'utf8'), full);
  assert.deepEqual(
    r.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`),
    [],
    `${file} validates clean`,
  );
  assert.ok(r.workflow, `${file} loads`);
}

// ---------------------------------------------------------------------------
// Workflows and stage pipelines: a Runner on a temporary workspace.

interface Run {
  readonly runner: Runner;
  readonly ws: string;
  /** Sends and asserts the run moved to `to`. */
  go(event: string, to: string, data?: JsonValue, branch?: string): Promise<void>;
  /** Sends and asserts it was refused with `code`, the run unmoved. */
  refused(event: string, code: string, data?: JsonValue): Promise<void>;
  allow(tool: string, input: Record<string, unknown>, branch?: string): Promise<ToolAnswer>;
  deny(tool: string, input: Record<string, unknown>, reason?: RegExp, branch?: string): Promise<ToolAnswer>;
  state(): Promise<string>;
  context(): Promise<JsonObject>;
  at(file: string): string;
}

async function startRun(t: CleanupOwner, fixture: string, extra: readonly string[] = [], context?: JsonObject): Promise<Run> {
  const ws = tempDir('sg-seed-example-', t);
  for (const f of [fixture, ...extra]) fs.copyFileSync(path.join(FIXTURES, f), path.join(ws, path.basename(f)));
  const runner = new Runner({ dir: path.join(ws, '.stategate'), workspaceRoot: ws, analyseShell: analyseForPolicy, rewriteShell: rewriteForPolicy });
  await runner.start(path.join(ws, path.basename(fixture)), context);
  const state = async (): Promise<string> => (await runner.state()).state;
  return {
    runner,
    ws,
    state,
    context: async () => (await runner.state()).context,
    at: (file) => path.join(ws, file),
    async go(event, to, data, branch) {
      const o = await runner.send(event, data, branch);
      assert.equal(o.error, undefined, `${event}: ${o.error?.message ?? ''}`);
      assert.equal(o.transitioned, true, `${event} moved the run`);
      assert.equal(await state(), to, `${event} leads to ${to}`);
    },
    async refused(event, code, data) {
      const before = await state();
      const o = await runner.send(event, data);
      assert.equal(o.error?.code, code, `${event} refused with ${code} (got ${o.error?.code ?? 'no error'})`);
      assert.equal(await state(), before, `${event} leaves the run in ${before}`);
    },
    async allow(tool, input, branch) {
      const a = await runner.tool({ tool, input }, branch === undefined ? {} : { branch });
      assert.equal(a.decision, 'allow', `${tool} ${JSON.stringify(input)} allowed: ${a.reason ?? ''}`);
      return a;
    },
    async deny(tool, input, reason, branch) {
      const a = await runner.tool({ tool, input }, branch === undefined ? {} : { branch });
      assert.equal(a.decision, 'deny', `${tool} ${JSON.stringify(input)} denied`);
      if (reason) assert.match(a.reason ?? '', reason);
      return a;
    },
  };
}

const bash = (command: string) => ({ command });
const lines = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n');

interface Example {
  /** test/fixtures-relative fixture the example became. */
  readonly fixture: string;
  /** Other fixtures the run needs beside it (an invoked sub-workflow). */
  readonly extra?: readonly string[];
  /** The seed's section and what the run shows. */
  readonly name: string;
  readonly context?: JsonObject;
  readonly todo?: string;
  readonly run: (r: Run) => Promise<void>;
}

const SW = 'seeds/statewright';
const REF = 'workflows/reference';

const statewright: Example[] = [
  {
    fixture: `${SW}/schema-header.workflow.json`,
    name: 'Workflow Schema Reference: a definition naming the schema with $schema',
    async run(r) {
      await r.go('DONE', 'done');
      assert.equal((await r.runner.state()).status, 'completed');
    },
  },
  {
    fixture: `${REF}/minimal.workflow.json`,
    name: 'Minimal Example: reading allows Read and Grep only, DONE completes',
    async run(r) {
      await r.allow('Read', { file_path: r.at('a.ts') });
      await r.allow('Grep', { pattern: 'x' });
      await r.deny('Edit', { file_path: r.at('a.ts'), old_string: 'a', new_string: 'b' }, /allowed_tools/);
      await r.go('DONE', 'complete');
      assert.equal((await r.runner.state()).status, 'completed');
      // Once a final state is reached, enforcement deactivates.
      assert.equal((await r.runner.tool({ tool: 'Edit', input: { file_path: r.at('a.ts'), old_string: 'a', new_string: 'b' } })).enforcement, 'off');
    },
  },
  {
    fixture: `${REF}/full-with-guards.workflow.json`,
    name: 'Full Example with Context and Guards: pytest allowed, DEPLOY waits for test_result "pass"',
    async run(r) {
      await r.allow('Bash', bash('pytest -q'));
      await r.allow('Bash', bash('npm test'));
      await r.deny('Bash', bash('kubectl apply -f x.yaml'));
      await r.refused('DEPLOY', 'guard_failed');
      // The example has no transition that sets test_result, so a second run starts with it in the context.
      const again = await startRun({ after: () => {} }, `${REF}/full-with-guards.workflow.json`, [], { test_result: 'pass' });
      await again.go('DEPLOY', 'deploying');
      await again.go('DONE', 'complete');
      await r.go('FAIL', 'failed');
    },
  },
  {
    fixture: `${SW}/allowed-tools.workflow.json`,
    name: 'allowed_tools: planning allows Read, Grep, Glob; omitted, every tool passes',
    async run(r) {
      for (const [tool, input] of [['Read', { file_path: r.at('a') }], ['Grep', { pattern: 'x' }], ['Glob', { pattern: '**/*.ts' }]] as const) await r.allow(tool, input);
      await r.deny('Write', { file_path: r.at('a'), content: 'x' }, /allowed_tools/);
      await r.deny('Bash', bash('ls'));
      // stategate's own tools are always available.
      assert.equal((await r.runner.tool({ tool: 'statewright_get_state', input: {} })).decision, 'allow');
      await r.go('READY', 'implementing');
      await r.allow('Write', { file_path: r.at('a'), content: 'x' });
      await r.allow('Bash', bash('ls'));
    },
  },
  {
    fixture: `${SW}/instructions.workflow.json`,
    name: 'instructions: the state carries its guidance for the agent',
    async run(r) {
      const view = (await r.runner.state()) as unknown as { instructions?: string };
      assert.equal(view.instructions, 'Apply the minimal fix. Do not refactor unrelated code. Keep edits under 20 lines.');
      await r.go('DONE', 'testing');
    },
  },
  {
    fixture: `${SW}/max-iterations.workflow.json`,
    name: 'max_iterations: ten tool calls, then a transition must be decided',
    async run(r) {
      for (let i = 0; i < 10; i++) await r.allow('Read', { file_path: r.at(`f${i}`) });
      await r.deny('Read', { file_path: r.at('f10') }, /max_iterations[\s\S]*READY/);
      await r.go('READY', 'implementing');
      await r.allow('Read', { file_path: r.at('f11') });
    },
  },
  {
    fixture: `${SW}/safe-next.workflow.json`,
    name: 'safe_next: an unknown event GO goes to implementing; FAIL keeps its own target',
    async run(r) {
      await r.go('GO', 'implementing');
      const other = await startRun({ after: () => {} }, `${SW}/safe-next.workflow.json`);
      await other.go('FAIL', 'failed');
    },
  },
  {
    fixture: `${SW}/allowed-commands.workflow.json`,
    name: 'allowed_commands: pytest -v tests/ runs, rm -rf / and git push do not',
    async run(r) {
      await r.allow('Bash', bash('pytest -v tests/'));
      await r.allow('Bash', bash('cargo test'));
      await r.deny('Bash', bash('rm -rf /'));
      await r.deny('Bash', bash('git push'));
      await r.go('FAIL', 'debugging');
      await r.go('FIXED', 'testing');
      await r.go('PASS', 'complete');
    },
  },
  {
    fixture: `${SW}/blocked-env.workflow.json`,
    name: 'blocked_env and env_overrides: the blocked variables cannot be read, the overrides are given',
    async run(r) {
      await r.deny('Bash', bash('echo $PROD_DB_URL'), /PROD_DB_URL/);
      await r.deny('Bash', bash('printenv AWS_SECRET_ACCESS_KEY'), /AWS_SECRET_ACCESS_KEY/);
      const ok = await r.allow('Bash', bash('npm run build'));
      assert.match(ok.notices.join('\n'), /NODE_ENV=staging/);
      assert.match(ok.notices.join('\n'), /DATABASE_URL=postgres:\/\/localhost\/staging/);
    },
  },
  {
    fixture: `${SW}/edit-scope.workflow.json`,
    name: 'max_edit_lines and max_files_per_state: each edit at most 20 lines, at most 3 files',
    async run(r) {
      const edit = (file: string, n: number) => ({ file_path: r.at(file), old_string: 'x', new_string: lines(n, file) });
      await r.deny('Edit', edit('a.ts', 21), /max_edit_lines/);
      await r.allow('Edit', edit('a.ts', 15));
      // Each operation is limited, not their sum: a second 15-line edit passes.
      await r.allow('Edit', edit('b.ts', 15));
      await r.allow('Edit', edit('c.ts', 20));
      await r.deny('Edit', edit('d.ts', 1), /max_files_per_state/);
      await r.allow('Edit', edit('a.ts', 1));
    },
  },
  {
    fixture: `${SW}/context-budget.workflow.json`,
    name: 'context_budget_bytes: reading stops once 50000 bytes of results were read',
    async run(r) {
      const read = { tool: 'Read', input: { file_path: r.at('big.txt') } };
      await r.allow('Read', read.input);
      await r.runner.result(read, { bytes: 30_000 });
      await r.allow('Read', read.input);
      await r.runner.result(read, { bytes: 20_000 });
      await r.deny('Grep', { pattern: 'x' }, /context_budget_bytes/);
      await r.go('READY', 'implementing');
    },
  },
  {
    fixture: `${SW}/pattern-simple.workflow.json`,
    name: 'Pattern 1, Simple: READY and FAIL go to their targets',
    async run(r) {
      await r.go('READY', 'implementing');
      const other = await startRun({ after: () => {} }, `${SW}/pattern-simple.workflow.json`);
      await other.go('FAIL', 'failed');
    },
  },
  {
    fixture: `${SW}/pattern-guarded.workflow.json`,
    name: 'Pattern 2, Guarded: DEPLOY fires only once tests_passed holds',
    async run(r) {
      await r.refused('DEPLOY', 'guard_failed');
      await r.go('RECORD', 'testing', { test_result: 'pass' });
      await r.go('DEPLOY', 'deploying');
    },
  },
  {
    fixture: `${SW}/pattern-guards-approval.workflow.json`,
    name: 'Pattern 2, several guards and requires_approval: all guards must pass, then a person approves',
    async run(r) {
      await r.go('RECORD', 'testing', { test_result: 'pass', coverage: 79 });
      await r.refused('DEPLOY', 'guard_failed');
      await r.go('RECORD', 'testing', { coverage: 80 });
      const o = await r.runner.send('DEPLOY');
      assert.deepEqual(o.pending_approval, { event: 'DEPLOY', target: 'deploying', message: 'Deploy to production?' });
      assert.equal(await r.state(), 'testing', 'parked until a person approves');
      const approved = await r.runner.approve();
      assert.equal(approved.error, undefined);
      assert.equal(await r.state(), 'deploying');
    },
  },
  {
    fixture: `${SW}/pattern-branched.workflow.json`,
    name: 'Pattern 3, Branched: the first passing guard wins, the unguarded last entry is the default',
    async run(r) {
      await r.go('MEASURED', 'measuring', { coverage: 50 });
      await r.go('EVALUATE', 'improving');
      await r.go('DONE', 'measuring');
      await r.go('MEASURED', 'measuring', { coverage: 90 });
      await r.go('EVALUATE', 'deploying');
      const other = await startRun({ after: () => {} }, `${SW}/pattern-branched.workflow.json`, [], { coverage: 'unknown' });
      await other.go('EVALUATE', 'failed');
    },
  },
  {
    fixture: `${SW}/pattern-invoke.workflow.json`,
    extra: [`${SW}/test-suite.workflow.json`],
    name: 'Pattern 4, Invoke: test-suite runs with its input, success resumes at on_complete, failure at on_fail',
    async run(r) {
      const o = await r.runner.send('RUN_TESTS');
      assert.equal(o.error, undefined, o.error?.message);
      assert.deepEqual(o.child_started, { workflow: 'test-suite', state: 'running' });
      const view = await r.runner.state();
      assert.equal(view.state, 'running');
      assert.equal(view.context.suite, 'integration');
      await r.allow('Bash', bash('pytest tests/integration'));
      await r.go('PASS', 'deploying');
      const other = await startRun({ after: () => {} }, `${SW}/pattern-invoke.workflow.json`, [`${SW}/test-suite.workflow.json`]);
      await other.go('RUN_TESTS', 'running');
      await other.go('FAIL', 'debugging');
    },
  },
  {
    fixture: `${SW}/pattern-fork.workflow.json`,
    name: 'Pattern 5, Fork (sequential): each branch to its terminal, BRANCH_DONE:<name>, then on_complete',
    async run(r) {
      const o = await r.runner.send('BUILD_DONE');
      assert.deepEqual(o.fork_started?.branches, ['lint', 'security', 'types']);
      assert.equal(await r.state(), 'lint_run');
      await r.allow('Bash', bash('npm run lint'));
      await r.deny('Bash', bash('npx tsc'));
      await r.go('DONE', 'lint_done');
      await r.go('BRANCH_DONE:lint', 'security_run');
      await r.go('DONE', 'security_done');
      await r.go('BRANCH_DONE:security', 'types_run');
      await r.go('DONE', 'types_done');
      await r.go('BRANCH_DONE:types', 'deploying');
    },
  },
  {
    fixture: `${SW}/pattern-fork.workflow.json`,
    name: 'Pattern 5, Fork (parallel): a call bound to a branch is decided by its rules, an unbound one by the rules every branch shares',
    async run(r) {
      await r.runner.send('BUILD_DONE');
      // The seed's sub-agents each bind to their branch; the first binding starts every branch at once.
      for (const branch of ['lint', 'security', 'types']) await r.runner.bind(`agent-${branch}`, branch);
      await r.allow('Grep', { pattern: 'password' }, 'security');
      await r.allow('Bash', bash('npm run lint'), 'lint');
      await r.allow('Bash', bash('npx tsc'), 'types');
      await r.allow('Read', { file_path: r.at('a.ts') });
      await r.deny('Bash', bash('npm run lint'));
      // Each branch ends on its own; the join (all) moves the run on once the last one is done.
      for (const branch of ['types', 'lint', 'security']) {
        assert.equal((await r.runner.send('DONE', undefined, branch)).transitioned, true, `DONE in ${branch}`);
        assert.equal((await r.runner.state(branch)).state, `${branch}_done`);
        assert.equal((await r.runner.send(`BRANCH_DONE:${branch}`, undefined, branch)).error, undefined, `BRANCH_DONE:${branch}`);
      }
      assert.equal(await r.state(), 'deploying');
    },
  },
  {
    fixture: `${SW}/interrupts.workflow.json`,
    name: 'Interrupts: editing site/pb/hooks/auth.pb.js moves to pb_validating, once; VALIDATED returns',
    async run(r) {
      const fired = await r.runner.fileChanged(r.at('site/pb/hooks/auth.pb.js'));
      assert.equal(fired.interrupted, true);
      assert.equal(await r.state(), 'pb_validating');
      await r.allow('Bash', bash('task test:hooks'));
      await r.deny('Bash', bash('node -e "1"'));
      assert.equal((await r.runner.fileChanged(r.at('site/pb/hooks/other.pb.js'))).interrupted, false, 'no second interrupt in the handler');
      await r.go('VALIDATED', 'implementing');
      // `*.js` outside site/pb does not match.
      assert.equal((await r.runner.fileChanged(r.at('src/app.js'))).interrupted, false);
      // A shell write fires it too (docs/compat.md: Statewright's Bash writes do not).
      const write = { tool: 'Bash', input: bash('echo "hook" > site/pb/hooks/auth.pb.js') };
      await r.allow(write.tool, write.input);
      const shell = await r.runner.result(write, { bytes: 0 });
      assert.deepEqual(shell.interrupt, { name: 'pb_check', from: 'implementing', to: 'pb_validating', file: 'site/pb/hooks/auth.pb.js' });
      await r.go('VALIDATED', 'implementing');
      await r.go('DONE', 'testing');
    },
  },
  {
    fixture: `${SW}/guard-definitions.workflow.json`,
    name: 'Guard Definitions: tests_passed (eq "pass") and coverage_adequate (gte 80) both hold',
    async run(r) {
      await r.go('RECORD', 'testing', { test_result: 'pass', coverage: 79 });
      await r.refused('DEPLOY', 'guard_failed');
      await r.go('RECORD', 'testing', { coverage: 80 });
      await r.go('DEPLOY', 'deploying');
    },
  },
  ...(
    [
      ['eq', 'EQ', { status: 'fail' }, { status: 'pass' }],
      ['neq', 'NEQ', { status: 'fail' }, { status: 'pass' }],
      ['gt', 'GT', { coverage: 80 }, { coverage: 81 }],
      ['gte', 'GTE', { coverage: 79 }, { coverage: 80 }],
      ['lt', 'LT', { errors: 5 }, { errors: 4 }],
      ['lte', 'LTE', { errors: 1 }, { errors: 0 }],
      ['in', 'IN', { env: 'dev' }, { env: 'prod' }],
      ['contains', 'CONTAINS', { tags: ['draft'] }, { tags: ['draft', 'approved'] }],
      ['exists', 'EXISTS', { review_id: null }, { review_id: 'r-1' }],
      ['not_exists', 'NOT_EXISTS', { error: 'boom' }, { error: null }],
    ] as const
  ).map(
    ([op, event, no, yes]): Example => ({
      fixture: `${SW}/guard-operators.workflow.json`,
      name: `Guard Operators: ${op}`,
      async run(r) {
        await r.go('SET', 'checking', no as JsonObject);
        await r.refused(event, 'guard_failed');
        await r.go('SET', 'checking', yes as JsonObject);
        await r.go(event, 'passed');
      },
    }),
  ),
  {
    fixture: `${SW}/guard-timing.workflow.json`,
    name: 'Guard Timing: data set with TESTS_GREEN is there for CLEAN; data sent with CLEAN itself is not',
    async run(r) {
      await r.go('TESTS_GREEN', 'refactoring', { test_result: 'pass' });
      assert.equal((await r.context()).test_result, 'pass');
      await r.go('CLEAN', 'pre_deploy');
      const skipped = await startRun({ after: () => {} }, `${SW}/guard-timing.workflow.json`);
      await skipped.go('TESTS_GREEN', 'refactoring');
      await skipped.refused('CLEAN', 'guard_failed', { test_result: 'pass' });
      await skipped.refused('CLEAN', 'guard_failed');
    },
  },
  {
    fixture: `${SW}/guard-timing.workflow.json`,
    name: 'Pause and Resume: the run keeps its state and context, iterations start again at 0',
    async run(r) {
      await r.go('TESTS_GREEN', 'refactoring', { test_result: 'pass' });
      await r.allow('Read', { file_path: r.at('a') });
      assert.equal((await r.runner.pause()).status, 'paused');
      assert.equal((await r.runner.tool({ tool: 'Edit', input: { file_path: r.at('a'), old_string: 'a', new_string: 'b' } })).enforcement, 'off');
      const resumed = await r.runner.resume(r.at('guard-timing.workflow.json'));
      assert.equal(resumed.resumed, true);
      const view = await r.runner.state();
      assert.equal(view.state, 'refactoring');
      assert.equal(view.context.test_result, 'pass');
      assert.equal(view.iteration, 0);
      assert.equal(view.usage.transitions, 1);
    },
  },
  {
    fixture: `${SW}/debug-mode.workflow.json`,
    name: 'Debug Mode: force_state jumps to refactoring and patches the context; guards are bypassed',
    async run(r) {
      const forced = await r.runner.force('refactoring', { test_result: 'pass', build_ok: true });
      assert.equal(forced.error, undefined, forced.error?.message);
      assert.equal(await r.state(), 'refactoring');
      assert.deepEqual(await r.context(), { test_result: 'pass', build_ok: true });
      await r.go('CLEAN', 'pre_deploy');
      // Without meta.debug there is no force.
      const plain = await startRun({ after: () => {} }, `${SW}/guard-timing.workflow.json`);
      assert.ok((await plain.runner.force('refactoring')).error);
      assert.equal(await plain.state(), 'implementing');
    },
  },
  {
    fixture: `${SW}/meta-fields.workflow.json`,
    name: 'Meta Fields: the documented meta keys are accepted; capture_output keeps tool output in the run history',
    async run(r) {
      const call = { tool: 'Bash', input: bash('pytest') };
      await r.allow(call.tool, call.input);
      await r.runner.result(call, { bytes: 8, output: '3 passed' });
      const { run_id } = await r.runner.state();
      const journal = fs.readFileSync(path.join(r.ws, '.stategate', 'runs', run_id, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      assert.ok(journal.some((e) => e.kind === 'tool_result' && e.output === '3 passed' && e.command === 'pytest'), 'the output is in the journal');
      await r.go('DEPLOY', 'deploying');
      await r.go('DONE', 'complete');
    },
  },
  {
    fixture: `${SW}/complete-reference.workflow.json`,
    name: 'Complete Reference Example: plan, test, deploy with kubectl, approval to complete',
    async run(r) {
      await r.allow('Read', { file_path: r.at('deploy.yaml') });
      await r.deny('Edit', { file_path: r.at('a.py'), old_string: 'a', new_string: 'b' }, /allowed_tools/);
      await r.go('READY', 'testing', { test_result: 'pass', coverage: 92 });
      await r.allow('Bash', bash('pytest -q'));
      await r.deny('Bash', bash('echo $PROD_DB_URL'), /PROD_DB_URL/);
      await r.deny('Bash', bash('kubectl apply -f k8s/'));
      await r.go('EVALUATE', 'deploying');
      const kube = await r.allow('Bash', bash('kubectl apply -f k8s/'));
      assert.match(kube.notices.join('\n'), /KUBECONFIG=\/etc\/kube\/staging\.yaml/);
      const done = await r.runner.send('DONE');
      assert.deepEqual(done.pending_approval, { event: 'DONE', target: 'complete', message: 'Deployment finished. Approve to mark complete?' });
      await r.runner.approve();
      assert.equal(await r.state(), 'complete');
      assert.equal((await r.runner.state()).status, 'completed');
    },
  },
  {
    fixture: `${SW}/complete-reference.workflow.json`,
    name: 'Complete Reference Example: failing tests go to fixing; an unknown event in planning takes safe_next',
    async run(r) {
      await r.go('SKIP_AHEAD', 'testing');
      await r.go('EVALUATE', 'failed');
      const again = await startRun({ after: () => {} }, `${SW}/complete-reference.workflow.json`, [], { test_result: 'fail' });
      await again.go('READY', 'testing');
      await again.go('EVALUATE', 'fixing');
      await again.allow('Edit', { file_path: again.at('test_a.py'), old_string: 'a', new_string: 'b' });
      await again.go('DONE', 'testing');
    },
  },
];

const PL = 'seeds/pipeline';

const pipeline: Example[] = [
  {
    fixture: `${PL}/code-review.workflow.json`,
    name: 'State Machine Workflow (our field names): Plan, Execute, Review, each ended by its completion tool',
    async run(r) {
      await runCodeReview(r, 'Plan', 'Execute', 'Review', 'Done');
    },
  },
  {
    fixture: `${PL}/code-review-seed-fields.workflow.json`,
    name: 'State Machine Workflow (the seed\'s allowedTools, completionTool, completionSchema, turnCap): the same run',
    async run(r) {
      await runCodeReview(r, 'Plan', 'Execute', 'Review', 'Done');
    },
  },
  {
    fixture: `${PL}/fan-out.workflow.json`,
    name: 'Fan-out: Test and Lint run as parallel stages, Review joins and reads both results',
    async run(r) {
      const built = await r.runner.completeStage('submit_build', { summary: 'added login' });
      assert.equal(built.accepted, true, built.error?.message);
      const live = (await r.runner.stages()).map((s) => s.state).sort();
      assert.deepEqual(live, ['Lint', 'Test']);
      assert.equal((await r.runner.completeStage('submit_lint', { clean: true }, 'Lint')).accepted, true);
      assert.equal((await r.runner.completeStage('submit_tests', { passed: true }, 'Test')).accepted, true);
      assert.equal(await r.state(), 'Review');
      const review = await r.runner.stage();
      assert.ok(typeof review !== 'string', String(review));
      assert.match(JSON.stringify(review), /tests true, lint true/);
      assert.equal((await r.runner.completeStage('submit_review', { approved: true })).accepted, true);
      assert.equal((await r.runner.state()).status, 'completed');
    },
  },
  {
    fixture: `${PL}/fan-out.workflow.json`,
    name: 'Fan-out: a failing sibling cancels the other and fails the fork',
    async run(r) {
      await r.runner.completeStage('submit_build', { summary: 'added login' });
      assert.equal((await r.runner.completeStage('submit_tests', { passed: false }, 'Test')).accepted, true);
      assert.equal(await r.state(), 'failed');
      assert.deepEqual(await r.runner.stages(), []);
    },
  },
];

/** The seed's trace: Edit refused in Plan (a one-shot grant asked: denied, then approved once), Grep allowed, submit_plan with a valid payload; Edit in Execute; Review has no tools. */
async function runCodeReview(r: Run, plan: string, execute: string, review: string, done: string): Promise<void> {
  assert.equal(await r.state(), plan);
  const edit = { file_path: r.at('auth.ts'), old_string: 'a', new_string: 'b' };
  await r.deny('Edit', edit);
  // The out-of-envelope Edit is put to a person (grantStageTool); denied, the model gets a typed denial.
  const asked = (await r.runner.askGrant('Edit', edit)).proposal;
  assert.equal(asked?.tool, 'Edit');
  const denied = await r.runner.answerGrant(asked!.id, false);
  assert.equal(denied.denial?.type, 'denied_tool_call');
  assert.equal(denied.denial?.stage, plan);
  // Had the person approved, the grant covers exactly that proposal, once.
  const again = (await r.runner.askGrant('Edit', edit)).proposal;
  assert.equal((await r.runner.answerGrant(again!.id, true)).approved, true);
  await r.deny('Edit', { ...edit, new_string: 'c' });
  await r.allow('Edit', edit);
  await r.deny('Edit', edit);
  await r.allow('Grep', { pattern: 'auth' });
  const bad = await r.runner.completeStage('submit_plan', { steps: [] });
  assert.equal(bad.accepted, false);
  assert.equal(bad.error?.code, 'invalid_payload');
  assert.equal(await r.state(), plan);
  const planned = await r.runner.completeStage('submit_plan', { steps: ['extract the token check'] });
  assert.equal(planned.accepted, true, planned.error?.message);
  assert.equal(await r.state(), execute);
  const stage = await r.runner.stage();
  assert.match(JSON.stringify(stage), /extract the token check/, 'Execute is told the plan');
  await r.allow('Edit', { file_path: r.at('auth.ts'), old_string: 'a', new_string: 'b' });
  assert.equal((await r.runner.completeStage('submit_diff', { diff: '-a\n+b' })).accepted, true);
  assert.equal(await r.state(), review);
  await r.deny('Read', { file_path: r.at('auth.ts') });
  assert.equal((await r.runner.completeStage('submit_review', { approved: true })).accepted, true);
  assert.equal(await r.state(), done);
  assert.equal((await r.runner.state()).status, 'completed');
}

for (const ex of [...statewright, ...pipeline]) {
  test(`${ex.fixture}: ${ex.name}`, ex.todo ? { todo: ex.todo } : {}, async (t) => {
    validatesClean(ex.fixture);
    for (const f of ex.extra ?? []) validatesClean(f);
    await ex.run(await startRun(t, ex.fixture, ex.extra ?? [], ex.context));
  });
}

// ---------------------------------------------------------------------------
// FlowState flows: the flow runner in a temporary workspace, with stand-ins
// for programs the examples call (curl, docker, sleep) first on PATH.

const FS = 'seeds/flowstate';

interface FlowExample {
  readonly fixture: string;
  readonly name: string;
  /** Files the workspace holds before the run (name -> text; a `bin/` file is made executable and put first on PATH). */
  readonly files?: Record<string, string>;
  readonly vars?: Record<string, string>;
  readonly check: (s: FlowSummary, w: FlowRun) => Promise<void> | void;
}

interface FlowRun {
  readonly ws: string;
  readonly host: TestHost;
  /** The states run, in order. */
  ran(s: FlowSummary): string[];
  /** The size of each state's stdout, in run order. */
  bytes(s: FlowSummary): number[];
}

function flowHost(ws: string): TestHost {
  const base = testHost(ws);
  const bin = path.join(ws, 'bin');
  return { ...base, runCommand: (req) => base.runCommand({ ...req, env: { ...req.env, PATH: `${bin}:${process.env.PATH}` } }) };
}

const flows: FlowExample[] = [
  {
    fixture: `${FS}/required-fields.flow.yaml`,
    name: 'Required Fields: a bash state runs its command',
    files: { 'hello.txt': 'hi\n' },
    check(s, w) {
      assert.equal(s.status, 'completed');
      assert.equal(s.exit_code, 0);
      assert.ok(w.bytes(s)[0]! > 'hello.txt'.length, 'ls -la printed the listing');
    },
  },
  {
    fixture: `${FS}/next.flow.yaml`,
    name: 'next: step-1 then step-2, where the flow ends',
    check(s, w) {
      assert.deepEqual(w.ran(s), ['step-1', 'step-2']);
      assert.equal(s.status, 'completed');
      assert.deepEqual(w.bytes(s), ['Step 1\n'.length, 'Step 2\n'.length]);
    },
  },
  {
    fixture: `${FS}/output.flow.yaml`,
    name: 'output: var(app_version) holds the version, file(./logs/app.log) the logs',
    files: { VERSION: '2.4.1', 'bin/docker': '#!/bin/sh\necho "listening on :8080"\n' },
    check(s, w) {
      assert.equal(s.status, 'completed');
      assert.equal(s.variables.app_version, '2.4.1');
      assert.equal(fs.readFileSync(path.join(w.ws, 'logs', 'app.log'), 'utf8'), 'listening on :8080\n');
    },
  },
  ...([
    [1, 'handle-permission-error'],
    [2, 'handle-not-found'],
    [5, 'handle-unknown-error'],
    [0, 'success-state'],
  ] as const).map(
    ([code, handler]): FlowExample => ({
      fixture: `${FS}/on-error.flow.yaml`,
      name: `on-error: exit ${code} goes to ${handler}`,
      files: { 'might-fail.sh': `#!/bin/sh\nexit ${code}\n` },
      check(s, w) {
        assert.deepEqual(w.ran(s), ['risky-operation', handler]);
        assert.equal(s.status, 'completed');
        assert.equal(s.exit_code, 0);
      },
    }),
  ),
  ...([
    ['production', 'deploy-prod'],
    ['staging', 'deploy-staging'],
    [undefined, 'deploy-dev'],
  ] as const).map(
    ([env, target]): FlowExample => ({
      fixture: `${FS}/goto.flow.yaml`,
      name: `goto: env ${env ?? 'dev (any other value)'} goes to ${target}`,
      ...(env ? { vars: { env } } : {}),
      check(s, w) {
        assert.deepEqual(w.ran(s), ['check-environment', target]);
        assert.equal(s.status, 'completed');
      },
    }),
  ),
  {
    fixture: `${FS}/linear.flow.yaml`,
    name: 'Linear Flow: First, Second, Third',
    check(s, w) {
      assert.deepEqual(w.ran(s), ['step-1', 'step-2', 'step-3']);
      assert.deepEqual(w.bytes(s), ['First\n'.length, 'Second\n'.length, 'Third\n'.length]);
      assert.equal(s.status, 'completed');
    },
  },
  {
    fixture: `${FS}/branching.flow.yaml`,
    name: 'Conditional Branching: ready proceeds',
    files: { 'status.txt': 'ready' },
    check(s, w) {
      assert.deepEqual(w.ran(s), ['check-status', 'branch', 'proceed']);
      assert.equal(s.variables.status, 'ready');
      assert.equal(w.bytes(s)[2], 'Proceeding...\n'.length);
    },
  },
  {
    fixture: `${FS}/branching.flow.yaml`,
    name: 'Conditional Branching: pending pauses, and resuming checks the status again',
    files: { 'status.txt': 'pending' },
    async check(s, w) {
      assert.equal(s.status, 'paused');
      assert.equal(s.state, 'wait-more');
      assert.match(s.message ?? '', /Waiting for status to change/);
      fs.writeFileSync(path.join(w.ws, 'status.txt'), 'ready');
      const resumed = await resumeFlow(w.host, s.instance);
      assert.equal(resumed.status, 'completed');
      assert.deepEqual(w.ran(resumed), ['check-status', 'branch', 'wait-more', 'check-status', 'branch', 'proceed']);
    },
  },
  {
    fixture: `${FS}/error-recovery.flow.yaml`,
    name: 'Error Recovery: a failed fetch is retried, then the data is processed',
    files: {
      'bin/curl': '#!/bin/sh\nif [ -f tried ]; then echo \'{"items":[1]}\'; else touch tried; exit 7; fi\n',
      'bin/sleep': '#!/bin/sh\nexit 0\n',
    },
    check(s, w) {
      assert.deepEqual(w.ran(s), ['fetch-data', 'retry-fetch', 'fetch-data', 'process-data']);
      assert.equal(s.variables.data, '{"items":[1]}');
      assert.equal(s.status, 'completed');
    },
  },
  ...(['ok', 'bad'] as const).map(
    (outcome): FlowExample => ({
      fixture: `${FS}/terminal.flow.yaml`,
      name: `Terminal States: ${outcome === 'ok' ? 'final-step' : 'fatal-error'} ends the flow with its own exit code`,
      vars: { outcome },
      check(s, w) {
        const last = outcome === 'ok' ? 'final-step' : 'fatal-error';
        assert.deepEqual(w.ran(s), ['work', last]);
        assert.equal(s.status, 'completed');
        assert.equal(s.exit_code, 0, 'echo to stderr exits 0');
      },
    }),
  ),
];

for (const ex of flows) {
  test(`${ex.fixture}: ${ex.name}`, async (t) => {
    validatesClean(ex.fixture);
    const ws = tempDir('sg-seed-flow-', t);
    const name = path.basename(ex.fixture);
    fs.copyFileSync(path.join(FIXTURES, ex.fixture), path.join(ws, name));
    for (const [file, text] of Object.entries(ex.files ?? {})) {
      fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
      fs.writeFileSync(path.join(ws, file), text);
      if (file.startsWith('bin/') || file.endsWith('.sh')) fs.chmodSync(path.join(ws, file), 0o755);
    }
    const host = flowHost(ws);
    const s = await startFlow(host, { file: name, ...(ex.vars ? { vars: ex.vars } : {}) });
    await ex.check(s, {
      ws,
      host,
      ran: (summary) => flowStatus(ws, summary.instance).log.map((e) => e.state),
      bytes: (summary) => flowStatus(ws, summary.instance).log.map((e) => e.bytes),
    });
  });
}

test(`${FS}/anatomy.flow.yaml: State Anatomy drawn on one bash state: goto is the switch tool's field, so it is refused (docs/compat.md)`, () => {
  const full = path.join(FIXTURES, FS, 'anatomy.flow.yaml');
  const r = checkWorkflowFile(fs.readFileSync(full, 'utf8'), full);
  assert.deepEqual(r.diagnostics.map((d) => `${d.severity} ${d.code}`), ['error flow-goto-not-switch']);
  assert.match(r.diagnostics[0]!.message, /`state-name` runs `bash`/);
});

// ---------------------------------------------------------------------------
// AGENT-33: the machine registry names its charts as plain .yaml files.

test(
  'seeds/agent33/registry.statechart.yaml: Machine Registry: statecharts/code_review.yaml and statecharts/deploy.yaml resolve and validate',
  {},
  async (t) => {
    validatesClean('seeds/agent33/registry.statechart.yaml');
    validatesClean('seeds/agent33/statecharts/code_review.yaml');
    validatesClean('seeds/agent33/statecharts/deploy.yaml');
    // The run invokes each registered chart by id (and version) as a child statechart.
    const r = await startRun(t, 'seeds/agent33/registry.statechart.yaml');
    fs.mkdirSync(r.at('statecharts'));
    for (const f of ['code_review.yaml', 'deploy.yaml']) fs.copyFileSync(path.join(SEEDS, 'agent33', 'statecharts', f), r.at(`statecharts/${f}`));
    await r.runner.start(r.at('registry.statechart.yaml'));
    assert.deepEqual((await r.runner.state()).configuration, ['reviewing']);
    await r.runner.send('APPROVE');
    assert.deepEqual((await r.runner.state()).configuration, ['deploying']);
    await r.runner.send('DEPLOYED');
    assert.deepEqual((await r.runner.state()).configuration, ['released']);
    assert.equal((await r.runner.state()).status, 'completed');
  },
);

test('seeds/agent33/mermaid-export.statechart.yaml: Mermaid Export Example: the export draws the seed\'s edges, and the chart runs them', async (t) => {
  const file = 'seeds/agent33/mermaid-export.statechart.yaml';
  validatesClean(file);
  const full = path.join(FIXTURES, file);
  const wf = checkWorkflowFile(fs.readFileSync(full, 'utf8'), full).workflow!;
  const text = exportWorkflow(wf, 'mermaid');
  assert.match(text, /^stateDiagram-v2\n/);
  // Our ids are aliases (`state "idle" as s_idle`) and guards print as written: map both back to the seed's spelling.
  const names = new Map([...text.matchAll(/state "([^"]+)" as (\S+)/g)].map((m) => [m[2]!, m[1]!]));
  const name = (id: string): string => (id === '[*]' ? '[*]' : names.get(id) ?? id);
  const edges = [...text.matchAll(/^\s*(\S+) --> (\S+?)(?:: (.*))?$/gm)].map((m) => `${name(m[1]!)} --> ${name(m[2]!)}${m[3] ? ` : ${m[3].replace('[context.', '[')}` : ''}`);
  assert.deepEqual(edges.sort(), [
    '[*] --> executing',
    '[*] --> idle',
    'complete --> [*]',
    'evaluating --> complete : FINISH [all_steps_done]',
    'evaluating --> running : CONTINUE [has_more_steps]',
    'executing --> waiting : INVOKE',
    'idle --> running : START',
    'running --> evaluating : STEP_COMPLETE',
    'waiting --> executing : RESULT',
  ]);
  const r = await startRun(t, file);
  const at = async (event: string, config: string[]): Promise<void> => {
    await r.runner.send(event);
    assert.deepEqual((await r.runner.state()).configuration, config, event);
  };
  await at('START', ['running.executing']);
  await at('INVOKE', ['running.waiting']);
  await at('RESULT', ['running.executing']);
  await at('STEP_COMPLETE', ['evaluating']);
  await at('FINISH', ['evaluating']);
  await at('CONTINUE', ['running.executing']);
});

// ---------------------------------------------------------------------------
// The run record: the seed's complete example against our published schema.

test('seeds/record/agent-state.json: Complete Example validates against schemas/agent-state-schema.json', () => {
  const record = JSON.parse(fs.readFileSync(path.join(SEEDS, 'record', 'agent-state.json'), 'utf8'));
  const ok = validateRecord(record);
  assert.equal(ok, true, JSON.stringify(validateRecord.errors?.slice(0, 3)));
});
