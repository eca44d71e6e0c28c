import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, flowCompletions, subFlowLoader } from '../../src/engine/language/index.js';
import { FLOW_TOOLS } from '../../src/engine/model/index.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { at } from './helpers/chart-doc.js';
import { flowDoc, releaseFlow } from './helpers/flow-doc.js';

const ALL_STATES = ['fetch', 'checks', 'test', 'notes', 'plan', 'ask', 'decide', 'push', 'stop'];
const without = (s: string): string[] => [...ALL_STATES.filter((x) => x !== s), s];

for (const form of ['yaml', 'json'] as const) {
  const doc = releaseFlow(form);
  const { text } = doc;
  const q = form === 'json' ? '"' : '';
  const load = subFlowLoader(doc.file);
  const labels = (offset: number): string[] => flowCompletions(doc, offset, load).map((c) => c.label);

  test(`${form}: completion offers what belongs where the cursor is`, () => {
    const cases: Array<[what: string, offset: number, expected: string[]]> = [
      ['start-at: every state', at(text, `start-at${q}: ${q}fetch`, `start-at${q}: ${q}`.length), ALL_STATES],
      ['a next target: every state, its own last', at(text, `next${q}: ${q}ask`, `next${q}: ${q}`.length), without('notes')],
      ['an on-error target', at(text, `_${q}: ${q}plan`, `_${q}: ${q}`.length), without('checks')],
      ['a goto target', at(text, `"yes": ${q}push`, `"yes": ${q}`.length), without('decide')],
      ['a tool', at(text, `tool${q}: ${q}bash`, `tool${q}: ${q}`.length), [...FLOW_TOOLS]],
      ['an inline task tool', at(text, `tool${q}: ${q}bash`, `tool${q}: ${q}`.length, 0), [...FLOW_TOOLS]],
      // Defined on some path before `ask`: the declared ones, the outputs before it, the sub-flow's; then the rest.
      ['a variable in {{ }}', at(text, '{{ notes::summary', 3), ['issue', 'branch', 'issue_json', 'lint_out', 'test_out', 'notes::summary', 'answer']],
      ['a variable before anything is set', at(text, '{{ issue }}', 3), ['issue', 'branch', 'issue_json', 'lint_out', 'test_out', 'notes::summary', 'answer']],
    ];
    for (const [what, offset, expected] of cases) if (expected.length) assert.deepEqual(labels(offset), expected, what);
    // The task list item `test` (a state name in a list).
    const task = form === 'yaml' ? at(text, '- test', 2) : at(text, '"test",', 1);
    assert.deepEqual(labels(task), without('checks'), 'a parallel state task');
    const fetch = flowCompletions(doc, at(text, '{{ issue }}', 3), load);
    assert.equal(fetch.find((c) => c.label === 'answer')?.detail, 'output of ask; not set on any path to fetch');
    assert.equal(fetch.find((c) => c.label === 'issue')?.detail, 'variable (default 42)');
  });

  test(`${form}: a tool completion carries the tool's documentation; applied, it leaves the flow as it was`, () => {
    const offset = at(text, `tool${q}: ${q}claude`, `tool${q}: ${q}`.length);
    const item = flowCompletions(doc, offset).find((c) => c.label === 'claude');
    assert.ok(item?.documentation?.includes('`prompt` (required)'), item?.documentation);
    assert.ok(item);
    assert.equal(applyEdits(text, [{ ...item.range, newText: item.insertText }]), text);
  });
}

