/**
 * The state panel and status bar on statechart runs, their pure parts: the
 * diagram model (containers, regions, history), the chart part of the render
 * model (active states, timers, events with guard results), the status bar's
 * short form, the timer arming decision, and the nested layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runner } from '../../src/engine/runs/runner';
import './helpers/state-dir';
import { chartDiagramModel, HISTORY_NODE_PX } from '../../src/vscode/panel/chart-diagram-model';
import { renderModel } from '../../src/vscode/panel/render-model';
import { configurationSummary, configurationText } from '../../src/vscode/runtime/chart-summary';
import { stateNames } from '../../src/engine/machine/state-display';
import { loadWorkflowText } from '../../src/engine/formats/index';
import type { RunSituation } from '../../src/vscode/runtime/run-service';
import { MAX_DELAY_MS, RETRY_MS, timerPlan } from '../../src/vscode/runtime/timer-plan';
import { countdown } from '../../webview/format';
import { layoutDiagram, type Box } from '../../webview/layout';

/** Text as the host's estimates size it (12 px); a browser measures it (webview/diagram.ts). */
const TYPE = { fontPx: 12, width: (t: string) => t.length * 6.5 };
import { tempDir } from './helpers/temp-dir';

const REPO = path.resolve(__dirname, '..', '..');
const PIPELINE = path.join(REPO, 'test', 'e2e', 'fixtures', 'statechart-panel', 'pipeline.statechart.yaml');
const FEATURE = path.join(REPO, 'test', 'e2e', 'fixtures', 'panel', 'feature.workflow.json');
const T0 = Date.parse('2026-11-25T12:00:00.000Z');

/** A workspace with `file` and a runner whose clock the test moves. */
function workspace(file = PIPELINE) {
  const root = tempDir('sg-chart-panel-');
  const copy = path.join(root, path.basename(file));
  fs.copyFileSync(file, copy);
  const clock = { ms: T0 };
  const runner = new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, now: () => new Date(clock.ms).toISOString() });
  return { runner, file: copy, clock };
}

/** What RunService.read() builds, without VS Code. */
async function situation(runner: Runner): Promise<Extract<RunSituation, { kind: 'active' }>> {
  const active = await runner.active();
  assert.equal(active.kind, 'ok');
  if (active.kind !== 'ok') throw new Error('no run');
  const view = await runner.state();
  const run = await runner.active();
  if (run.kind !== 'ok') throw new Error('no run');
  return { kind: 'active', run: run.run, view, workflow: runner.env.load(run.run.workflow.definitionText), definitionChanged: false };
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, outer: Box): boolean => a.x >= outer.x && a.y >= outer.y && a.x + a.width <= outer.x + outer.width && a.y + a.height <= outer.y + outer.height;

test('status bar text: each active state by the name the diagram gives it, regions separated by " | "', () => {
  const { runner, file } = workspace();
  const wf = runner.env.load(fs.readFileSync(file, 'utf8'));
  assert.ok(wf);
  assert.equal(configurationSummary(wf, ['work.build.compile.compiling', 'work.build.lint.linting']), 'pipeline › compiling | linting');
  assert.equal(configurationText(['work.done'], wf), 'done');
  assert.equal(configurationText([], wf), '(no active state)');
  // A name two states share is told apart by its parent's, as in the diagram: never a dotted id.
  const twins = loadWorkflowText('statechart:\n  id: twins\n  initial: both\n  states:\n    both:\n      type: parallel\n      regions:\n        - id: a\n          initial: done\n          states:\n            done: {}\n        - id: b\n          initial: done\n          states:\n            done: {}\n', 'twins.statechart.yaml');
  assert.ok(twins.workflow, twins.diagnostics.map((d) => d.message).join('; '));
  assert.equal(configurationText(['both.a.done', 'both.b.done'], twins.workflow), 'a › done | b › done');
  assert.equal(stateNames(twins.workflow)('both.a'), 'a');
  // Without a readable definition the ids stand.
  assert.equal(configurationText(['work.done'], undefined), 'work.done');
});

test('chart diagram: compound states, a parallel state and its regions as containers, history as H*', () => {
  const { runner, file } = workspace();
  const wf = runner.env.load(fs.readFileSync(file, 'utf8'));
  assert.ok(wf);
  const d = chartDiagramModel(wf);
  const node = (id: string) => d.nodes.find((n) => n.id === id)!;
  assert.equal(node('work').container, 'compound');
  assert.equal(node('work.build').container, 'parallel');
  assert.equal(node('work.build.compile').container, 'region');
  assert.equal(node('work.build.lint').container, 'region');
  assert.equal(node('work.build.compile.compiling').container, undefined);
  assert.equal(node('work.build.compile.compiling').parent, 'work.build.compile');
  assert.equal(node('work.build.compile.compiling').label, 'compiling');
  assert.equal(node('work.build.compile.compiling').initial, true);
  assert.equal(node('work.build.compile.testing').initial, false);
  assert.equal(node('work').initial, true, 'the chart\'s initial state');
  const h = node('work.resume');
  assert.equal(h.history, 'deep');
  assert.equal(h.label, 'H*');
  assert.equal(h.width, HISTORY_NODE_PX);
  assert.equal(node('shipped').final, true);
  // Parents come before their children (the webview nests in one pass).
  const at = new Map(d.nodes.map((n, i) => [n.id, i]));
  for (const n of d.nodes) if (n.parent !== undefined) assert.ok(at.get(n.parent)! < at.get(n.id)!, `${n.parent} before ${n.id}`);
  const after = d.edges.find((e) => e.kind === 'after')!;
  assert.equal(after.from, 'work.build.compile.testing');
  assert.equal(after.to, 'work.build.compile.tested');
  assert.equal(after.label, 'after 2s');
  assert.deepEqual(d.groups, []);
});

