/**
 * Files as the seeds name them: a plain `*.yaml`/`*.yml`/`*.json` is a
 * statechart when its root has `statechart`, a flow when it has `start-at` and
 * states with `tool`, a Statewright workflow when it has `initial` and
 * `states`, wherever a file is accepted (validate, run start, export,
 * sub-flows, the machine registry, workspace discovery, the editor). A typed
 * suffix whose content is another format is said plainly; YAML that is none
 * of ours gets nothing. Before this, only `*.statechart.*`/`*.flow.*` names
 * were read as charts and flows, and every other YAML was parsed as JSON.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkFile } from '../../src/engine/check/check-file.js';
import { ChartRegistry } from '../../src/engine/formats/chart-registry.js';
import { detectFormat, loadWorkflowText, sniffFormat } from '../../src/engine/formats/index.js';
import { findWorkflows, startFlow } from '../../src/engine/index.js';
import { chartCompletions, flowCompletions } from '../../src/engine/language/index.js';
import { cli } from './helpers/cli';
import { flowWorkspace, writeFlow } from './helpers/flow-workspace.js';
import { testHost } from './helpers/flow-host.js';
import { tempDir } from './helpers/temp-dir';
import { at } from './helpers/chart-doc.js';

const CHART_YAML = `statechart:
  id: code_review
  version: "1.0.0"
  initial: reviewing
  states:
    reviewing:
      on:
        APPROVE: {target: approved}
    approved:
      type: final
`;
const CHART_JSON = JSON.stringify({ statechart: { id: 'code_review', version: '1.0.0', initial: 'reviewing', states: { reviewing: { on: { APPROVE: { target: 'approved' } } }, approved: { type: 'final' } } } });
const FLOW_YAML = 'start-at: hello\nstates:\n  hello:\n    tool: bash\n    arguments:\n      command: echo hi\n';
const FLOW_JSON = JSON.stringify({ 'start-at': 'hello', states: { hello: { tool: 'bash', arguments: { command: 'echo hi' } } } });
const WORKFLOW_YAML = 'id: review\ninitial: work\nstates:\n  work:\n    on: {DONE: done}\n  done:\n    type: final\n';
const WORKFLOW_JSON = JSON.stringify({ id: 'review', initial: 'work', states: { work: { on: { DONE: 'done' } }, done: { type: 'final' } } });
const COMPOSE = 'services:\n  web:\n    image: nginx\n    ports: ["80:80"]\n';
const GH_ACTIONS = 'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';

describe('a plain name is read by its content (engine)', () => {
  const rows: Array<[file: string, text: string, format: string, codes: string[]]> = [
    ['statecharts/code_review.yaml', CHART_YAML, 'statechart', []],
    ['review.yml', CHART_YAML, 'statechart', []],
    ['review.json', CHART_JSON, 'statechart', []],
    ['deploy.yaml', FLOW_YAML, 'flow', []],
    ['deploy.yml', FLOW_YAML, 'flow', []],
    ['deploy.json', FLOW_JSON, 'flow', []],
    ['review.yaml', WORKFLOW_YAML, 'statewright', []],
    ['review.json', WORKFLOW_JSON, 'statewright', []],
    // Typed suffixes stay hints: when the content is another format, that is said once, plainly.
    ['deploy.flow.yaml', CHART_YAML, 'flow', ['format-mismatch']],
    ['review.statechart.yaml', FLOW_YAML, 'statechart', ['format-mismatch']],
    ['review.workflow.json', FLOW_JSON, 'statewright', ['format-mismatch']],
    // YAML that is none of ours: one clear finding from `validate`, never a cascade of JSON errors.
    ['docker-compose.yaml', COMPOSE, 'statewright', ['not-a-workflow']],
  ];
  for (const [file, text, format, codes] of rows) {
    it(`${file}: ${format}${codes.length ? ` (${codes.join(', ')})` : ''}`, () => {
      const r = checkFile(text, path.join('/nowhere', file), { resolveInvoke: false, resolveSrc: false });
      assert.equal(r.format, format);
      assert.deepEqual(r.diagnostics.map((d) => d.code), codes, JSON.stringify(r.diagnostics, null, 1));
      if (!codes.length) assert.ok(r.workflow);
    });
  }

  it('a run re-reading its definition without a file name reads a YAML workflow as one', () => {
    assert.equal(detectFormat(WORKFLOW_YAML), 'statewright');
    assert.equal(loadWorkflowText(WORKFLOW_YAML).workflow?.id, 'review');
    assert.equal(detectFormat(CHART_YAML), 'statechart');
  });

  it('other YAML and JSON name no format (the editor gives them nothing)', () => {
    const others: Array<[file: string, text: string]> = [['docker-compose.yaml', COMPOSE], ['.github/workflows/ci.yml', GH_ACTIONS], ['package.json', '{"name": "x", "version": "1.0.0"}'], ['k8s.yaml', 'apiVersion: v1\nkind: Pod\nspec: {initialDelaySeconds: 3}\n']];
    for (const [file, text] of others) {
      assert.equal(sniffFormat(text, file), undefined, file);
    }
  });

  it('the editor features follow the content: completion in a plain statechart and a plain flow', () => {
    const chart = { text: CHART_YAML, file: '/nowhere/statecharts/code_review.yaml', workflow: checkFile(CHART_YAML, '/nowhere/statecharts/code_review.yaml', { resolveSrc: false }).workflow };
    const targets = chartCompletions(chart, at(CHART_YAML, 'target: approved', 'target: '.length)).map((c) => c.label);
    assert.ok(targets.includes('approved'), targets.join());
    const flow = { text: FLOW_YAML, file: '/nowhere/deploy.yaml', workflow: checkFile(FLOW_YAML, '/nowhere/deploy.yaml').workflow };
    assert.ok(flowCompletions(flow, at(FLOW_YAML, 'tool: bash', 'tool: '.length)).some((c) => c.label === 'claude-code'));
  });
});

describe('through the command line', () => {
  it('validate, export and run start take a plain statecharts/code_review.yaml; run start refuses a plain flow as a flow', (t) => {
    const ws = tempDir('sg-by-content-', t);
    fs.mkdirSync(path.join(ws, 'statecharts'));
    fs.writeFileSync(path.join(ws, 'statecharts', 'code_review.yaml'), CHART_YAML);
    fs.writeFileSync(path.join(ws, 'deploy.yml'), FLOW_YAML);
    fs.writeFileSync(path.join(ws, 'review.yaml'), WORKFLOW_YAML);
    const v = cli(['validate', '--json', 'statecharts/code_review.yaml', 'deploy.yml', 'review.yaml'], { cwd: ws });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.deepEqual(v.json.files.map((f: { format: string; diagnostics: unknown[] }) => [f.format, f.diagnostics.length]), [['statechart', 0], ['flow', 0], ['statewright', 0]]);
    const e = cli(['export', 'statecharts/code_review.yaml', '--format', 'mermaid'], { cwd: ws });
    assert.equal(e.code, 0, e.stderr);
    assert.match(e.stdout, /stateDiagram-v2[\s\S]*reviewing/);
    const s = cli(['run', 'start', 'statecharts/code_review.yaml'], { cwd: ws });
    assert.equal(s.code, 0, s.stdout + s.stderr);
    assert.equal(s.json.workflow, 'code_review');
    assert.equal(s.json.state, 'reviewing');
    assert.equal(cli(['run', 'send', 'APPROVE'], { cwd: ws }).json?.to, 'approved');
    const f = cli(['run', 'start', 'deploy.yml'], { cwd: ws });
    assert.equal(f.code, 1);
    assert.match(f.stdout + f.stderr, /flow_not_runnable/);
  });
});

describe('sub-flows, the machine registry and workspace discovery', () => {
  it('a sub-flow in a plain .yaml runs', async (t) => {
    const ws = flowWorkspace(t, { 'parent.yaml': { 'start-at': 'child', states: { child: { tool: 'sub-flow', arguments: { workflow: 'steps/child.yml', who: 'sub' } } } } });
    writeFlow(ws, 'steps/child.yml', { 'start-at': 'say', states: { say: { tool: 'bash', arguments: { command: 'echo "hi {{ who }}"' }, output: 'var(said)' } } });
    const s = await startFlow(testHost(ws), { file: 'parent.yaml' });
    assert.equal(s.status, 'completed', s.message);
    assert.equal(s.variables['child::said'], 'hi sub');
  });

  it('the registry\'s `statecharts/code_review.yaml`, and a plain chart found by id beside the invoking one', (t) => {
    const ws = tempDir('sg-by-content-reg-', t);
    fs.mkdirSync(path.join(ws, '.stategate'));
    fs.mkdirSync(path.join(ws, 'statecharts'));
    fs.writeFileSync(path.join(ws, 'statecharts', 'code_review.yaml'), CHART_YAML);
    fs.writeFileSync(path.join(ws, 'statecharts', 'lint.yaml'), CHART_YAML.replace('id: code_review', 'id: lint'));
    fs.writeFileSync(path.join(ws, 'statecharts', 'compose.yaml'), COMPOSE);
    fs.writeFileSync(path.join(ws, '.stategate', 'registry.yaml'), 'machine_registry:\n  - {id: code_review_workflow, version: "1.2.0", src: ../statecharts/code_review.yaml}\n');
    const registry = new ChartRegistry();
    const from = { workflow: checkFile(CHART_YAML, path.join(ws, 'statecharts', 'parent.yaml'), { resolveSrc: false }).workflow!, file: path.join(ws, 'statecharts', 'parent.yaml') };
    const viaRegistry = registry.findChart('statechart:code_review_workflow', from);
    assert.ok('file' in viaRegistry && viaRegistry.file.endsWith(path.join('statecharts', 'code_review.yaml')), JSON.stringify(viaRegistry));
    const byId = registry.findChart('statechart:lint', from);
    assert.ok('file' in byId && byId.file.endsWith('lint.yaml'), JSON.stringify(byId));
  });

  it('discovery lists plain YAML where workflows are expected, and reads no other YAML', (t) => {
    const ws = tempDir('sg-by-content-find-', t);
    for (const d of ['statecharts', 'ops/statecharts', 'deep/config', 'charts', '.stategate']) fs.mkdirSync(path.join(ws, d), { recursive: true });
    fs.writeFileSync(path.join(ws, 'statecharts', 'code_review.yaml'), CHART_YAML);
    fs.writeFileSync(path.join(ws, 'ops', 'statecharts', 'deploy.yml'), CHART_YAML.replace('id: code_review', 'id: deploy'));
    fs.writeFileSync(path.join(ws, 'review.yaml'), WORKFLOW_YAML);
    fs.writeFileSync(path.join(ws, 'flow.yaml'), FLOW_YAML); // a flow is not a run
    fs.writeFileSync(path.join(ws, 'deep', 'config', 'hidden.yaml'), CHART_YAML.replace('id: code_review', 'id: hidden'));
    fs.writeFileSync(path.join(ws, 'charts', 'registered.yaml'), CHART_YAML.replace('id: code_review', 'id: registered'));
    fs.writeFileSync(path.join(ws, '.stategate', 'registry.yaml'), 'machine_registry:\n  - {id: registered, version: "1.0.0", src: ../charts/registered.yaml}\n');
    fs.writeFileSync(path.join(ws, 'compose.yaml'), COMPOSE);
    assert.deepEqual(findWorkflows(ws).map((w) => w.id).sort(), ['code_review', 'deploy', 'registered', 'review']);
  });
});
