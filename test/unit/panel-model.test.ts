/** The state panel's pure parts: the diagram model, the render model and history points (time travel). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runner } from '../../src/engine/runs/runner';
import './helpers/state-dir';
import { diagramModel, labelWidth, nodeWidth } from '../../src/vscode/panel/diagram-model';
import { historyOf, renderModel } from '../../src/vscode/panel/render-model';
import { readRecord } from '../../src/engine/record/record-file';
import { historyPoint } from '../../src/vscode/panel/history-point';
import type { RunSituation } from '../../src/vscode/runtime/run-service';
import { tempDir } from './helpers/temp-dir';

const REPO = path.resolve(__dirname, '..', '..');
const FEATURE = path.join(REPO, 'test', 'e2e', 'fixtures', 'panel', 'feature.workflow.json');
const CHECKS = path.join(REPO, 'examples', 'checks.workflow.json');

/** A workspace with the panel's fixture workflow and a runner on it. */
function workspace(file = FEATURE): { runner: Runner; file: string } {
  const root = tempDir('sg-panel-');
  const copy = path.join(root, path.basename(file));
  fs.copyFileSync(file, copy);
  return { runner: new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root }), file: copy };
}

/** What RunService.read() builds, without VS Code. */
async function situation(runner: Runner): Promise<RunSituation> {
  const active = await runner.active();
  if (active.kind !== 'ok') return active.kind === 'none' ? { kind: 'none' } : { kind: 'unreadable', reason: active.reason };
  const view = await runner.state();
  return { kind: 'active', run: active.run, view, workflow: runner.env.load(active.run.workflow.definitionText), definitionChanged: view.definition_changed };
}

function load(file: string) {
  const { runner } = workspace(file);
  const wf = runner.env.load(fs.readFileSync(file, 'utf8'));
  assert.ok(wf);
  return wf;
}

test('diagram: every state a node sized for its name, every edge with its event, approval and guard marks', () => {
  const d = diagramModel(load(FEATURE));
  assert.deepEqual(d.nodes.map((n) => n.id).sort(), ['implement', 'leaked', 'plan', 'review', 'secret_review', 'shipped']);
  const review = d.nodes.find((n) => n.id === 'secret_review')!;
  assert.equal(review.width, nodeWidth('secret_review'));
  assert.ok(nodeWidth('a') >= 80 && nodeWidth('a'.repeat(40)) > nodeWidth('a'.repeat(10)));
  assert.equal(d.nodes.find((n) => n.id === 'shipped')!.final, true);
  assert.equal(d.nodes.find((n) => n.id === 'plan')!.initial, true);
  const ship = d.edges.find((e) => e.from === 'review' && e.to === 'shipped')!;
  assert.equal(ship.event, 'SHIP');
  assert.equal(ship.approval, true);
  assert.match(ship.label, /approval/);
  assert.equal(ship.labelWidth, labelWidth(ship.label));
  const tested = d.edges.find((e) => e.event === 'TESTED')!;
  assert.equal(tested.guarded, true);
  assert.equal(tested.label, 'TESTED [tests_green]');
  assert.equal(new Set(d.edges.map((e) => e.id)).size, d.edges.length, 'edge ids are unique');
  // `$return` has no fixed target: no edge is drawn for RESUME.
  assert.equal(d.edges.some((e) => e.event === 'RESUME'), false);
});

test('diagram: interrupt handlers form one group naming the triggers', () => {
  const d = diagramModel(load(FEATURE));
  assert.equal(d.groups.length, 1);
  assert.equal(d.groups[0]!.kind, 'interrupts');
  assert.deepEqual(d.groups[0]!.members, ['secret_review']);
  assert.match(d.groups[0]!.label, /env_file \(\*\*\/\*\.env\*\)/);
});

test('diagram: each fork branch groups the states between its initial and terminal state', () => {
  const d = diagramModel(load(CHECKS));
  const groups = new Map(d.groups.map((g) => [g.label, g]));
  assert.deepEqual([...groups.keys()].sort(), ['CHECK ⑂ lint', 'CHECK ⑂ test']);
  assert.deepEqual([...groups.get('CHECK ⑂ lint')!.members].sort(), ['lint_done', 'lint_running']);
  assert.deepEqual([...groups.get('CHECK ⑂ test')!.members].sort(), ['test_done', 'test_running']);
  // A state outside the branch's paths (the shared `failed`) is not pulled in.
  assert.ok(d.groups.every((g) => !g.members.includes('failed')));
  const members = d.groups.flatMap((g) => g.members);
  assert.equal(new Set(members).size, members.length, 'a state sits in one group at most');
});

