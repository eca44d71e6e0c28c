/**
 * The run record is the seed's record: `.stategate/agent-state.json` (and the
 * run folder's copy), written by real runs of each format that keeps a record
 * (a Statewright workflow, a stage pipeline, a statechart; flows keep their
 * own instance files and no record), in a workspace with and without git,
 * validates against schemas/agent-state-schema.json compiled here with ajv;
 * every value the seed lists as an enum is inside that enum, no `null` stands
 * where the seed has a string or an integer, `version` is "1.0", `task_doc` is
 * absolute; checkpoint.json and locks.json sit beside the record; the seed's
 * own complete example (test/fixtures/record/) validates as it is; a hook
 * call that names its session lists that session in `active_agents`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import './helpers/state-dir';
import { tempDir } from './helpers/temp-dir';
import { cli, REPO_ROOT } from './helpers/cli';
import { Runner } from '../../src/engine/runs/runner';
import { forgetWrittenRecord } from '../../src/engine/record/record-file';
import type { AgentStateRecord } from '../../src/engine/record/types';

const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'agent-state-schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true }).compile(SCHEMA);
const SEED_EXAMPLE = path.join(REPO_ROOT, 'test', 'fixtures', 'record', 'agent-state-seed-example.json');

/** The seed's enums, by where they sit in the record (`[]` walks a list). */
const SEED_ENUMS: readonly [string, readonly string[]][] = [
  ['orchestrator.status', ['planning', 'executing', 'reviewing', 'completed', 'failed']],
  ['supervisor.interventions[].check_type', ['pre_task', 'post_task', 'on_demand']],
  ['supervisor.interventions[].conflict_type', ['architecture', 'dependency', 'api', 'security', 'pattern']],
  ['supervisor.interventions[].severity', ['critical', 'high', 'low']],
  ['supervisor.interventions[].action', ['re_plan', 'auto_fix', 'pass']],
  ['active_agents[].type', ['task-executor', 'supervisor', 'outer-ralph', 'code-improvement-scanner']],
  ['active_agents[].status', ['in_progress', 'waiting', 'blocked']],
  ['learnings[].type', ['pattern', 'antipattern', 'insight']],
];

/** Where the seed allows null (its two nullable timestamps). */
const NULLABLE = new Set(['orchestrator.end_time', 'supervisor.last_check']);

function valuesAt(value: unknown, at: string): unknown[] {
  let found: unknown[] = [value];
  for (const part of at.split('.')) {
    const list = part.endsWith('[]');
    const key = list ? part.slice(0, -2) : part;
    found = found.flatMap((v) => {
      const next = (v as Record<string, unknown> | undefined)?.[key];
      return list ? (Array.isArray(next) ? next : []) : [next];
    });
  }
  return found;
}

/** Every path in the seed's sections that holds null (our own `stategate` objects are not the seed's). */
function nullsIn(value: unknown, at = ''): string[] {
  if (value === null) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => nullsIn(v, `${at}[${i}]`));
  if (typeof value === 'object') return Object.entries(value as object).flatMap(([k, v]) => (k === 'stategate' ? [] : nullsIn(v, at ? `${at}.${k}` : k)));
  return [];
}

function assertSeedShaped(rec: AgentStateRecord, what: string): void {
  assert.ok(validate(rec), `${what}: ${JSON.stringify(validate.errors, null, 1)}`);
  assert.equal(rec.version, '1.0', `${what}: version`);
  assert.ok(path.isAbsolute(rec.orchestrator.task_doc), `${what}: task_doc ${rec.orchestrator.task_doc}`);
  assert.deepEqual(nullsIn(rec).filter((p) => !NULLABLE.has(p)), [], `${what}: null where the seed has a string or an integer`);
  for (const [at, allowed] of SEED_ENUMS) for (const v of valuesAt(rec, at)) assert.ok(allowed.includes(v as string), `${what}: ${at} = ${JSON.stringify(v)}`);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd });
}

const STATEWRIGHT = {
  id: 'seed-record',
  initial: 'planning',
  states: {
    planning: { allowed_tools: ['Read'], on: { PLANNED: 'building' } },
    building: { allowed_tools: ['Read', 'Edit', 'Write'], on: { BUILT: 'done' } },
    done: { type: 'final' },
  },
};

interface Format {
  readonly name: string;
  /** Write the source into `root`, start it, drive it a few steps; the path of the file started. */
  readonly run: (runner: Runner, root: string) => Promise<string>;
  /** What this format's record must show beyond the seed's shape. */
  readonly check?: (rec: AgentStateRecord) => void;
}

