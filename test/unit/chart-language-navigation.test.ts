import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartDefinition, chartReferences } from '../../src/engine/language/index.js';
import { parse } from 'yaml';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { at, chartDoc, featureChart } from './helpers/chart-doc.js';

for (const form of ['yaml', 'json'] as const) {
  const doc = featureChart(form);
  const { text } = doc;
  const q = form === 'json' ? '"' : '';
  const words = (locs: ReadonlyArray<{ start: number; end: number }>) => locs.map((l) => text.slice(l.start, l.end));

  test(`${form}: definition from a reference lands on the definition`, () => {
    const cases: Array<[what: string, offset: number, definedAt: number]> = [
      ['a step of a dotted target', at(text, 'implement.coding', 'implement.'.length + 1), at(text, form === 'json' ? '"coding": {' : 'coding:', q.length)],
      ['a plain target in a region', at(text, `LGTM${q}: ${q}read`, `LGTM${q}: ${q}`.length + 1), at(text, `${q}read${q}:`, q.length)],
      ['an initial', at(text, `initial${q}: ${q}open`, `initial${q}: ${q}`.length + 1), at(text, `${q}open${q}:`, q.length)],
      ['a named action in entry', at(text, 'count_attempt', 2), at(text, 'count_attempt', 0, 1)],
      ['a context key in an expression', at(text, 'context.attempts', 'context.'.length + 2), at(text, `${q}attempts${q}: 0`, q.length)],
      ['a region id', at(text, `${q}reading`, q.length + 1), at(text, `${q}reading`, q.length)],
    ];
    for (const [what, offset, definedAt] of cases) {
      const found = chartDefinition(doc, offset);
      assert.equal(found.length, 1, what);
      assert.equal(found[0]!.start, definedAt, `${what}: ${JSON.stringify(words(found))}`);
    }
  });

  test(`${form}: references find every use, across dotted paths, initials and expressions`, () => {
    const cases: Array<[what: string, offset: number, uses: string[]]> = [
      ['state coding', at(text, 'implement.coding', 'implement.'.length + 1), ['coding', 'coding', 'coding']],
      ['state implement', at(text, 'implement.coding', 1), ['implement', 'implement']],
      ['action count_attempt', at(text, 'count_attempt', 1), ['count_attempt']],
      ['context attempts', at(text, 'context.attempts', 'context.'.length + 1), ['attempts', 'attempts', 'attempts']],
    ];
    for (const [what, offset, uses] of cases) {
      assert.deepEqual(words(chartReferences(doc, offset, false)), uses, what);
      assert.equal(chartReferences(doc, offset, true).length, uses.length + 1, `${what} with its declaration`);
    }
  });
}

// A parallel state's region ids are states too (issue 14): a dotted target through a region, from outside
// the parallel state and from a sibling region, is a reference to the region, in both region forms.
const REGIONS_YAML = `statechart:
  id: pipeline
  initial: ci
  states:
    ci:
      type: parallel
      regions:
        - id: build
          initial: compiling
          states:
            compiling:
              on:
                BUILT: built
                RESTART: ci.build.compiling
            built:
              type: final
        - id: lint
          initial: linting
          states:
            linting:
              on:
                LINTED: done
                LINT_FAILED: ci.build.built
            done:
              type: final
      onAllDone: shipped
    shipped:
      on:
        AGAIN: ci.build
        LINT_AGAIN: ci.lint.linting
`;
const XSTATE_REGIONS_YAML = REGIONS_YAML.replace(/ {6}regions:\n[\s\S]*?(?= {6}onAllDone)/, (regions) =>
  `      states:\n${regions
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/^ {8}- id: (\w+)$/, '        $1:').replace(/^ {10}/, '          '))
    .join('\n')}`,
);

for (const [form, yaml] of [['regions list', REGIONS_YAML], ['XState states form', XSTATE_REGIONS_YAML]] as const) {
  for (const syntax of ['yaml', 'json'] as const) {
    test(`${syntax}, ${form}: references of a parallel region id find every dotted path through it, and only those`, () => {
      const text = syntax === 'yaml' ? yaml : JSON.stringify(parse(yaml), null, 2);
      const doc = chartDoc(text, `pipeline.statechart.${syntax}`);
      assert.ok(doc.workflow, 'the chart loads');
      assert.equal(text.includes('regions'), form === 'regions list', 'the form under test');
      assert.deepEqual(checkWorkflowFile(text, `pipeline.statechart.${syntax}`, { resolveSrc: false }).diagnostics.map((d) => d.code), [], 'a clean chart');
      assert.ok(doc.workflow.states.has('ci.build') && doc.workflow.states.get('ci.build')?.chart?.region, 'build is a region of ci');
      const q = syntax === 'json' ? '"' : '';
      const declaration = form === 'regions list' ? at(text, `${q}id${q}: ${q}build`, `${q}id${q}: ${q}`.length) : at(text, `${q}build${q}:`, q.length);
      const uses = ['ci.build.compiling', 'ci.build.built', `ci.build${q || '\n'}`].map((path) => at(text, `${q}${path}`, q.length + 'ci.'.length));
      const starts = (locs: ReadonlyArray<{ start: number }>) => locs.map((l) => l.start).sort((a, b) => a - b);
      const words = (locs: ReadonlyArray<{ start: number; end: number }>) => locs.map((l) => text.slice(l.start, l.end));
      // Asked on the declaration and on each use: the same set.
      for (const from of [declaration + 1, ...uses.map((u) => u + 2)]) {
        const refs = chartReferences(doc, from, false);
        assert.deepEqual(starts(refs), uses, `references from offset ${from}: ${JSON.stringify(words(refs))}`);
        assert.deepEqual(words(refs), ['build', 'build', 'build']);
        assert.deepEqual(starts(chartReferences(doc, from, true)), [declaration, ...uses].sort((a, b) => a - b), 'with the declaration');
      }
      // The other region's references are its own (ci.lint.linting), none of build's.
      assert.deepEqual(starts(chartReferences(doc, at(text, `ci.lint.linting`, 'ci.'.length + 1), false)), [at(text, 'ci.lint.linting', 'ci.'.length)]);
    });
  }
}