test('render model: none, unreadable, and an active run with view, meta, path and history', async () => {
  const { runner, file } = workspace();
  assert.deepEqual(renderModel({ kind: 'none' }, []), { kind: 'none' });
  assert.deepEqual(renderModel({ kind: 'unreadable', reason: 'corrupt' }, []), { kind: 'unreadable', reason: 'corrupt' });
  await runner.start(file);
  await runner.send('READY');
  const s = await situation(runner);
  assert.equal(s.kind, 'active');
  const m = renderModel(s, s.kind === 'active' ? await runner.store.readJournal(s.run.runId) : []);
  assert.equal(m.kind, 'active');
  if (m.kind !== 'active') return;
  assert.equal(m.current, 'implement');
  assert.equal(m.view.state, 'implement');
  assert.deepEqual(m.visited, ['plan', 'implement']);
  assert.deepEqual(m.taken, [{ from: 'plan', event: 'READY', to: 'implement' }]);
  assert.deepEqual(m.workflow, { id: 'feature', name: 'Feature with review', file, taskType: 'feature', dangerLevel: 'moderate', estimatedSteps: 6, debug: false });
  assert.deepEqual(m.history.map((e) => e.kind), ['start', 'transition']);
  assert.equal(m.definitionChanged, false);
  assert.equal(m.diagram.nodes.length, 6);
  // The model crosses postMessage: it must survive JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(m)), m);
  // The file changed since the run started: the panel says so.
  fs.appendFileSync(file, '\n');
  const changed = renderModel(await situation(runner), []);
  assert.equal(changed.kind === 'active' && changed.definitionChanged, true);
});

test('history point: the run right after an entry, replayed from the journal prefix', async () => {
  const { runner, file } = workspace();
  const { run } = await runner.start(file);
  await runner.send('READY', { note: 'go' });
  await runner.send('SUBMIT');
  const journal = historyOf(await runner.store.readJournal(run.runId));
  const [start, ready, submit] = journal;
  assert.deepEqual(historyPoint(journal, start!.seq), { seq: start!.seq, state: 'plan', context: { tests_pass: false, ticket: 'SG-42' }, status: 'running', transitions: 0 });
  const p = historyPoint(journal, ready!.seq)!;
  assert.equal(p.state, 'implement');
  assert.deepEqual(p.context, { tests_pass: false, ticket: 'SG-42', note: 'go' });
  assert.equal(p.transitions, 1);
  assert.equal(historyPoint(journal, submit!.seq)!.state, 'review');
  assert.equal(historyPoint(journal, 9999), null);
  // Read-only: the live run is untouched.
  assert.equal((await runner.state()).state, 'review');
});

test('history rows: one row per happening (a statechart\'s start and first step, an approval and its transition, are one row each)', async () => {
  // A statechart run journals its start and its first step (entering the initial states): one row, "started hotfix …".
  const chart = workspace(path.join(REPO, 'examples', 'hotfix.statechart.yaml'));
  await chart.runner.start(chart.file);
  await chart.runner.send('CAUSE_FOUND');
  const chartJournal = await chart.runner.store.readJournal((await chart.runner.requireActive()).runId);
  assert.deepEqual(chartJournal.map((e) => e.kind), ['start', 'chart', 'chart'], 'the journal keeps both entries');
  const chartModel = renderModel(await situation(chart.runner), chartJournal);
  assert.ok(chartModel.kind === 'active');
  assert.deepEqual(chartModel.history.map((e) => [e.kind, e.seq]), [['start', 1], ['chart', 3]]);
  // Selecting the start row shows the run after its first step, in the initial leaf state.
  assert.equal(historyPoint(historyOf(chartJournal), 1)?.state, 'hotfix.investigating');

  // An approved transition: "DEPLOY waits for approval", then "DEPLOY: staging → production (approved)", not also "DEPLOY approved".
  const deploy = workspace(path.join(REPO, 'examples', 'deploy.workflow.json'));
  await deploy.runner.start(deploy.file);
  await deploy.runner.send('DEPLOY');
  await deploy.runner.approve();
  const deployJournal = await deploy.runner.store.readJournal((await deploy.runner.requireActive()).runId);
  assert.deepEqual(deployJournal.map((e) => e.kind), ['start', 'approval_requested', 'approved', 'transition']);
  const deployModel = renderModel(await situation(deploy.runner), deployJournal);
  assert.ok(deployModel.kind === 'active');
  assert.deepEqual(deployModel.history.map((e) => e.kind), ['start', 'approval_requested', 'transition']);
});

