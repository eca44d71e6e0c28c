/**
 * The run record (issue 16 item 5; docs/run-record.md): `agent-state.json` in the run folder, written with every commit of
 * the run, valid against schemas/agent-state-schema.json after every operation
 * of a scripted run (transitions, denials, an interrupt, an approval, learnings,
 * reported cost, checkpoints in a temporary git repository, a bound exceeded),
 * and `.orchestrator.status` read as jq reads it at every step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './helpers/temp-dir';
import { Runner } from '../../src/engine/runs/runner';
import validateRecord from '../../src/engine/schema/agent-state-validator.generated.js';
import { RECORD_FILE, LEARNINGS_FILE, MIRROR_PATH, forgetWrittenRecord, writeMirrorSetting } from '../../src/engine/record/record-file';
import { writeFileAtomic } from '../../src/engine/util/atomic-file';
import { gitHead } from '../../src/engine/record/git-head';
import { formatElapsed, parseCost, parseDuration } from '../../src/engine/record/bounds';
import type { AgentStateRecord } from '../../src/engine/record/types';

const WORKFLOW = {
  id: 'recorded',
  initial: 'planning',
  meta: { max_cost: '$1', max_time: '2h' },
  states: {
    planning: { allowed_tools: ['Read'], max_iterations: 3, on: { PLANNED: 'executing' } },
    executing: { allowed_tools: ['Read', 'Edit', 'Write'], on: { DONE: { target: 'reviewing', requires_approval: true } } },
    secret_review: { allowed_tools: ['Read'], on: { RESUME: '$return' } },
    reviewing: { allowed_tools: ['Read'], on: { SHIP: 'done' } },
    done: { type: 'final' },
  },
  interrupts: { env_file: { trigger: { file_pattern: '**/*.env*' }, target: 'secret_review' } },
};

const HAS_JQ = spawnSync('jq', ['--version']).status === 0;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

interface Scripted {
  root: string;
  runner: Runner;
  clock: { ms: number };
  runDir(): string;
  record(): AgentStateRecord;
  /** `jq '.orchestrator.status' agent-state.json` (JSON.parse when jq is not installed). */
  jqStatus(): string;
}

function scripted(t: { after(fn: () => void): unknown }): Scripted {
  const root = tempDir('sg-record-', t);
  fs.writeFileSync(path.join(root, 'recorded.workflow.json'), JSON.stringify(WORKFLOW));
  const clock = { ms: Date.parse('2026-11-25T12:00:00.000Z') };
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, now: () => new Date(clock.ms).toISOString() });
  // The active run's id as the file store keeps it (the record is a file of this machine).
  const runDir = () => runner.runDir(fs.readFileSync(path.join(root, '.stategate', 'active'), 'utf8').trim());
  const file = () => path.join(runDir(), RECORD_FILE);
  return {
    root,
    runner,
    clock,
    runDir,
    record: () => JSON.parse(fs.readFileSync(file(), 'utf8')) as AgentStateRecord,
    jqStatus: () => (HAS_JQ ? JSON.parse(execFileSync('jq', ['.orchestrator.status', file()], { encoding: 'utf8' })) : (JSON.parse(fs.readFileSync(file(), 'utf8')) as AgentStateRecord).orchestrator.status),
  };
}

/** The record is valid against its schema, says the journal entry it reflects, and jq reads its status. */
async function checkStep(s: Scripted, step: string, status: string): Promise<AgentStateRecord> {
  const rec = s.record();
  const valid = validateRecord(rec);
  assert.ok(valid, `${step}: ${JSON.stringify(validateRecord.errors)}`);
  const journal = await s.runner.store.readJournal(rec.stategate.run_id);
  assert.equal(rec.stategate.journal_seq, journal[journal.length - 1]?.seq, `${step}: the record reflects the last journal entry`);
  assert.equal(s.jqStatus(), status, `${step}: .orchestrator.status`);
  return rec;
}

