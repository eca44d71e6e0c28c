// Every AGENT-33 seed example (test/fixtures/statecharts/spec/) loaded with
// the real loader, validated clean (no errors, no warnings), and driven
// through the interpreter by a scripted sequence; the configuration (and the
// context the step touches, and what its actions emit, send, raise, log or
// call where the example has such actions) is asserted after every step.
// One row per scenario; a fixture with several paths (the three guarded
// SUBMIT candidates) has one row per path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import type { JsonObject, JsonValue, Workflow } from '../../src/engine/model/index.js';
import {
  completeInvocation,
  configurationPaths,
  fireDueTimers,
  sendEvent,
  startChart,
  type ChartEffect,
  type ChartResult,
  type ChartSnapshot,
  type StepOptions,
} from '../../src/engine/statechart/index.js';

const SPEC = path.resolve(__dirname, '..', 'fixtures', 'statecharts', 'spec');
const T0 = 1_700_000_000_000;
const DAY = 86_400_000;
/** What now() returns at T0. */
const T0_ISO = new Date(T0).toISOString();

interface Expect {
  readonly config: readonly string[];
  /** Top-level context keys and the values they must hold. */
  readonly context?: JsonObject;
  /** 'running' unless said. */
  readonly status?: 'running' | 'done' | 'failed';
  /** Ids of the invocations running after the step. */
  readonly invocations?: readonly string[];
  /** What the step's actions did outward (emit, send, raise, log, handler calls), in order; asserted when given. */
  readonly actions?: readonly ChartEffect[];
}

/** The effects an action has outside the configuration and the context: what the seed's actions are for. */
const OUTWARD = new Set(['emit', 'send', 'raise', 'log', 'call']);

type Step = Expect &
  (
    | { readonly send: string; readonly data?: JsonValue }
    /** Moves the clock forward by this many ms and fires the timers due. */
    | { readonly advance: number }
    | { readonly complete: string; readonly ok: boolean; readonly data?: JsonValue }
  );

interface Row {
  readonly file: string;
  readonly context?: JsonObject;
  readonly start: Expect;
  readonly steps: readonly Step[];
}

/** agents.select(role, hint) answers `<role>-1`, so an assign through it is visible. */
const agents = (role: string): string => `${role}-1`;