test('the render model carries the run record\'s summary: phase, task, iterations, bounds as fractions for the bars', async (t) => {
  const root = tempDir('sg-panel-record-', t);
  const file = path.join(root, 'bounded.workflow.json');
  fs.writeFileSync(file, JSON.stringify({ id: 'bounded', initial: 'plan', meta: { max_cost: '$2' }, states: { plan: { allowed_tools: ['Read'], max_iterations: 4, on: { GO: 'build' } }, build: { on: { DONE: 'done' } }, done: { type: 'final' } } }));
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root });
  await runner.start(file, { task: 'Ship it' });
  await runner.tool({ tool: 'Read', input: { file_path: 'a' } });
  await runner.reportUsage({ cost: 1.6 });
  const run = await runner.requireActive();
  const model = renderModel(await situation(runner), await runner.store.readJournal(run.runId), Date.now(), readRecord(runner.runDir(run.runId)));
  assert.equal(model.kind, 'active');
  if (model.kind !== 'active') return;
  assert.deepEqual(model.record && { ...model.record, time: undefined, ticking: undefined }, {
    // The run's status in the shared words (STATUS_WORDS), not the seed's planning/executing/reviewing.
    status: 'running',
    phase: { index: 0, total: 3, name: 'plan' },
    task: '1/1',
    taskText: 'Ship it',
    iteration: 1,
    maxIterations: 4,
    cost: { used: '$1.60', max: '$2', fraction: 0.8 },
    time: undefined,
    warnings: ['Cost at 75% of limit ($1.60 of $2)'],
    completed: 0,
    pending: 1,
    learnings: 0,
    checkpoints: 1,
    counts: ['0 tasks done', '1 pending', '0 lessons recorded', '1 checkpoint'],
    ticking: undefined,
    lastCheckpointSha: null,
  });
  assert.equal(model.record?.time.fraction, null, 'no time bound: no bar');
  assert.deepEqual(model.record?.ticking, { startMs: Date.parse(run.createdAt), maxMs: null }, 'a running run: the panel ticks its time from its start');
});

test('render model: a pipeline run carries its timeline (stages, attempts, grants, payloads); other runs none', async () => {
  const { runner, file } = workspace(path.join(REPO, 'examples', 'code-review-pipeline.workflow.json'));
  await runner.start(file, undefined, { task: 't' });
  await runner.beginTurn();
  const p = (await runner.askGrant('Edit', { file_path: 'a.ts' })).proposal!;
  await runner.answerGrant(p.id, false);
  await runner.completeStage('submit_plan', { steps: [] });
  await runner.completeStage('submit_plan', { steps: ['s'] });
  const m = renderModel(await situation(runner), await runner.store.readJournal((await runner.requireActive()).runId));
  assert.equal(m.kind, 'active');
  const tl = m.kind === 'active' ? m.pipeline : undefined;
  assert.ok(tl);
  assert.deepEqual(tl.stages.map((s) => [s.state, s.attempt, s.outcome, s.turns]), [['plan', 1, 'completed', 1], ['execute', 1, undefined, 0]]);
  assert.deepEqual(tl.stages[0]!.grants.map((g) => [g.tool, g.approved]), [['Edit', false]]);
  assert.deepEqual(tl.stages[0]!.completions.map((c) => c.payload), [{ steps: [] }, { steps: ['s'] }]);
  const plain = workspace(CHECKS);
  await plain.runner.start(plain.file);
  const other = renderModel(await situation(plain.runner), await plain.runner.store.readJournal((await plain.runner.requireActive()).runId));
  assert.equal(other.kind === 'active' ? other.pipeline : 'none', undefined);
});
