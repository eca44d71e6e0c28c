import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, flowPrepare, flowRename } from '../../src/engine/language/index.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { at } from './helpers/chart-doc.js';
import { releaseFlow } from './helpers/flow-doc.js';

for (const form of ['yaml', 'json'] as const) {
  const doc = releaseFlow(form);
  const { text } = doc;
  const q = form === 'json' ? '"' : '';
  const renamed = (offset: number, name: string): string => {
    const r = flowRename(doc, offset, name);
    assert.ok('edits' in r, JSON.stringify(r));
    const out = applyEdits(text, r.edits);
    assert.deepEqual(checkWorkflowFile(out, doc.file ?? '').diagnostics, [], 'the renamed flow validates');
    return out;
  };

  test(`${form}: renaming a state updates its key and every reference`, () => {
    const cases: Array<[what: string, offset: number, name: string, expected: (t: string) => string]> = [
      [
        'a parallel task state, from its key',
        at(text, `${q}test${q}:`, q.length + 1),
        'unit',
        (t) => t.replace(`${q}test${q}:`, `${q}unit${q}:`).replace(form === 'yaml' ? '- test' : '"test",', form === 'yaml' ? '- unit' : '"unit",'),
      ],
      [
        'a sub-flow state, from a target: {{ state::var }} follows',
        at(text, `next${q}: ${q}notes`, `next${q}: ${q}`.length + 1),
        'changelog',
        (t) => t.replace(`${q}notes${q}:`, `${q}changelog${q}:`).replace(`next${q}: ${q}notes`, `next${q}: ${q}changelog`).replace('{{ notes::summary }}', '{{ changelog::summary }}'),
      ],
      [
        'the start state, from start-at',
        at(text, `start-at${q}: ${q}fetch`, `start-at${q}: ${q}`.length),
        'load',
        (t) => t.replace(`start-at${q}: ${q}fetch`, `start-at${q}: ${q}load`).replace(`${q}fetch${q}:`, `${q}load${q}:`),
      ],
      ['a goto target', at(text, `"yes": ${q}push`, `"yes": ${q}`.length), 'publish', (t) => t.replace(`"yes": ${q}push`, `"yes": ${q}publish`).replace(`${q}push${q}:`, `${q}publish${q}:`)],
    ];
    for (const [what, offset, name, expected] of cases) assert.equal(renamed(offset, name), expected(text), what);
  });

  test(`${form}: renaming a variable updates its declaration or var(), and every {{ }}`, () => {
    assert.equal(renamed(at(text, '{{ test_out', 4), 'test_log'), text.replace('var(test_out)', 'var(test_log)').replace('{{ test_out }}', '{{ test_log }}'));
    assert.equal(
      renamed(at(text, 'origin {{ branch', 12), 'target'),
      text.replace(`${q}branch${q}: ${q}main`, `${q}target${q}: ${q}main`).replaceAll('{{ branch }}', '{{ target }}'),
    );
    const prepared = flowPrepare(doc, at(text, 'var(answer)', 5));
    assert.ok('loc' in prepared, JSON.stringify(prepared));
    assert.deepEqual([prepared.loc.start, prepared.loc.end, prepared.placeholder], [at(text, 'var(answer)', 4), at(text, 'var(answer)', 10), 'answer']);
  });

  test(`${form}: a rename that would break the flow is refused with the reason`, () => {
    const state = at(text, `${q}plan${q}:`, q.length);
    const variable = at(text, '{{ issue_json', 4);
    const cases: Array<[what: string, offset: number, name: string, error: RegExp]> = [
      ['a leading _', state, '_plan', /`_plan` is reserved/],
      ['a slash', variable, 'a/b', /`a\/b` is reserved/],
      ['a state name that is taken', state, 'stop', /already has a state named `stop`/],
      ['a variable name that is taken', variable, 'branch', /already has a variable named `branch`/],
      ['not a plain name', state, 'two words', /letters, digits/],
      ['a YAML word', state, 'yes', /YAML word/],
      ['a tool', at(text, `${q}claude${q}`, q.length + 1), 'llm', /Only states and variables/],
      ['a sub-flow\'s variable', at(text, 'notes::summary', 9), 'sum', /sub-flow's own file/],
    ];
    for (const [what, offset, name, error] of cases) {
      const r = flowRename(doc, offset, name);
      assert.ok('error' in r && error.test(r.error), `${what}: ${JSON.stringify(r)}`);
    }
    assert.ok('error' in flowPrepare(doc, at(text, `${q}claude${q}`, q.length + 1)));
  });
}