test('a scripted run keeps agent-state.json valid and in step after every operation', async (t) => {
  const s = scripted(t);
  git(s.root, 'init', '-q');
  git(s.root, 'commit', '-q', '--allow-empty', '-m', 'first');
  const firstSha = git(s.root, 'rev-parse', 'HEAD');

  await s.runner.start(path.join(s.root, 'recorded.workflow.json'), { task: 'Add a login page' });
  let rec = await checkStep(s, 'start', 'planning');
  assert.equal(rec.orchestrator.current_phase, 0);
  assert.equal(rec.orchestrator.total_phases, 5);
  assert.equal(rec.orchestrator.current_task, '1/1');
  assert.equal(rec.stategate.task, 'Add a login page');
  assert.deepEqual(rec.pending_tasks.map((p) => p.task), ['executing', 'secret_review', 'reviewing']);
  assert.equal(rec.checkpoints.length, 1);
  assert.equal(rec.checkpoints[0]!.git_sha, firstSha);
  assert.ok(fs.existsSync(path.join(s.runDir(), rec.checkpoints[0]!.state_snapshot)), 'the snapshot file is there');
  assert.ok(validateRecord(JSON.parse(fs.readFileSync(path.join(s.runDir(), rec.checkpoints[0]!.state_snapshot), 'utf8'))), 'the snapshot is a record too');
  assert.deepEqual(rec.safety_bounds, { max_iterations_per_task: 3, max_cost: '$1', max_time: '2h', cost_so_far: '$0.00', elapsed_time: '0h 0m 0s', warnings: [] });

  // Two allowed calls count; a denied one is an intervention.
  return (async () => {
    assert.equal((await s.runner.tool({ tool: 'Read', input: { file_path: 'a.ts' } })).decision, 'allow');
    assert.equal((await s.runner.tool({ tool: 'Read', input: { file_path: 'b.ts' } })).decision, 'allow');
    rec = await checkStep(s, 'two reads', 'planning');
    assert.equal(rec.orchestrator.ralph_iteration, 2);
    assert.equal(rec.supervisor.checks_performed, 2);
    assert.equal((await s.runner.tool({ tool: 'Edit', input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } })).decision, 'deny');
    rec = await checkStep(s, 'a denial', 'planning');
    assert.equal(rec.orchestrator.ralph_iteration, 2, 'a denied call does not count');
    assert.equal(rec.supervisor.interventions.length, 1);
    // The seed's kinds in its fields, ours beside them.
    assert.deepEqual(rec.supervisor.interventions[0]!.stategate, { check_type: 'pre_tool', conflict_type: 'policy', action: 'deny' });
    assert.equal(rec.supervisor.interventions[0]!.action, 'auto_fix');
    assert.equal(rec.supervisor.auto_fixes_applied, 1, 'the gate settled it by itself');
    assert.equal(rec.supervisor.interventions[0]!.task, 'planning');
    assert.equal(rec.supervisor.checks_performed, 3);

    // A learning: in the record and appended to learnings.jsonl.
    const learned = await s.runner.recordLearning({ type: 'pattern', lesson: 'The auth module already validates tokens', pattern: 'Look for an existing module first', context: 'login' });
    assert.equal(learned.recorded, true);
    rec = await checkStep(s, 'a learning', 'planning');
    assert.equal(rec.learnings.length, 1);
    assert.equal(rec.learnings[0]!.task, 'planning');
    assert.equal(rec.learnings[0]!.iteration, 2);
    const lines = fs.readFileSync(path.join(s.runDir(), LEARNINGS_FILE), 'utf8').trim().split('\n');
    assert.equal(lines.length, 1);
    assert.equal(JSON.parse(lines[0]!).lesson, 'The auth module already validates tokens');
    assert.equal((await s.runner.recordLearning({ lesson: '' })).error?.code, 'invalid_learning');

    // A transition: planning completes, a checkpoint at the new HEAD.
    fs.writeFileSync(path.join(s.root, 'plan.md'), 'plan');
    git(s.root, 'add', 'plan.md');
    git(s.root, 'commit', '-q', '-m', 'plan');
    const planSha = git(s.root, 'rev-parse', 'HEAD');
    s.clock.ms += 5 * 60_000 + 3000;
    assert.equal((await s.runner.send('PLANNED', { success_criteria_met: { plan_written: true } })).transitioned, true);
    rec = await checkStep(s, 'PLANNED', 'executing');
    assert.equal(rec.orchestrator.current_phase, 1);
    assert.equal(rec.orchestrator.ralph_iteration, 0);
    assert.deepEqual(
      rec.completed_tasks.map((c) => [c.task, c.iterations, c.time_elapsed, c.success_criteria_met]),
      [['planning', 2, '5m 3s', { plan_written: true }]],
    );
    assert.deepEqual(rec.milestones.map((m) => [m.phase, m.name]), [[0, 'planning']]);
    assert.equal(rec.checkpoints.length, 2);
    assert.equal(rec.checkpoints[1]!.git_sha, planSha);
    assert.equal(rec.checkpoints[1]!.task, 'executing');
    assert.equal(rec.safety_bounds.elapsed_time, '0h 5m 3s');

    // A refused transition is an intervention too.
    assert.ok((await s.runner.send('NOPE')).error);
    rec = await checkStep(s, 'refused', 'executing');
    assert.equal(rec.supervisor.interventions.at(-1)!.stategate.action, 'refuse');

    // An edit of an .env file fires the interrupt; $return goes back.
    assert.equal((await s.runner.tool({ tool: 'Write', input: { file_path: path.join(s.root, 'src/app.ts'), content: 'x' } })).decision, 'allow');
    await s.runner.result({ tool: 'Write', input: { file_path: path.join(s.root, 'src/app.ts'), content: 'x' } }, {});
    rec = await checkStep(s, 'a write', 'executing');
    assert.deepEqual(rec.stategate.files_edited, ['src/app.ts']);
    const out = await s.runner.result({ tool: 'Write', input: { file_path: path.join(s.root, '.env'), content: 'K=1' } }, {});
    assert.equal(out.interrupted, true);
    rec = await checkStep(s, 'interrupt', 'reviewing');
    assert.equal(rec.supervisor.interventions.at(-1)!.stategate.action, 'interrupt');
    assert.equal(rec.supervisor.interventions.at(-1)!.action, 're_plan');
    assert.equal(rec.supervisor.re_plans_triggered, 1);
    assert.equal(rec.completed_tasks.at(-1)!.task, 'executing');
    assert.equal((await s.runner.send('RESUME')).transitioned, true);
    rec = await checkStep(s, 'RESUME', 'executing');

    // An approval: asked, then granted by a person.
    const asked = await s.runner.send('DONE');
    assert.ok(asked.pending_approval);
    rec = await checkStep(s, 'approval asked', 'executing');
    assert.equal(rec.supervisor.interventions.at(-1)!.stategate.action, 'approval_requested');
    assert.equal((await s.runner.approve()).transitioned, true);
    rec = await checkStep(s, 'approved', 'reviewing');
    assert.equal(rec.supervisor.interventions.at(-1)!.stategate.action, 'approved');

    // Cost reported by the participant: 75% and 90% warnings, then the bound.
    let usage = await s.runner.reportUsage({ cost: 0.8, model: 'scripted' });
    assert.deepEqual(usage.notices, ['Cost at 75% of limit ($0.80 of $1)']);
    rec = await checkStep(s, 'cost 75%', 'reviewing');
    assert.equal(rec.safety_bounds.cost_so_far, '$0.80');
    assert.deepEqual(rec.safety_bounds.warnings, ['Cost at 75% of limit ($0.80 of $1)']);
    const read = await s.runner.tool({ tool: 'Read', input: { file_path: 'a.ts' } });
    assert.equal(read.decision, 'allow');
    usage = await s.runner.reportUsage({ cost: 0.15 });
    assert.deepEqual(usage.notices, ['Cost at 90% of limit ($0.95 of $1)']);
    usage = await s.runner.reportUsage({ cost: 0.05 });
    assert.ok(usage.exceeded);
    const denied = await s.runner.tool({ tool: 'Read', input: { file_path: 'a.ts' } });
    assert.equal(denied.decision, 'deny');
    assert.match(denied.reason ?? '', /cost bound: \$1\.00 of \$1 \(meta\.max_cost\)/);
    const own = await s.runner.tool({ tool: 'statewright_get_state', input: {} });
    assert.equal(own.decision, 'allow', 'stategate\'s own tools pass past a bound');
    rec = await checkStep(s, 'bound exceeded', 'reviewing');
    assert.equal(rec.supervisor.interventions.at(-1)!.stategate.conflict_type, 'bound');
    assert.equal(rec.safety_bounds.warnings.length, 2);

    // The end: completed, with an end time; the last checkpoint at the final state.
    s.clock.ms += 60_000;
    assert.equal((await s.runner.send('SHIP')).transitioned, true);
    const runId = rec.stategate.run_id;
    const final = JSON.parse(fs.readFileSync(path.join(s.runner.runDir(runId), RECORD_FILE), 'utf8')) as AgentStateRecord;
    assert.ok(validateRecord(final), JSON.stringify(validateRecord.errors));
    assert.equal(final.orchestrator.status, 'completed');
    assert.equal(final.orchestrator.end_time, new Date(s.clock.ms).toISOString());
    assert.equal(final.checkpoints.at(-1)!.task, 'done');
    assert.deepEqual(final.pending_tasks, []);
    assert.deepEqual(final.completed_tasks.map((c) => c.task), ['planning', 'executing', 'secret_review', 'executing', 'reviewing']);
  })();
});