const FORMATS: readonly Format[] = [
  {
    name: 'Statewright workflow',
    run: async (runner, root) => {
      const file = path.join(root, 'seed-record.workflow.json');
      fs.writeFileSync(file, JSON.stringify(STATEWRIGHT));
      await runner.start(file);
      await runner.tool({ tool: 'Read', input: { file_path: 'a.ts' } });
      await runner.tool({ tool: 'Edit', input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } }); // denied: an intervention
      await runner.send('PLANNED');
      await runner.tool({ tool: 'Write', input: { file_path: 'b.ts', content: 'b' } });
      return file;
    },
    check: (rec) => {
      assert.deepEqual(rec.supervisor.interventions.map((i) => [i.check_type, i.conflict_type, i.action, i.stategate.action]), [['on_demand', 'security', 'auto_fix', 'deny']]);
      assert.deepEqual(rec.safety_bounds.max_iterations_per_task, 30, 'no max_iterations: the seed\'s default');
      assert.deepEqual(rec.stategate.unbounded, ['max_iterations_per_task', 'max_cost', 'max_time']);
      assert.equal(rec.completed_tasks[0]!.cost, '$0.00');
    },
  },
  {
    name: 'stage pipeline',
    run: async (runner, root) => {
      const file = path.join(root, 'code-review-pipeline.workflow.json');
      fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'code-review-pipeline.workflow.json'), file);
      await runner.start(file, undefined, { task: 'rename foo' });
      assert.equal((await runner.completeStage('submit_plan', { steps: ['rename foo in a.ts'] })).accepted, true);
      return file;
    },
    check: (rec) => assert.deepEqual(rec.completed_tasks.map((c) => c.task), ['plan']),
  },
  {
    name: 'statechart',
    run: async (runner, root) => {
      const file = path.join(root, 'review.statechart.yaml');
      fs.copyFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'hooks', 'statechart', 'review.statechart.yaml'), file);
      await runner.start(file);
      return file;
    },
    // The chart hands `summary_task` to an agent (`agent:stategate`) on entry: an agent at work.
    check: (rec) => assert.deepEqual(rec.active_agents.map((a) => [a.type, a.stategate]), [['task-executor', { kind: 'invocation', invocation: 'summary_task', src: 'agent:stategate', state: 'review.notes.searching' }]]),
  },
];

for (const format of FORMATS) {
  for (const withGit of [true, false]) {
    test(`${format.name}, ${withGit ? 'in a git repository' : 'outside git'}: .stategate/agent-state.json is the seed's record, with checkpoint.json and locks.json`, async (t) => {
      const root = tempDir('sg-seed-record-', t);
      if (withGit) {
        git(root, 'init', '-q');
        git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
      }
      const storeDir = path.join(root, '.stategate');
      const runner = new Runner({ dir: storeDir, workspaceRoot: root });
      const started = await format.run(runner, root);
      const runDir = runner.runDir((await runner.requireActive()).runId);

      const rec = JSON.parse(fs.readFileSync(path.join(storeDir, 'agent-state.json'), 'utf8')) as AgentStateRecord;
      assertSeedShaped(rec, format.name);
      assert.deepEqual(rec, JSON.parse(fs.readFileSync(path.join(runDir, 'agent-state.json'), 'utf8')), 'the top copy is the run\'s record');
      assert.equal(rec.orchestrator.task_doc, started, 'no task document named: the workflow file');
      const sha = rec.checkpoints.at(-1)!.git_sha;
      if (withGit) assert.match(sha, /^[0-9a-f]{40}$/);
      else assert.equal(sha, '');
      format.check?.(rec);

      for (const dir of [storeDir, runDir]) {
        const checkpoint = JSON.parse(fs.readFileSync(path.join(dir, 'checkpoint.json'), 'utf8'));
        assert.deepEqual(checkpoint, JSON.parse(fs.readFileSync(path.join(runDir, rec.checkpoints.at(-1)!.state_snapshot), 'utf8')), 'checkpoint.json is the latest snapshot');
        assert.ok(validate(checkpoint), `checkpoint.json is a record: ${JSON.stringify(validate.errors)}`);
        const locks = JSON.parse(fs.readFileSync(path.join(dir, 'locks.json'), 'utf8'));
        assert.deepEqual(Object.keys(locks), ['version', 'run_id', 'locks']);
        assert.equal(locks.version, '1.0');
        for (const l of locks.locks) assert.deepEqual(Object.keys(l).filter((k) => k !== 'branch'), ['file', 'task', 'since']);
      }
    });
  }
}

test('the files a state wrote are its locks while it goes on; none once the run ends', async (t) => {
  const root = tempDir('sg-seed-locks-', t);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  const file = path.join(root, 'w.workflow.json');
  fs.writeFileSync(file, JSON.stringify(STATEWRIGHT));
  await runner.start(file);
  await runner.send('PLANNED');
  assert.equal((await runner.tool({ tool: 'Write', input: { file_path: path.join(root, 'b.ts'), content: 'b' } })).decision, 'allow');
  await runner.result({ tool: 'Write', input: { file_path: path.join(root, 'b.ts'), content: 'b' } }, { bytes: 1 });
  const locks = () => JSON.parse(fs.readFileSync(path.join(root, '.stategate', 'locks.json'), 'utf8')).locks as { file: string; task: string }[];
  assert.deepEqual(locks().map((l) => [l.file, l.task]), [['b.ts', 'building']]);
  await runner.send('BUILT');
  assert.deepEqual(locks(), []);
});