const rows: Record<string, Row> = {
  'canonical (JSON): idle, running, complete': {
    file: 'canonical.statechart.json',
    start: { config: ['idle'] },
    steps: [
      { send: 'START', config: ['running'] },
      { send: 'NOPE', config: ['running'] },
      { send: 'DONE', config: ['complete'], status: 'done' },
    ],
  },
  'atomic: reviewing, then rejected': {
    file: 'atomic.statechart.yaml',
    start: { config: ['reviewing'] },
    steps: [
      { send: 'APPROVED', config: ['reviewing'] },
      { send: 'REJECT', config: ['rejected'], status: 'done' },
    ],
  },
  'compound: validating, executing, done': {
    file: 'compound.statechart.yaml',
    start: { config: ['processing.validating'] },
    steps: [
      { send: 'COMPLETE', config: ['processing.validating'] },
      { send: 'VALID', config: ['processing.executing'] },
      { send: 'COMPLETE', config: ['processing.done'] },
    ],
  },
  'compound: an invalid input ends in failed': {
    file: 'compound.statechart.yaml',
    start: { config: ['processing.validating'] },
    steps: [{ send: 'INVALID', config: ['processing.failed'] }],
  },
  'parallel: both regions progress independently, onAllDone leads to merged': {
    file: 'parallel.statechart.yaml',
    start: { config: ['analysis.code_review.pending', 'analysis.security_scan.pending'] },
    steps: [
      { send: 'START_SCAN', config: ['analysis.code_review.pending', 'analysis.security_scan.scanning'] },
      { send: 'START_REVIEW', config: ['analysis.code_review.in_progress', 'analysis.security_scan.scanning'] },
      { send: 'REVIEW_DONE', config: ['analysis.code_review.complete', 'analysis.security_scan.scanning'] },
      { send: 'SCAN_DONE', config: ['merged'], status: 'done' },
    ],
  },
  'final: reaching completed ends the run with the context as output': {
    file: 'final.statechart.yaml',
    start: { config: ['working'] },
    steps: [{ send: 'DONE', config: ['completed'], status: 'done', actions: [{ type: 'log', message: 'the workflow completed' }] }],
  },
  'meta: meta changes nothing at run time': {
    file: 'meta.statechart.yaml',
    start: { config: ['review'] },
    steps: [{ send: 'DONE', config: ['done'], status: 'done' }],
  },
  'context: RETRY under max_retries re-enters working and counts; at the limit it gives up': {
    file: 'context.statechart.yaml',
    context: { max_retries: 2 },
    start: { config: ['working'], context: { retry_count: 0 } },
    steps: [
      { send: 'RETRY', config: ['working'], context: { retry_count: 1 } },
      { send: 'RETRY', config: ['working'], context: { retry_count: 2 } },
      { send: 'RETRY', config: ['given_up'], context: { retry_count: 2 }, status: 'done' },
    ],
  },
  'actions: ASSIGN runs assign_reviewer (agents.select, now())': {
    file: 'actions.statechart.yaml',
    context: { task_type: 'backend' },
    start: { config: ['reviewing'], context: { reviewer: null }, actions: [{ type: 'call', handler: 'timers.start', params: { name: 'review_deadline', duration: '24h' } }] },
    steps: [
      { send: 'ASSIGN', config: ['assigned'], context: { reviewer: 'reviewer-1', assigned_at: T0_ISO } },
      { send: 'APPROVE', config: ['approved'], status: 'done', actions: [{ type: 'emit', event: 'AUDIT_LOG', data: { action: 'auto_approve', reason: 'Low risk, high score' } }] },
    ],
  },
  'actions: ESCALATE notifies and ends in escalated': {
    file: 'actions.statechart.yaml',
    start: { config: ['reviewing'] },
    steps: [
      {
        send: 'ESCALATE',
        config: ['escalated'],
        context: { reviewer: null },
        status: 'done',
        actions: [{ type: 'send', to: 'admin_channel', event: 'ESCALATION_REQUIRED', data: { workflow_id: null, risk_level: 'low' } }],
      },
    ],
  },
  'guarded SUBMIT, candidate 1: low risk and a high score is auto-approved': {
    file: 'guarded-submit.statechart.yaml',
    context: { risk_level: 'low', score: 95 },
    start: { config: ['drafting'] },
    steps: [
      {
        send: 'SUBMIT',
        config: ['auto_approved'],
        context: { reviewer: null },
        status: 'done',
        actions: [{ type: 'emit', event: 'AUDIT_LOG', data: { action: 'auto_approve', reason: 'Low risk, high score' } }],
      },
    ],
  },
  'guarded SUBMIT: low risk with a low score matches no candidate and stays': {
    file: 'guarded-submit.statechart.yaml',
    context: { risk_level: 'low', score: 89 },
    start: { config: ['drafting'] },
    steps: [{ send: 'SUBMIT', config: ['drafting'], context: { reviewer: null } }],
  },
  'guarded SUBMIT, candidate 2: medium risk goes to manual review with a reviewer': {
    file: 'guarded-submit.statechart.yaml',
    context: { risk_level: 'medium', score: 95, task_type: 'frontend' },
    start: { config: ['drafting'] },
    steps: [
      { send: 'SUBMIT', config: ['manual_review'], context: { reviewer: 'reviewer-1', assigned_at: T0_ISO } },
      { send: 'REJECT', config: ['drafting'] },
      { send: 'SUBMIT', config: ['manual_review'] },
      { send: 'APPROVE', config: ['auto_approved'], status: 'done' },
    ],
  },
  'guarded SUBMIT, candidate 3: high risk escalates to a senior reviewer': {
    file: 'guarded-submit.statechart.yaml',
    context: { risk_level: 'high', score: 100 },
    start: { config: ['drafting'] },
    steps: [
      {
        send: 'SUBMIT',
        config: ['escalation'],
        context: { reviewer: 'senior_reviewer-1', assigned_at: T0_ISO },
        actions: [{ type: 'send', to: 'admin_channel', event: 'ESCALATION_REQUIRED', data: { workflow_id: null, risk_level: 'high' } }],
      },
      { send: 'APPROVE', config: ['auto_approved'], status: 'done' },
    ],
  },
  'always: passed checks approve at once': {
    file: 'always.statechart.yaml',
    start: { config: ['collecting'] },
    steps: [{ send: 'CHECKS_DONE', data: { passed: true, critical: false }, config: ['approved'], context: { all_checks_passed: true }, status: 'done' }],
  },
  'always: neither guard holds, so checking waits; a critical failure rejects': {
    file: 'always.statechart.yaml',
    start: { config: ['collecting'] },
    steps: [
      { send: 'CHECKS_DONE', data: { passed: false, critical: false }, config: ['checking'], context: { all_checks_passed: false, has_critical_failure: false } },
      { send: 'RECHECK', config: ['collecting'] },
      { send: 'CHECKS_DONE', data: { passed: false, critical: true }, config: ['rejected'], context: { has_critical_failure: true }, status: 'done' },
    ],
  },
  'wildcard: any other event is logged and changes nothing; STOP stops': {
    file: 'wildcard.statechart.yaml',
    start: { config: ['listening'] },
    steps: [
      { send: 'HELLO', config: ['listening'], actions: [{ type: 'log', message: 'an event this state does not handle', data: { event: 'HELLO' } }] },
      { send: 'STOP', config: ['stopped'], status: 'done' },
    ],
  },
  'after: the 24-hour timer does not fire 1 ms early, and fires at 24 hours': {
    file: 'after.statechart.yaml',
    // The SLA delay is set past 24 hours so the 24-hour timer is the first due.
    context: { sla_deadline_ms: 2 * DAY },
    start: { config: ['waiting_for_approval'] },
    steps: [
      { advance: DAY - 1, config: ['waiting_for_approval'] },
      { advance: 1, config: ['auto_rejected'], status: 'done', actions: [{ type: 'emit', event: 'APPROVAL_TIMED_OUT' }] },
    ],
  },
  'after: the SLA delay read from the context fires first and leads to sla_breach': {
    file: 'after.statechart.yaml',
    start: { config: ['waiting_for_approval'] },
    steps: [
      { advance: 3_599_999, config: ['waiting_for_approval'] },
      { advance: 1, config: ['sla_breach'], actions: [{ type: 'send', to: 'admin_channel', event: 'SLA_BREACHED' }] },
      // Leaving waiting_for_approval cancelled its 24-hour timer.
      { advance: DAY, config: ['sla_breach'] },
      { send: 'APPROVED', config: ['approved'], status: 'done' },
    ],
  },
  'after: an event before the deadline cancels both timers': {
    file: 'after.statechart.yaml',
    start: { config: ['waiting_for_approval'] },
    steps: [{ send: 'REJECTED', config: ['rejected'], status: 'done' }],
  },
  'history (seed example): interrupted is inside workflow, which is never exited, so RESUME enters the initial state': {
    file: 'history.statechart.yaml',
    start: { config: ['workflow.drafting'] },
    steps: [
      { send: 'SUBMIT', config: ['workflow.review'] },
      { send: 'INTERRUPT', config: ['workflow.interrupted'] },
      { send: 'RESUME', config: ['workflow.drafting'] },
      { send: 'PUBLISH', config: ['published'], status: 'done' },
    ],
  },
  'history resume (deep): the nested state inside review comes back': {
    file: 'history-resume.statechart.yaml',
    start: { config: ['workflow.drafting'] },
    steps: [
      { send: 'SUBMIT', config: ['workflow.review.reading'] },
      { send: 'COMMENT', config: ['workflow.review.commenting'] },
      { send: 'INTERRUPT', config: ['interrupted'] },
      { send: 'RESUME', config: ['workflow.review.commenting'] },
      { send: 'PUBLISH', config: ['published'], status: 'done' },
    ],
  },
  'history resume (shallow): review comes back, at its initial child': {
    file: 'history-resume.statechart.yaml',
    start: { config: ['workflow.drafting'] },
    steps: [
      { send: 'RESUME_SHALLOW', config: ['workflow.drafting'] },
      { send: 'INTERRUPT', config: ['interrupted'] },
      // Nothing recorded yet beyond drafting: the shallow history resumes drafting.
      { send: 'RESUME_SHALLOW', config: ['workflow.drafting'] },
      { send: 'SUBMIT', config: ['workflow.review.reading'] },
      { send: 'COMMENT', config: ['workflow.review.commenting'] },
      { send: 'INTERRUPT', config: ['interrupted'] },
      { send: 'RESUME_SHALLOW', config: ['workflow.review.reading'] },
    ],
  },
  'pipeline: both regions finish, the artifact is kept, onAllDone deploys': {
    file: 'pipeline.statechart.yaml',
    start: {
      config: ['pipeline.build.compiling', 'pipeline.lint.linting'],
      invocations: ['pipeline.build.compiling:invoke:0', 'pipeline.lint.linting:invoke:0'],
    },
    steps: [
      {
        complete: 'pipeline.build.compiling:invoke:0',
        ok: true,
        data: { artifact: 'app.tgz' },
        config: ['pipeline.build.built', 'pipeline.lint.linting'],
        context: { build_artifact: 'app.tgz' },
        invocations: ['pipeline.lint.linting:invoke:0'],
      },
      { complete: 'pipeline.lint.linting:invoke:0', ok: true, config: ['deploy'], context: { build_artifact: 'app.tgz' }, status: 'done', invocations: [] },
    ],
  },
  'pipeline: BUILD_FAILED raises REGION_FAILED, which leaves the pipeline and cancels the linter': {
    file: 'pipeline.statechart.yaml',
    start: { config: ['pipeline.build.compiling', 'pipeline.lint.linting'] },
    steps: [
      {
        send: 'BUILD_FAILED',
        config: ['pipeline_failed'],
        context: { build_artifact: null },
        status: 'done',
        invocations: [],
        actions: [{ type: 'raise', event: 'REGION_FAILED', data: { region: 'build' } }],
      },
    ],
  },
  'invoke agent: the implementer finishes, review asks for a revision, then a failure escalates': {
    file: 'invoke-agent.statechart.yaml',
    start: { config: ['code_generation'], invocations: ['implementer_task'] },
    steps: [
      { complete: 'implementer_task', ok: true, config: ['code_review'], invocations: [] },
      { send: 'REVISE', config: ['code_generation'], invocations: ['implementer_task'] },
      { complete: 'implementer_task', ok: false, data: { message: 'no' }, config: ['escalation'], status: 'done', invocations: [] },
    ],
  },
  'invoke service: a failure is counted, a retry succeeds and its output is kept': {
    file: 'invoke-service.statechart.yaml',
    start: { config: ['running_agent'], invocations: ['agent_task'] },
    steps: [
      { complete: 'agent_task', ok: false, data: { message: 'timeout' }, config: ['handling_failure'], context: { error: 'timeout', retry_count: 1 } },
      { send: 'RETRY', config: ['running_agent'], invocations: ['agent_task'] },
      { complete: 'agent_task', ok: true, data: { output: 'patch' }, config: ['evaluating_result'], context: { result: 'patch', retry_count: 1 } },
      { send: 'ACCEPT', config: ['done'], status: 'done' },
    ],
  },
  'invoke child statechart: the child finishing leads to next_step': {
    file: 'invoke-child.statechart.yaml',
    context: { artifact: 'a.md' },
    start: { config: ['sub_workflow'], invocations: ['review_sub'] },
    steps: [{ complete: 'review_sub', ok: true, config: ['next_step'], status: 'done', invocations: [] }],
  },
  'child machine review-workflow: APPROVE assigns approved': {
    file: 'review-workflow.statechart.yaml',
    start: { config: ['reviewing'], context: { approved: false } },
    steps: [{ send: 'APPROVE', config: ['approved'], context: { approved: true }, status: 'done' }],
  },
  'machine registry: review then deploy, each through its registered child': {
    file: 'machine-registry.statechart.yaml',
    start: { config: ['reviewing'], invocations: ['reviewing:invoke:0'] },
    steps: [
      { complete: 'reviewing:invoke:0', ok: true, config: ['deploying'], invocations: ['deploying:invoke:0'] },
      { complete: 'deploying:invoke:0', ok: false, config: ['failed'], status: 'done', invocations: [] },
    ],
  },
};

