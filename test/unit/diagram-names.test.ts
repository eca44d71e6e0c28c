// The diagram's words (issue 32, item 6): each state by a name a person reads,
// never a dotted internal id, and no two equal boxes for a chart and its
// top-level state of the same name. On the hotfix example, where a newcomer
// met `hotfix.resume` and two boxes both named "hotfix".
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import ELK from 'elkjs/lib/elk.bundled.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { diagramTree, exportSvg, readableNames, type Workflow } from '../../src/engine/index.js';
import { chartDiagramModel } from '../../src/vscode/panel/chart-diagram-model.js';

const REPO = path.resolve(__dirname, '..', '..');

function load(file: string): Workflow {
  const { workflow } = checkWorkflowFile(fs.readFileSync(path.join(REPO, file), 'utf8'), file);
  assert.ok(workflow, file);
  return workflow;
}

function chartOf(yaml: string): Workflow {
  const { workflow } = checkWorkflowFile(yaml, 'x.statechart.yaml');
  assert.ok(workflow);
  return workflow;
}

describe('the names a diagram shows', () => {
  it('hotfix: the chart root is a frame named as the whole chart, the history a place to go back to', () => {
    const wf = load('examples/hotfix.statechart.yaml');
    const tree = diagramTree(wf);
    assert.equal(tree.nodes.get('')!.label, 'hotfix (whole chart)');
    assert.equal(tree.nodes.get('hotfix')!.label, 'hotfix');
    const names = readableNames(tree);
    assert.equal(names.get('hotfix.resume'), 'hotfix (where it was)');
    assert.equal(names.get('hotfix.patching.writing_test'), 'writing_test');
    for (const [id, name] of names) assert.doesNotMatch(name, /\w\.\w/, `${id} is named ${name}`);
    const model = chartDiagramModel(wf);
    assert.equal(model.nodes.find((n) => n.id === '')!.container, 'chart');
    // What the panel's tooltips and its RESUME button's target say (webview/chart-details.ts reads `name`).
    assert.equal(model.nodes.find((n) => n.id === 'hotfix.resume')!.name, 'hotfix (where it was)');
  });

  it('a caption two states share is told apart by its parents; a child named like its parent is drawn so', () => {
    const wf = chartOf(`statechart:
  id: twice
  initial: build
  states:
    build:
      initial: build
      states:
        build:
          initial: done
          states:
            done: { type: final }
      on: { NEXT: review }
    review:
      initial: done
      states:
        done: { type: final }
`);
    const tree = diagramTree(wf);
    assert.equal(tree.nodes.get('build.build')!.label, 'build › build', 'not a second equal "build" box inside "build"');
    const names = readableNames(tree);
    assert.equal(names.get('build.build.done'), 'build › build › done');
    assert.equal(names.get('review.done'), 'review › done');
    assert.equal(names.get('review'), 'review');
  });

  it("every example's and format's diagram names its states without a dotted id", async () => {
    const files = fs.readdirSync(path.join(REPO, 'examples')).filter((f) => /\.(workflow\.json|statechart\.yaml|flow\.yaml)$/.test(f));
    assert.ok(files.length >= 10);
    for (const file of files) {
      const wf = load(`examples/${file}`);
      const svg = await exportSvg(wf, new ELK());
      assert.doesNotMatch(svg, /<title>[^<]*\w\.\w[^<]*<\/title>/, `${file}: a tooltip with a dotted id`);
      for (const [id, name] of readableNames(diagramTree(wf))) assert.doesNotMatch(name, /\w\.\w/, `${file}: ${id} is named ${name}`);
    }
  });
});