test('the seed\'s complete example validates against the published schema as it is', () => {
  const example = JSON.parse(fs.readFileSync(SEED_EXAMPLE, 'utf8'));
  assert.ok(validate(example), JSON.stringify(validate.errors, null, 1));
});

test('the schema refuses what the seed does not allow: values outside its enums, null for a string, a wrong version', () => {
  const example = JSON.parse(fs.readFileSync(SEED_EXAMPLE, 'utf8'));
  assert.ok(validate(example), 'the example as it is: valid (each case below changes one thing)');
  const cases: [string, (r: any) => void][] = [
    ['a check_type of ours in the seed\'s field', (r) => (r.supervisor.interventions[0].check_type = 'pre_tool')],
    ['an action of ours in the seed\'s field', (r) => (r.supervisor.interventions[0].action = 'deny')],
    ['a conflict_type of ours', (r) => (r.supervisor.interventions[0].conflict_type = 'policy')],
    ['an agent type the seed does not list', (r) => (r.active_agents[0].type = 'session')],
    ['task_doc null', (r) => (r.orchestrator.task_doc = null)],
    ['max_cost null', (r) => (r.safety_bounds.max_cost = null)],
    ['max_iterations_per_task null', (r) => (r.safety_bounds.max_iterations_per_task = null)],
    ['a completed task\'s cost null', (r) => (r.completed_tasks[0].cost = null)],
    ['a milestone\'s issue_url null', (r) => (r.milestones[0].issue_url = null)],
    ['a checkpoint\'s git_sha null', (r) => (r.checkpoints[0].git_sha = null)],
    ['outer_ralph null', (r) => (r.orchestrator.outer_ralph = null)],
    ['version 2', (r) => (r.version = '2.0')],
  ];
  for (const [what, change] of cases) {
    const r: unknown = structuredClone(example);
    change(r);
    assert.equal(validate(r), false, what);
  }
});

test('a hook call that names its session lists that session in active_agents; the run\'s end clears them', async (t) => {
  const root = tempDir('sg-seed-session-', t);
  fs.writeFileSync(path.join(root, 'w.workflow.json'), JSON.stringify(STATEWRIGHT));
  assert.equal(cli(['run', 'start', 'w.workflow.json'], { cwd: root }).code, 0);
  const hook = (session: string) =>
    cli(['hook', '--client', 'claude'], { cwd: root, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session, cwd: root, tool_name: 'Read', tool_input: { file_path: path.join(root, 'a.ts') } }) });
  assert.equal(hook('sess-one').code, 0);
  const record = () => JSON.parse(fs.readFileSync(path.join(root, '.stategate', 'agent-state.json'), 'utf8')) as AgentStateRecord;
  let rec = record();
  assertSeedShaped(rec, 'after a hook call');
  assert.deepEqual(rec.active_agents.map((a) => [a.type, a.task, a.status, a.stategate]), [['task-executor', 'planning', 'in_progress', { kind: 'session', session_id: 'sess-one', client: 'claude' }]]);
  const started = rec.active_agents[0]!.started;
  assert.equal(hook('sess-one').code, 0);
  assert.equal(hook('sess-two').code, 0);
  rec = record();
  assert.deepEqual(rec.active_agents.map((a) => a.stategate.kind === 'session' && a.stategate.session_id), ['sess-one', 'sess-two'], 'each session once');
  assert.equal(rec.active_agents[0]!.started, started, 'started: when the run first saw it');
  assert.equal(cli(['run', 'stop'], { cwd: root }).code, 0);
  assert.deepEqual(record().active_agents, [], 'a run that ended has no agent at work');
});

test('a record written before the seed\'s values (our kinds in its fields, nulls) is brought to the seed\'s shape by the next change', async (t) => {
  const root = tempDir('sg-seed-upgrade-', t);
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  const file = path.join(root, 'w.workflow.json');
  fs.writeFileSync(file, JSON.stringify(STATEWRIGHT));
  await runner.start(file);
  await runner.tool({ tool: 'Edit', input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } });
  const recordFile = path.join(runner.runDir((await runner.requireActive()).runId), 'agent-state.json');
  const now = JSON.parse(fs.readFileSync(recordFile, 'utf8'));
  // As an older stategate wrote it.
  const old = {
    ...now,
    version: undefined,
    orchestrator: { ...now.orchestrator, task_doc: null },
    supervisor: { ...now.supervisor, interventions: now.supervisor.interventions.map(({ stategate, ...iv }: any) => ({ ...iv, ...stategate })) },
    checkpoints: now.checkpoints.map((c: any) => ({ ...c, git_sha: null })),
  };
  fs.writeFileSync(recordFile, JSON.stringify(old));
  forgetWrittenRecord();
  await runner.tool({ tool: 'Read', input: { file_path: 'a.ts' } });
  const rec = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as AgentStateRecord;
  assertSeedShaped(rec, 'upgraded');
  assert.deepEqual(rec.supervisor.interventions.map((i) => [i.action, i.stategate.action]), [['auto_fix', 'deny']]);
});
