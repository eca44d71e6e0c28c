/**
 * Every export of every fixture, read back by the tool that reads the format:
 * Mermaid by mermaid's own state-diagram grammar (helpers/mermaid-state-check.ts:
 * `@mermaid-js/parser` has none, held below), DOT by Graphviz
 * (`@hpcc-js/wasm-graphviz` renders it to SVG and throws on what it cannot
 * read), PlantUML by a syntax check of PlantUML's state commands
 * (helpers/plantuml-check.ts), SVG by an XML parser in strict mode
 * (helpers/svg-check.ts). Beyond "it reads", each reading is compared with the
 * workflow: every state drawn once, with its caption, inside its parent, and
 * every transition drawn.
 *
 * Fixtures: examples/, test/fixtures/workflows/, ../shared/corpus (when beside
 * the repository, helpers/shared-material.ts), the statecharts of
 * test/fixtures/statecharts/ (loaded by the loader) and of
 * helpers/export-charts.ts (built as IR: the shapes that are hard to draw).
 */
import { before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ELK from 'elkjs/lib/elk.bundled.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { EXPORT_FORMATS, exportSvg, exportWorkflow, type ExportFormat, type Workflow } from '../../src/engine/index.js';
import { diagramTree, type DiagramTree } from '../../src/engine/export/tree.js';
import { safeId } from '../../src/engine/export/ids.js';
import { EXPORT_CHARTS } from './helpers/export-charts.js';
import { readMermaidStateDiagram } from './helpers/mermaid-state-check.js';
import { readPlantUml } from './helpers/plantuml-check.js';
import { readSvg } from './helpers/svg-check.js';
import { requireShared } from './helpers/shared-material.js';

const REPO = path.resolve(__dirname, '..', '..');
const corpus = requireShared('corpus');

interface Fixture {
  readonly name: string;
  readonly load: () => Workflow;
}

function filesUnder(dir: string, take: (name: string) => boolean): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name), take) : take(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

const jsonFiles = (dir: string): string[] => filesUnder(dir, (name) => name.endsWith('.json') && name !== 'manifest.json');
const chartFiles = (dir: string): string[] => filesUnder(dir, (name) => /\.statechart\.(ya?ml|json)$/.test(name));

function fileFixture(file: string, base: string): Fixture {
  return {
    name: path.relative(base, file),
    load: () => {
      const { workflow } = checkWorkflowFile(fs.readFileSync(file, 'utf8'), file);
      assert.ok(workflow, `${file} loads`);
      return workflow;
    },
  };
}

const FIXTURES: readonly Fixture[] = [
  // examples/ is a project too (package.json, issues/*.json): its workflows only.
  ...filesUnder(path.join(REPO, 'examples'), (name) => name.endsWith('.workflow.json')).map((f) => fileFixture(f, REPO)),
  ...jsonFiles(path.join(REPO, 'test', 'fixtures', 'workflows')).map((f) => fileFixture(f, REPO)),
  ...(corpus.present ? jsonFiles(corpus.dir).map((f) => fileFixture(f, path.dirname(corpus.dir))) : []),
  // Every statechart fixture that loads, the rules' bad ones included: an export draws what loaded.
  ...chartFiles(path.join(REPO, 'test', 'fixtures', 'statecharts')).map((f) => fileFixture(f, REPO)),
  ...EXPORT_CHARTS.map((wf) => ({ name: `statechart IR ${wf.id}`, load: () => wf })),
];

let graphviz: { dot(source: string): string };
const elk = new ELK();
before(async () => {
  const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
  graphviz = await Graphviz.load();
});

async function render(wf: Workflow, format: ExportFormat): Promise<string> {
  return format === 'svg' ? exportSvg(wf, elk) : exportWorkflow(wf, format);
}

/** States a diagram draws as boxes or circles (the chart root, when drawn, is one too). */
function drawnStates(tree: DiagramTree) {
  return [...tree.nodes.values()];
}

const READERS: Record<ExportFormat, (text: string, tree: DiagramTree) => void> = {
  mermaid(text, tree) {
    const d = readMermaidStateDiagram(text, { strict: true });
    for (const n of drawnStates(tree)) {
      const s = d.states.get(safeId(n.id));
      assert.ok(s, `${n.id} is declared`);
      // Mermaid has no escapes: a double quote becomes a single one, a line break a space.
      assert.equal(s.caption, (n.history ? `[${n.label}]` : n.label).replace(/"/g, "'").replace(/[\u0000-\u001f]+/g, ' '), `${n.id}'s caption`);
      assert.equal(s.parent, n.parent === undefined ? undefined : safeId(n.parent), `${n.id} sits in its parent's body`);
      assert.equal(s.dividers, n.kind === 'parallel' ? n.children.length - 1 : 0, `${n.id}'s regions are separated by --`);
      if (n.color) assert.equal(s.classes.length, 1, `${n.id} has its colour's class`);
    }
    const arrows = d.relations.filter((r) => r.from !== '[*]' && r.to !== '[*]').map((r) => `${r.from} -> ${r.to}`);
    assert.deepEqual(arrows.sort(), tree.edges.map((e) => `${safeId(e.from)} -> ${safeId(e.to)}`).sort(), 'every transition, once');
  },
  plantuml(text, tree) {
    const d = readPlantUml(text);
    assert.equal(d.title, tree.id);
    for (const n of drawnStates(tree)) {
      if (n.history) continue; // PlantUML's own `parent[H]`, checked with the links
      const s = d.states.get(safeId(n.id));
      assert.ok(s, `${n.id} is declared`);
      // PlantUML ends a caption at any of its three double quotes: they become single ones.
      assert.equal(s.display, n.label.replace(/["“”]/g, "'"), `${n.id}'s caption`);
      assert.equal(s.parent, n.parent === undefined ? undefined : safeId(n.parent), `${n.id} sits in its parent's block`);
      assert.equal(s.separators, n.kind === 'parallel' ? n.children.length - 1 : 0, `${n.id}'s regions are separated by ||`);
    }
    assert.equal(d.links.filter((l) => l.from !== '[*]' && l.to !== '[*]').length, tree.edges.length, 'every transition, once');
  },
  dot(text, tree) {
    const svg = readSvg(graphviz.dot(text));
    const texts = new Set(svg.texts.map((t) => t.trim()));
    for (const n of drawnStates(tree)) assert.ok(texts.has(n.label.trim()), `Graphviz draws ${JSON.stringify(n.label)}`);
    for (const e of tree.edges) if (e.label) assert.ok(svg.texts.some((t) => t.includes(e.label.split(' ')[0]!)), `Graphviz draws the label ${JSON.stringify(e.label)}`);
  },
  svg(text, tree) {
    const svg = readSvg(text);
    assert.equal(svg.root.name, 'svg');
    assert.equal(svg.root.attributes.xmlns, 'http://www.w3.org/2000/svg');
    assert.deepEqual([...svg.states.keys()].sort(), drawnStates(tree).map((n) => n.id).sort(), 'every state drawn once');
    for (const n of drawnStates(tree)) assert.equal(svg.states.get(n.id), n.label, `${n.id}'s caption`);
    for (const e of tree.edges) if (e.label) assert.ok(svg.texts.some((t) => t.startsWith(e.label)), `the label ${JSON.stringify(e.label)}`);
  },
};

describe('every export of every fixture reads back', () => {
  it('has fixtures of every kind', () => {
    assert.ok(FIXTURES.filter((f) => /\.statechart\./.test(f.name)).length >= 40, 'the loader fixtures');
    assert.ok(FIXTURES.length >= 8 + 12 + 40 + EXPORT_CHARTS.length);
    assert.deepEqual([...EXPORT_FORMATS].sort(), ['dot', 'mermaid', 'plantuml', 'svg']);
  });
  for (const f of FIXTURES) {
    for (const format of EXPORT_FORMATS) {
      it(`${f.name}: ${format}`, async () => {
        const wf = f.load();
        READERS[format](await render(wf, format), diagramTree(wf));
      });
    }
  }
});

test('@mermaid-js/parser has no state-diagram grammar (so mermaid-state-check.ts reads Mermaid; switch when it has one)', async () => {
  const { parse } = await import('@mermaid-js/parser');
  await assert.rejects(parse('state' as never, exportWorkflow(EXPORT_CHARTS[0]!, 'mermaid')), /Unknown diagram type: state/);
});

describe('the Mermaid reader takes what Mermaid takes and refuses what it refuses', () => {
  const valid = [
    'stateDiagram-v2\n  [*] --> Still\n  Still --> [*]\n  Still --> Moving\n  Moving --> Crash: hits a wall\n  Crash --> [*]\n',
    'stateDiagram\n  state First {\n    [*] --> second\n    second --> [*]\n  }\n  [*] --> First\n',
    'stateDiagram-v2\n  state "Keyboard" as Active {\n    [*] --> NumOff\n    NumOff --> NumOn : pressed\n    --\n    [*] --> CapsOff\n    CapsOff --> CapsOn : pressed\n  }\n',
    'stateDiagram-v2\n  state if_state <<choice>>\n  [*] --> IsPositive\n  IsPositive --> if_state\n  if_state --> False: if n < 0\n  if_state --> True : if n >= 0\n',
    'stateDiagram-v2\n  direction LR\n  %% a comment\n  classDef bad fill:#f00,color:white\n  [*] --> A\n  A --> B\n  class A,B bad\n  note right of A : a note\n',
  ];
  const invalid = [
    ['no header', '[*] --> A\n'],
    ['a body never closed', 'stateDiagram-v2\n  state A {\n    [*] --> B\n'],
    ['a body that belongs to no state', 'stateDiagram-v2\n  A --> B\n  {\n  }\n'],
    ['a region divider at the top', 'stateDiagram-v2\n  A --> B\n  --\n  C --> D\n'],
    ['an arrow with no target', 'stateDiagram-v2\n  A -->\n'],
  ];
  for (const text of valid) it(`reads ${JSON.stringify(text.split('\n')[1])}...`, () => void readMermaidStateDiagram(text));
  for (const [what, text] of invalid) it(`refuses ${what}`, () => assert.throws(() => readMermaidStateDiagram(text!), /line \d+/));
  it('strict (for exports): refuses a state no statement declares and a class no classDef defines', () => {
    assert.throws(() => readMermaidStateDiagram('stateDiagram-v2\n  A --> B\n', { strict: true }), /`A`, which no statement declares/);
    assert.throws(() => readMermaidStateDiagram('stateDiagram-v2\n  state "a" as A\n  class A missing\n', { strict: true }), /class `missing` is not defined/);
  });
});

describe('the readers reject broken exports (the checks can fail)', () => {
  const nested = EXPORT_CHARTS.find((wf) => wf.id === 'parallel_example')!;
  const tree = diagramTree(nested);
  const broken: readonly { format: ExportFormat; what: string; edit: (text: string) => string; error: RegExp }[] = [
    { format: 'mermaid', what: 'a closing brace dropped', edit: (t) => t.replace(/\n {4}\}\n/, '\n'), error: /expected STRUCT_STOP/ },
    { format: 'mermaid', what: 'an opening brace dropped', edit: (t) => t.replace(/ \{\n/, '\n'), error: /expected a statement|no lexer rule/ },
    { format: 'mermaid', what: '[*] broken into [*', edit: (t) => t.replace('[*] -->', '[* -->'), error: /no statement declares/ },
    { format: 'mermaid', what: 'a region divider outside a composite state', edit: (t) => t.replace(/\n {2}\[\*\]/, '\n  --\n  [*]'), error: /INVALID|statement/ },
    { format: 'mermaid', what: 'a caption quote left open', edit: (t) => t.replace('"merged"', '"merged'), error: /line/ },
    { format: 'plantuml', what: 'the last closing brace dropped', edit: (t) => t.replace(/\n\}\n(?![\s\S]*\n\}\n)/, '\n'), error: /left open|refuses the reference/ },
    { format: 'plantuml', what: 'a transition to a state never declared', edit: (t) => t.replace('--> s_merged', '--> s_merge'), error: /before any `state` line/ },
    { format: 'plantuml', what: 'a region referenced from outside its section', edit: (t) => t.replace('s_analysis --> s_merged : (code_review) done', 's_analysis_2e_code_review --> s_merged : done'), error: /concurrent section/ },
    { format: 'plantuml', what: 'an unknown arrow', edit: (t) => t.replace('s_merged --> [*]', 's_merged ~> [*]'), error: /not a state diagram command/ },
    { format: 'dot', what: 'the closing brace dropped', edit: (t) => t.replace(/\}\n$/, ''), error: /syntax error/ },
    { format: 'dot', what: 'an attribute list left open', edit: (t) => t.replace('[label="merged"', '[label="merged",'), error: /syntax error/ },
    { format: 'svg', what: 'an element left open', edit: (t) => t.replace('</g>', ''), error: /Unexpected close tag|Unclosed root tag/ },
    { format: 'svg', what: 'a bare ampersand', edit: (t) => t.replace('>merged<', '>merged & co<'), error: /entity/i },
  ];
  for (const b of broken) {
    it(`${b.format}: ${b.what}`, async () => {
      const good = await render(nested, b.format);
      READERS[b.format](good, tree);
      const bad = b.edit(good);
      assert.notEqual(bad, good, 'the edit applies');
      assert.throws(() => READERS[b.format](bad, tree), b.error);
    });
  }
  it('svg: a state left out', async () => {
    const good = await render(nested, 'svg');
    const bad = good.replace(/<g class="state final" data-state="merged">.*?<\/g>\n/, '');
    assert.notEqual(bad, good);
    assert.throws(() => READERS.svg(bad, tree), /every state drawn once/);
  });
});