test('yaml: the arguments of the state\'s tool, required first with their docs; field names of the object under the cursor', () => {
  const base = releaseFlow('yaml').text;
  const cases: Array<[what: string, replace: [string, string], cursorAfter: string, expected: Array<[string, string]>]> = [
    ['a claude state\'s arguments', ['      prompt: "Tests fail on {{ branch }}:\\n{{ test_out }}\\nIssue: {{ issue_json }}"', '      p'], '      p', [['prompt', 'required argument of claude'], ['model', 'optional argument of claude']]],
    ['an argument already there is not offered', ['    output: file(plans/fix.md)', '      m\n    output: file(plans/fix.md)'], '      m', [['model', 'optional argument of claude']]],
    ['an inline task\'s arguments', ['            command: npm run lint', '            c'], '            c', [['command', 'required argument of bash']]],
    ['a state field', ['    output: var(answer)', '    ou'], '    ou', [['output', 'state field'], ['on-error', 'state field']]],
    ['a top-level field', ['description: Test, ask, then tag and push.', 'd'], '\nd', [['description', 'flow field']]],
  ];
  for (const [what, [needle, insert], cursorAfter, expected] of cases) {
    assert.ok(base.includes(needle), needle);
    const text = base.replace(needle, insert);
    const doc = flowDoc(text, 'release.flow.yaml');
    const items = flowCompletions(doc, at(text, cursorAfter, cursorAfter.length));
    for (const [label, detail] of expected) assert.equal(items.find((c) => c.label === label)?.detail, detail, `${what}: ${label} in ${JSON.stringify(items.map((c) => c.label))}`);
    if (what === "a claude state's arguments") {
      assert.deepEqual(items.map((c) => c.label), ['prompt', 'model']);
      assert.ok(items[0]?.documentation?.includes('templates'));
      assert.equal(items[0]?.insertText, 'prompt: ');
    }
    if (what.startsWith('an argument already')) assert.deepEqual(items.map((c) => c.label), ['model']);
    if (what === 'a state field') assert.ok(!items.some((c) => c.label === 'goto' || c.label === 'tool'), `${what}: ${JSON.stringify(items.map((c) => c.label))}`);
  }
});

test('yaml: an open {{ gets the variable and its closing braces; a variable completion leaves a flow that validates', () => {
  const base = releaseFlow('yaml').text;
  const text = base.replace('command: echo "not pushed"', 'command: echo "not pushed {{ te');
  const doc = flowDoc(text, 'release.flow.yaml');
  const offset = at(text, 'pushed {{ te', 12);
  const item = flowCompletions(doc, offset).find((c) => c.label === 'test_out');
  assert.ok(item);
  assert.deepEqual(item.range, { start: offset - 2, end: offset });
  const out = applyEdits(text, [{ ...item.range, newText: item.insertText }]);
  assert.match(out, /echo "not pushed \{\{ test_out \}\}\n/);
  // Closed already: only the name is replaced.
  const closed = base.replace('git push origin {{ branch }}', 'git push origin {{ br }}');
  const c = flowCompletions(flowDoc(closed, 'release.flow.yaml'), at(closed, 'origin {{ br', 12)).find((x) => x.label === 'branch');
  assert.ok(c);
  assert.equal(applyEdits(closed, [{ ...c.range, newText: c.insertText }]), base);
  assert.deepEqual(checkWorkflowFile(base, 'release.flow.yaml').diagnostics, []);
});

test('no completion after a complete value, or outside any slot', () => {
  const doc = releaseFlow('yaml');
  assert.deepEqual(flowCompletions(doc, at(doc.text, 'Test, ask', 2)), []);
  assert.deepEqual(flowCompletions(doc, at(doc.text, 'npm test', 4)), []);
});

test('a sub-flow\'s variables: its file read beside the flow (as the runner resolves it), the state\'s other arguments too; none when the file is not there', () => {
  const base = releaseFlow('yaml');
  const text = base.text.replace('      workflow: notes.flow.yaml\n', '      workflow: notes.flow.yaml\n      since: v1\n');
  const doc = flowDoc(text, base.file ?? '');
  const offset = at(text, '{{ notes::summary', 3);
  const subVars = (d: typeof doc): string[] => flowCompletions(d, offset, subFlowLoader(d.file)).map((c) => c.label).filter((l) => l.includes('::'));
  assert.deepEqual(subVars(doc), ['notes::summary', 'notes::since']);
  assert.deepEqual(subVars(flowDoc(text.replace('notes.flow.yaml', 'missing.flow.yaml'), base.file ?? '')), []);
  assert.deepEqual(subVars(flowDoc(text, 'elsewhere/release.flow.yaml')), []);
});
