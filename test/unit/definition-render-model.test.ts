/** "Show diagram" on a file that is not the run's: the panel's model of its definition, for each format that has a diagram. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import './helpers/state-dir';
import { loadWorkflowText } from '../../src/engine/index';
import { definitionProblem, definitionRenderModel } from '../../src/vscode/panel/definition-render-model';

const REPO = path.resolve(__dirname, '..', '..');

function load(rel: string) {
  const file = path.join(REPO, rel);
  const wf = loadWorkflowText(fs.readFileSync(file, 'utf8'), file).workflow;
  assert.ok(wf, rel);
  return wf;
}

test('a Statewright workflow: its states and transitions, nothing highlighted, the way back to the run offered when one is active', () => {
  const m = definitionRenderModel(load('test/e2e/fixtures/statechart-panel/review.workflow.json'), 'review.workflow.json', true);
  assert.equal(m.kind, 'definition');
  assert.equal(m.format, 'statewright');
  assert.deepEqual(m.workflow, { id: 'review', name: 'Code review' });
  assert.deepEqual(m.diagram.nodes.map((n) => n.id).sort(), ['drafting', 'merged', 'reviewing']);
  assert.deepEqual(m.diagram.edges.map((e) => e.label).sort(), ['APPROVE', 'REWORK', 'SUBMIT']);
  assert.equal(m.runActive, true);
  assert.equal(m.problem, undefined);
});

test('a statechart and a flow: drawn nested, as a run of them would be', () => {
  const chart = definitionRenderModel(load('test/e2e/fixtures/statechart-panel/pipeline.statechart.yaml'), 'pipeline.statechart.yaml', false);
  assert.equal(chart.format, 'statechart');
  assert.equal(chart.diagram.nodes.find((n) => n.id === 'work.build')?.container, 'parallel');
  const flow = definitionRenderModel(load('examples/pre-push-check.flow.yaml'), 'pre-push-check.flow.yaml', false);
  assert.equal(flow.format, 'flow');
  assert.ok(flow.diagram.nodes.length > 1);
});

test('a file that is no workflow: said, with no diagram', () => {
  const m = definitionProblem('package.json', 'it is not a workflow stategate can draw', false);
  assert.equal(m.kind, 'definition');
  assert.equal(m.diagram.nodes.length, 0);
  assert.match(m.problem ?? '', /not a workflow/);
});
