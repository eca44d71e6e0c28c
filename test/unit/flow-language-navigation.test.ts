import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flowDefinition, flowHover, flowLenses, flowOutline, flowReferences } from '../../src/engine/language/index.js';
import { at } from './helpers/chart-doc.js';
import { releaseFlow } from './helpers/flow-doc.js';

for (const form of ['yaml', 'json'] as const) {
  const doc = releaseFlow(form);
  const { text } = doc;
  const q = form === 'json' ? '"' : '';
  const slice = (l: { start: number; end: number }): string => `${text.slice(l.start, l.end)}@${l.start}`;
  const key = (name: string): string => `${name}@${at(text, `${q}${name}${q}:`, q.length)}`;

  test(`${form}: go to definition lands on the state or the variable's definitions`, () => {
    const cases: Array<[what: string, offset: number, expected: string[]]> = [
      ['a next target', at(text, `next${q}: ${q}checks`, `next${q}: ${q}`.length + 2), [key('checks')]],
      ['start-at', at(text, `start-at${q}: ${q}fetch`, `start-at${q}: ${q}`.length), [key('fetch')]],
      ['an on-error target', at(text, `_${q}: ${q}plan`, `_${q}: ${q}`.length + 1), [key('plan')]],
      ['a goto target', at(text, `"yes": ${q}push`, `"yes": ${q}`.length), [key('push')]],
      ['a variable in {{ }}: its output var()', at(text, '{{ test_out', 5), [`test_out@${at(text, 'var(test_out)', 4)}`]],
      ['a declared variable', at(text, '{{ branch', 4), [key('branch')]],
      ['the state of {{ state::var }}', at(text, '{{ notes::', 4), [key('notes')]],
      ['a tool has no definition', at(text, `${q}get-gh-issue`, q.length + 1), []],
    ];
    for (const [what, offset, expected] of cases) assert.deepEqual(flowDefinition(doc, offset).map(slice), expected, what);
  });

  test(`${form}: references of a state and of a variable`, () => {
    const refs = (offset: number, decl: boolean): string[] => flowReferences(doc, offset, decl).map(slice);
    const test = at(text, `${q}test${q}:`, q.length);
    // The parallel task `test`, not the word in `npm test`.
    assert.deepEqual(refs(test, false), [`test@${at(text, form === 'yaml' ? '- test' : '"test",', form === 'yaml' ? 2 : 1)}`]);
    const branch = refs(at(text, '{{ branch }}', 4), true);
    // Declared, then read in plan, ask and push.
    assert.equal(branch.length, 4, JSON.stringify(branch));
    assert.ok(branch.every((b) => b.startsWith('branch@')));
    assert.deepEqual(refs(at(text, `tool${q}: ${q}bash`, `tool${q}: ${q}`.length), true).length, 4, 'every bash state and task');
  });

  test(`${form}: hover documents tools and arguments, resolves targets, tells about variables`, () => {
    const hover = (offset: number): string => flowHover(doc, offset)?.markdown ?? '';
    const cases: Array<[what: string, offset: number, has: string[]]> = [
      ['a tool', at(text, `${q}get-gh-issue`, q.length + 2), ['**tool** `get-gh-issue`', '`issue-number` (required)', 'the issue as JSON']],
      ['a next target: the resolved state', at(text, `next${q}: ${q}checks`, `next${q}: ${q}`.length), ['`next` of `fetch` → state `checks`', 'runs `parallel`', 'Tasks: `test`, `bash` (inline)', 'exit _ → `plan`']],
      ['a state key', at(text, `${q}decide${q}:`, q.length), ['**state** `decide`', '= "yes" → `push`', 'otherwise → `stop`']],
      ['a variable', at(text, '{{ test_out', 4), ['**variable** `test_out`', 'Set by `output: var(test_out)` of `test`', 'Read in `plan`']],
      ['a declared variable', at(text, `${q}issue${q}: 42`, q.length), ['Declared in `variables` (default `42`)']],
      ['a sub-flow variable', at(text, 'notes::summary', 8), ['**variable** `summary` of sub-flow state `notes`', 'notes.flow.yaml']],
      ['an argument name', at(text, `${q}question${q}:`, q.length + 1), ['**argument** `question` of `ask-user` (required)']],
    ];
    for (const [what, offset, has] of cases) for (const h of has) assert.ok(hover(offset).includes(h), `${what}: ${h} in ${hover(offset)}`);
  });

  test(`${form}: the outline lists the states with their tools; lenses run the flow and count ins and outs`, () => {
    assert.deepEqual(
      flowOutline(doc).map((s) => `${s.name}: ${s.detail}`),
      [
        'fetch: get-gh-issue → checks · start',
        'checks: parallel → notes',
        'test: bash (ends the flow)',
        'notes: sub-flow → ask',
        'plan: claude (ends the flow)',
        'ask: ask-user → decide',
        'decide: switch',
        'push: bash (ends the flow)',
        'stop: bash (ends the flow)',
      ],
    );
    const lenses = flowLenses(doc);
    assert.deepEqual(lenses[0]?.action, { kind: 'run-flow' });
    assert.equal(lenses[0]?.title, '▶ Run flow');
    assert.deepEqual(
      lenses.slice(1).map((l) => `${text.slice(l.loc.start, l.loc.end)} ${l.title}`),
      ['fetch ↘ 1 in · 1 out', 'checks ↘ 1 in · 3 out', 'test ↘ 1 in · 0 out', 'notes ↘ 1 in · 1 out', 'plan ↘ 1 in · 0 out', 'ask ↘ 1 in · 1 out', 'decide ↘ 1 in · 2 out', 'push ↘ 1 in · 0 out', 'stop ↘ 1 in · 0 out'],
    );
  });
}
