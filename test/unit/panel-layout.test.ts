/** The panel's diagram layout (elkjs, run here in node): every state placed, none overlapping, groups around their members. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runner } from '../../src/engine/runs/runner';
import './helpers/state-dir';
import { diagramModel } from '../../src/vscode/panel/diagram-model';
import { layoutDiagram, type Box } from '../../webview/layout';

const REPO = path.resolve(__dirname, '..', '..');

function model(rel: string) {
  const runner = new Runner({ dir: path.join(REPO, '.no-such-stategate'), workspaceRoot: REPO });
  const wf = runner.env.load(fs.readFileSync(path.join(REPO, rel), 'utf8'));
  assert.ok(wf, rel);
  return diagramModel(wf);
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, outer: Box): boolean => a.x >= outer.x && a.y >= outer.y && a.x + a.width <= outer.x + outer.width && a.y + a.height <= outer.y + outer.height;

for (const rel of ['test/e2e/fixtures/panel/feature.workflow.json', 'examples/checks.workflow.json', 'examples/triage.workflow.json']) {
  test(`layout of ${path.basename(rel)}: placed, apart, grouped, inside the extent`, async () => {
    const m = model(rel);
    const l = await layoutDiagram(m);
    assert.deepEqual(l.nodes.map((n) => n.node.id).sort(), m.nodes.map((n) => n.id).sort());
    assert.equal(l.edges.length, m.edges.length);
    for (const e of l.edges) assert.match(e.d, /^M[\d.]+,[\d.]+( L[\d.]+,[\d.]+)+$/, `edge ${e.edge.id} has a path`);
    for (const [i, a] of l.nodes.entries()) {
      assert.equal(a.width, a.node.width, 'the reserved size is kept');
      assert.ok(inside(a, l), `${a.node.id} inside the diagram`);
      for (const b of l.nodes.slice(i + 1)) assert.ok(!overlaps(a, b), `${a.node.id} and ${b.node.id} overlap`);
    }
    for (const g of l.groups) {
      for (const id of g.group.members) assert.ok(inside(l.nodes.find((n) => n.node.id === id)!, g), `${id} inside ${g.group.label}`);
    }
    assert.equal(l.groups.length, m.groups.length);
  });
}