test('chart diagram layout: children inside their containers, the two regions side by side', async () => {
  const { runner, file } = workspace();
  const wf = runner.env.load(fs.readFileSync(file, 'utf8'));
  assert.ok(wf);
  const d = chartDiagramModel(wf);
  const l = await layoutDiagram(d, TYPE);
  const box = new Map(l.nodes.map((n) => [n.node.id, n as Box]));
  assert.equal(box.size, d.nodes.length, 'every node placed');
  for (const n of d.nodes) if (n.parent !== undefined) assert.ok(inside(box.get(n.id)!, box.get(n.parent)!), `${n.id} inside ${n.parent}`);
  assert.equal(overlaps(box.get('work.build.compile')!, box.get('work.build.lint')!), false, 'regions apart');
  assert.equal(l.edges.length, d.edges.length);
});

test('render model on a statechart run: every active state, the events with their guard results, the timers', async () => {
  const { runner, file, clock } = workspace();
  await runner.start(file);
  const m = renderModel(await situation(runner), [], clock.ms);
  assert.equal(m.kind, 'active');
  if (m.kind !== 'active') return;
  const c = m.chart!;
  assert.ok(c, 'a chart part');
  assert.deepEqual(c.configuration, ['work.build.compile.compiling', 'work.build.lint.linting']);
  for (const id of ['work', 'work.build', 'work.build.compile', 'work.build.lint', 'work.build.compile.compiling', 'work.build.lint.linting']) assert.ok(c.active.includes(id), id);
  assert.equal(c.active.includes('paused'), false);
  assert.equal(c.summary, 'pipeline › compiling | linting');
  assert.equal(m.diagram.nodes.find((n) => n.id === 'work.build')?.container, 'parallel', 'the nested diagram');
  const ev = new Map(c.events.map((e) => [e.event, e]));
  assert.deepEqual([...ev.keys()].sort(), ['COMPILED', 'LINTED', 'PAUSE']);
  assert.equal(ev.get('COMPILED')!.enabled, true);
  assert.equal(ev.get('PAUSE')!.enabled, true);
  assert.deepEqual(ev.get('PAUSE')!.candidates, [{ source: 'work', targets: ['paused'] }]);
  const linted = ev.get('LINTED')!;
  assert.equal(linted.enabled, false);
  assert.deepEqual(linted.candidates[0]!.guard, { text: 'context.approved', passes: false });
  assert.match(linted.reason!, /guard context\.approved is false/);
  assert.deepEqual(c.timers, []);

  await runner.send('COMPILED');
  clock.ms += 500;
  const m2 = renderModel(await situation(runner), [], clock.ms);
  if (m2.kind !== 'active') return assert.fail('active');
  assert.deepEqual(m2.chart!.timers, [{ state: 'work.build.compile.testing', label: 'after 2s → tested', dueMs: T0 + 2000 }]);
  assert.equal(m2.chart!.summary, 'pipeline › testing | linting');
});

test('render model of a flat workflow has no chart part (the panel draws it as before)', async () => {
  const { runner, file } = workspace(FEATURE);
  await runner.start(file);
  const m = renderModel(await situation(runner), []);
  assert.equal(m.kind === 'active' && m.chart, undefined);
  assert.ok(m.kind === 'active' && m.diagram.nodes.every((n) => n.container === undefined && n.parent === undefined));
});

test('timer arming: the earliest pending after of a running statechart run, nothing otherwise', async () => {
  const { runner, file, clock } = workspace();
  await runner.start(file);
  const run = async () => (await situation(runner)).run;
  assert.equal(timerPlan(undefined, clock.ms), undefined, 'no run');
  assert.equal(timerPlan(await run(), clock.ms), undefined, 'no timer pending');
  await runner.send('COMPILED');
  clock.ms += 500;
  assert.deepEqual(timerPlan(await run(), clock.ms), { due: T0 + 2000, delayMs: 1500 });
  // Already overdue (VS Code was asleep): fire at once.
  assert.deepEqual(timerPlan(await run(), T0 + 9000), { due: T0 + 2000, delayMs: 0 });
  // The same due time tried before without effect: wait RETRY_MS, never spin.
  assert.deepEqual(timerPlan(await run(), T0 + 9000, T0 + 2000), { due: T0 + 2000, delayMs: RETRY_MS });
  // Further away than setTimeout can wait: armed for the longest wait, re-armed then.
  assert.equal(timerPlan(await run(), T0 - 30 * 86_400_000)!.delayMs, MAX_DELAY_MS);
  await runner.pause();
  assert.equal(timerPlan(await run(), clock.ms), undefined, 'a paused run does not move');
  const flat = workspace(FEATURE);
  await flat.runner.start(flat.file);
  assert.equal(timerPlan((await situation(flat.runner)).run, flat.clock.ms), undefined, 'a flat run has no timers');
});

test('timer countdown in the panel: tenths under 10 s, m:ss, h:mm:ss, then "due"', () => {
  assert.equal(countdown(T0 + 1400, T0), '1.4 s');
  assert.equal(countdown(T0 + 65_000, T0), '1:05');
  assert.equal(countdown(T0 + 30 * 60_000, T0), '30:00');
  assert.equal(countdown(T0 + 3_600_000 + 61_000, T0), '1:01:01');
  assert.equal(countdown(T0, T0), 'due');
  assert.equal(countdown(T0 - 5, T0), 'due');
});
