/**
 * The state panel's model of a flow instance: the flow's states and its
 * routes (`next`, `on-error` codes, `goto` values, parallel tasks) as the
 * diagram's nodes and edges, the instance's state highlighted (the top-level
 * one inside a sub-flow), the states that ran marked, the failed one marked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorkflowText, type FlowStatus } from '../../src/engine/index';
import { flowRenderModel } from '../../src/vscode/panel/flow-render-model';

const FLOW = `name: ship
start-at: check
states:
  check:
    tool: switch
    arguments: {value: "{{ env }}"}
    goto: {prod: tests, _: done}
  tests:
    tool: parallel
    arguments:
      tasks: [lint, unit]
    next: deploy
    on-error: {1: fix, _: done}
  lint:
    tool: bash
    arguments: {command: "true"}
  unit:
    tool: bash
    arguments: {command: "true"}
  fix:
    tool: bash
    arguments: {command: "true"}
    next: tests
  deploy:
    tool: sub-flow
    arguments: {file: deploy.flow.yaml}
    next: done
  done:
    tool: bash
    arguments: {command: "true"}
`;

function workflow() {
  const wf = loadWorkflowText(FLOW, '/ws/ship.flow.yaml').workflow;
  assert.ok(wf, 'the flow loads');
  return wf;
}

function status(over: Partial<FlowStatus>): FlowStatus {
  return { instance: 'ship-1', flow: 'ship', status: 'running', state: 'check', exit_code: null, variables: {}, log: [], ...over };
}

const entry = (state: string, exit_code: number | null = 0) => ({ state, exit_code, started: '2026-11-25T12:00:00.000Z', ended: '2026-11-25T12:00:01.000Z', bytes: 0 });

test('a flow instance: every state is a node, the start marked, every route an edge', () => {
  const m = flowRenderModel(workflow(), status({}));
  assert.equal(m.kind, 'flow');
  assert.deepEqual(m.diagram.nodes.map((n) => n.id).sort(), ['check', 'deploy', 'done', 'fix', 'lint', 'tests', 'unit']);
  assert.deepEqual(m.diagram.nodes.filter((n) => n.initial).map((n) => n.id), ['check']);
  assert.match(m.diagram.nodes.find((n) => n.id === 'tests')!.label ?? '', /parallel/, 'a node is captioned with its tool');
  const edges = m.diagram.edges.map((e) => `${e.from}->${e.to}:${e.kind}`).sort();
  for (const want of [
    'check->tests:branch', // goto prod
    'check->done:branch', // goto _
    'tests->deploy:event', // next
    'tests->fix:invoke-fail', // on-error 1
    'tests->done:invoke-fail', // on-error _
    'tests->lint:fork-branch', // a parallel task
    'tests->unit:fork-branch',
    'fix->tests:event',
    'deploy->done:event',
  ]) assert.ok(edges.includes(want), `${want} in ${edges.join(', ')}`);
  assert.equal(new Set(m.diagram.edges.map((e) => e.id)).size, m.diagram.edges.length, 'edge ids are unique');
});

test('the current state is highlighted, the states that ran are marked finished', () => {
  const m = flowRenderModel(workflow(), status({ state: 'fix', log: [entry('check'), entry('tests', 1)] }));
  assert.equal(m.current, 'fix');
  assert.deepEqual(m.finished, ['check', 'tests']);
  assert.equal(m.failed, undefined);
});

test('inside a sub-flow the sub-flow state is highlighted; a paused instance keeps its state', () => {
  const m = flowRenderModel(workflow(), status({ status: 'paused', state: 'deploy/approve', log: [entry('check'), entry('tests'), entry('deploy/build')] }));
  assert.equal(m.current, 'deploy');
  assert.equal(m.state, 'deploy/approve');
  assert.deepEqual(m.finished, ['check', 'tests', 'deploy']);
});

test('a failed instance marks the failed state and highlights none; a completed one highlights none', () => {
  const failed = flowRenderModel(workflow(), status({ status: 'failed', state: 'fix', exit_code: 2, message: 'fix exited 2', log: [entry('check'), entry('tests', 1), entry('fix', 2)] }));
  assert.equal(failed.failed, 'fix');
  assert.equal(failed.statusLabel, 'failed', 'the shared words');
  assert.equal(failed.current, '');
  assert.equal(failed.message, 'fix exited 2');
  const done = flowRenderModel(workflow(), status({ status: 'completed', state: 'done', exit_code: 0 }));
  assert.equal(done.current, '');
  assert.equal(done.failed, undefined);
});