test('time counts on the run\'s clock: warnings at 75% and 90%, every tool but stategate\'s own denied past max_time', async (t) => {
  const s = scripted(t);
  await s.runner.start(path.join(s.root, 'recorded.workflow.json'));
  s.clock.ms += 91 * 60_000; // 1h 31m of 2h: past 75%
  const first = await s.runner.tool({ tool: 'Read', input: { file_path: 'a' } });
  assert.equal(first.decision, 'allow');
  assert.equal(first.notices.length, 1);
  assert.match(first.notices[0]!, /^Time at 75% of limit \(1h 31m 0s of 2h\)/);
  assert.deepEqual((await s.runner.tool({ tool: 'Read', input: { file_path: 'a' } })).notices, [], 'each warning is given once');
  s.clock.ms += 29 * 60_000; // 2h: the bound
  const past = await s.runner.tool({ tool: 'Read', input: { file_path: 'a' } });
  assert.equal(past.decision, 'deny');
  assert.match(past.reason ?? '', /time bound: 2h 0m 0s of 2h/);
  assert.equal(past.notices.length, 1, 'the 90% warning comes with it');
  const rec = await checkStep(s, 'time bound', 'planning');
  assert.equal(rec.safety_bounds.elapsed_time, '2h 0m 0s');
  assert.equal(rec.safety_bounds.warnings.length, 2);
});