function load(file: string): Workflow {
  const full = path.join(SPEC, file);
  // Child sources are not read here: the test completes invocations itself.
  const checked = checkWorkflowFile(readFileSync(full, 'utf8'), full, { resolveSrc: false });
  // Clean: no errors and no warnings (a warning on a seed's own example is a false one).
  assert.deepEqual(checked.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`), [], `${file} validates clean`);
  assert.ok(checked.workflow, `${file} loads`);
  return checked.workflow;
}

function check(wf: Workflow, result: ChartResult, want: Expect, where: string): ChartSnapshot {
  const { snapshot } = result;
  assert.deepEqual(configurationPaths(wf, snapshot), want.config, `${where}: configuration`);
  assert.equal(snapshot.status, want.status ?? 'running', `${where}: status (${snapshot.error ?? 'no error'})`);
  for (const [key, value] of Object.entries(want.context ?? {})) assert.deepEqual(snapshot.context[key], value, `${where}: context.${key}`);
  if (want.invocations) {
    const running = snapshot.invocations.filter((i) => i.status === 'running').map((i) => i.id);
    assert.deepEqual(running, want.invocations, `${where}: running invocations`);
  }
  if (want.actions) assert.deepEqual(result.effects.filter((e) => OUTWARD.has(e.type)), want.actions, `${where}: what the actions did`);
  if (snapshot.status === 'done') assert.deepEqual(snapshot.output, snapshot.context, `${where}: a root final state outputs the context`);
  return snapshot;
}

function runRow(row: Row): void {
  const wf = load(row.file);
  let now = T0;
  const options = (): StepOptions => ({ now, agents });
  let snapshot = check(wf, startChart(wf, { ...options(), ...(row.context ? { context: row.context } : {}) }), row.start, 'start');
  row.steps.forEach((step, i) => {
    const where = `step ${i + 1}`;
    let result: ChartResult;
    if ('send' in step) result = sendEvent(wf, snapshot, step.data === undefined ? { type: step.send } : { type: step.send, data: step.data }, options());
    else if ('advance' in step) {
      now += step.advance;
      result = fireDueTimers(wf, snapshot, now, { agents });
    } else result = completeInvocation(wf, snapshot, { id: step.complete, ok: step.ok, ...(step.data === undefined ? {} : { data: step.data }) }, options());
    assert.equal(result.error, undefined, `${where}: no error`);
    snapshot = check(wf, result, step, where);
  });
}

for (const [name, row] of Object.entries(rows)) test(`${row.file}: ${name}`, () => runRow(row));

test('every spec fixture has at least one scenario', async () => {
  const { readdirSync } = await import('node:fs');
  const covered = new Set(Object.values(rows).map((r) => r.file));
  assert.deepEqual(readdirSync(SPEC).filter((f) => !covered.has(f)), []);
});

test('a wrong expectation fails the row (each row can fail)', () => {
  for (const [name, row] of Object.entries(rows)) {
    const last = row.steps.length - 1;
    const steps = row.steps.map((s, i) => (i === last ? { ...s, config: [...s.config, 'no.such.state'] } : s));
    assert.throws(() => runRow({ ...row, steps }), /configuration/, name);
  }
});