test('outside a git repository a checkpoint has git_sha ""; the mirror setting copies the record to .claude/', async (t) => {
  const s = scripted(t);
  writeMirrorSetting(path.join(s.root, '.stategate'), true);
  await s.runner.start(path.join(s.root, 'recorded.workflow.json'));
  const rec = await checkStep(s, 'start', 'planning');
  assert.equal(rec.checkpoints[0]!.git_sha, '', 'the seed\'s git_sha is a string: empty, never null');
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(s.root, MIRROR_PATH), 'utf8')), rec);
  writeMirrorSetting(path.join(s.root, '.stategate'), false);
  await s.runner.send('PLANNED');
  assert.equal(JSON.parse(fs.readFileSync(path.join(s.root, MIRROR_PATH), 'utf8')).stategate.state, 'planning', 'no longer mirrored');
});

test('gitHead reads HEAD as git rev-parse does: branch, detached, packed refs, a worktree, no commit yet', (t) => {
  const root = tempDir('sg-git-', t);
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q');
  assert.equal(gitHead(repo), null, 'an unborn branch has no sha');
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'a');
  fs.mkdirSync(path.join(repo, 'sub'));
  assert.equal(gitHead(path.join(repo, 'sub')), git(repo, 'rev-parse', 'HEAD'), 'from a folder inside');
  git(repo, 'pack-refs', '--all');
  assert.equal(gitHead(repo), git(repo, 'rev-parse', 'HEAD'), 'packed refs');
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'b');
  git(repo, 'worktree', 'add', '-q', path.join(root, 'wt'), '-b', 'side');
  git(path.join(root, 'wt'), 'commit', '-q', '--allow-empty', '-m', 'c');
  assert.equal(gitHead(path.join(root, 'wt')), git(path.join(root, 'wt'), 'rev-parse', 'HEAD'), 'a worktree');
  git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
  assert.equal(gitHead(repo), git(repo, 'rev-parse', 'HEAD'), 'detached');
  assert.equal(gitHead(path.join(root)), null, 'no repository');
});

test('bounds are read as the seed spells them', () => {
  assert.equal(parseCost('$5'), 5);
  assert.equal(parseCost('$0.50'), 0.5);
  assert.equal(parseCost('five'), undefined);
  assert.equal(parseDuration('2h'), 7_200_000);
  assert.equal(parseDuration('90m'), 5_400_000);
  assert.equal(parseDuration('1h 30m'), 5_400_000);
  assert.equal(parseDuration('45s'), 45_000);
  assert.equal(parseDuration('soon'), undefined);
  assert.equal(formatElapsed(2_048_000), '0h 34m 8s');
});

test('a bound the run could not read is a validation error, not a bound silently ignored', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { checkWorkflowFile } = require('../../src/engine/check/check-file') as typeof import('../../src/engine/check/check-file');
  const check = (meta: object) => checkWorkflowFile(JSON.stringify({ ...WORKFLOW, meta }), 'x.workflow.json').diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(check({ max_cost: '$5', max_time: '1h 30m' }), []);
  assert.deepEqual(check({ max_cost: 5, max_time: 5400 }), []);
  assert.equal(check({ max_time: '2 hours' }).length, 1);
  assert.equal(check({ max_cost: 'five dollars' }).length, 1);
});

/** Every file of the run's record (the record, its checkpoints, learnings) by name, with the run id made neutral. */
function recordFiles(runDir: string, runId: string, root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of [RECORD_FILE, LEARNINGS_FILE, 'checkpoint.json', 'locks.json', ...fs.readdirSync(path.join(runDir, 'checkpoints')).map((c) => `checkpoints/${c}`)]) {
    // task_doc names the workflow file in each run's own temp folder.
    if (fs.existsSync(path.join(runDir, f))) out[f] = fs.readFileSync(path.join(runDir, f), 'utf8').split(runId).join('RUN').split(root).join('ROOT');
  }
  return out;
}

test('a writer that keeps the record it wrote writes the same files as one that reads agent-state.json before every commit', async (t) => {
  const script = async (s: Scripted, before: () => void): Promise<Record<string, string>> => {
    before();
    await s.runner.start(path.join(s.root, 'recorded.workflow.json'), { task: 'same' });
    const steps: Array<() => unknown> = [
      () => s.runner.tool({ tool: 'Read', input: { file_path: 'a.ts' } }),
      () => s.runner.tool({ tool: 'Edit', input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } }),
      () => s.runner.recordLearning({ type: 'pattern', lesson: 'one', pattern: 'two', context: 'three' }),
      () => s.runner.send('PLANNED'),
      () => s.runner.fileChanged(path.join(s.root, 'x.env')),
      () => s.runner.send('RESUME'),
      () => s.runner.tool({ tool: 'Write', input: { file_path: 'b.ts', content: 'x' } }),
    ];
    for (const step of steps) {
      s.clock.ms += 61_000;
      before();
      await step();
    }
    return recordFiles(s.runDir(), (await s.runner.requireActive()).runId, s.root);
  };
  const kept = await script(scripted(t), () => {});
  const read = await script(scripted(t), forgetWrittenRecord);
  assert.ok(Object.keys(kept).length >= 5, `the record, learnings and checkpoints: ${Object.keys(kept).join(', ')}`);
  assert.deepEqual(kept, read);
});

test('a record replaced by another writer is read again, not taken from the copy this process kept', async (t) => {
  const s = scripted(t);
  await s.runner.start(path.join(s.root, 'recorded.workflow.json'));
  assert.equal((await s.runner.tool({ tool: 'Read', input: { file_path: 'a.ts' } })).decision, 'allow');
  const file = path.join(s.runDir(), RECORD_FILE);
  const rec = s.record();
  assert.equal(rec.supervisor.checks_performed, 1);
  // Another process's commit: the same journal seq, a different count (as if it had derived more), by a rename as writers do.
  writeFileAtomic(file, `${JSON.stringify({ ...rec, supervisor: { ...rec.supervisor, checks_performed: 40 } }, null, 2)}\n`, { durable: false });
  assert.equal((await s.runner.tool({ tool: 'Read', input: { file_path: 'b.ts' } })).decision, 'allow');
  assert.equal(s.record().supervisor.checks_performed, 41, 'the next commit started from the file on disk');
  // And the same when the other writer's file has the very same size.
  const now = s.record();
  writeFileAtomic(file, `${JSON.stringify({ ...now, supervisor: { ...now.supervisor, checks_performed: 50 } }, null, 2)}\n`, { durable: false });
  assert.equal((await s.runner.tool({ tool: 'Read', input: { file_path: 'c.ts' } })).decision, 'allow');
  assert.equal(s.record().supervisor.checks_performed, 51);
});
