import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { applyEdits, chartFixes } from '../../src/engine/language/index.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { chartDoc } from './helpers/chart-doc.js';

const lines = (...l: string[]): string => `${l.join('\n')}\n`;

/** Each chart has one problem; the fix named by `title` leaves a chart with no problems. */
const CASES: Array<[what: string, yaml: string, code: string, title: string]> = [
  [
    'a misspelt target: did you mean',
    lines('statechart:', '  id: c', '  initial: a', '  states:', '    a:', '      on:', '        GO: finsh', '    finish:', '      type: final'),
    'chart-unknown-target',
    'Change to `finish`',
  ],
  [
    'a missing state: create it beside the source',
    lines('statechart:', '  id: c', '  initial: p', '  states:', '    p:', '      initial: a', '      states:', '        a:', '          on:', '            GO: b', '            STOP: z', '        z: { type: final }', '      onDone: end', '    end: { type: final }'),
    'chart-unknown-target',
    'Create state `b` in `p`',
  ],
  [
    'a missing action: create it',
    lines('statechart:', '  id: c', '  initial: a', '  states:', '    a:', '      entry: [notify]', '      on: { GO: b }', '    b: { type: final }'),
    'chart-unknown-action',
    'Create action `notify`',
  ],
  [
    'a compound without initial: add one',
    lines('statechart:', '  id: c', '  initial: p', '  states:', '    p:', '      states:', '        a: { on: { GO: b } }', '        b: { type: final }'),
    'chart-initial',
    'Add `initial: a`',
  ],
  [
    'a region without a final state: add one',
    lines(
      'statechart:',
      '  id: c',
      '  initial: par',
      '  states:',
      '    par:',
      '      type: parallel',
      '      regions:',
      '        - id: left',
      '          initial: l1',
      '          states:',
      '            l1: {}',
      '        - id: right',
      '          initial: r1',
      '          states:',
      '            r1: { type: final }',
      '      onAllDone: end',
      '    end: { type: final }',
    ),
    'chart-region-final',
    'Add final state `done` to region `left` (reached from `l1` on `DONE`)',
  ],
  [
    'env.NAME with no env: declared: declare it',
    lines('statechart:', '  id: c', '  initial: a', '  states:', '    a:', "      on: { GO: { target: b, guard: \"env.REGION == 'eu'\" } }", '    b: { type: final }'),
    'chart-env-undeclared',
    'Declare `REGION` under `env:`',
  ],
  [
    'env.NAME missing from an env: map: add it',
    lines('statechart:', '  id: c', '  env:', '    TIER: free', '  initial: a', '  states:', '    a:', "      on: { GO: { target: b, guard: 'env.REGION == env.TIER' } }", '    b: { type: final }'),
    'chart-env-undeclared',
    'Declare `REGION` under `env:`',
  ],
  [
    'env.NAME misspelt: change to the declared name',
    lines('statechart:', '  id: c', '  env: [REGION]', '  initial: a', '  states:', '    a:', "      on: { GO: { target: b, guard: \"env.REGON == 'eu'\" } }", '    b: { type: final }'),
    'chart-env-undeclared',
    'Change to `REGION`',
  ],
];

for (const form of ['yaml', 'json'] as const) {
  test(`${form}: each quick fix leaves a chart without the problem`, () => {
    for (const [what, yaml, code, title] of CASES) {
      const text = form === 'yaml' ? yaml : JSON.stringify(parse(yaml), null, 2);
      const file = `c.statechart.${form}`;
      const doc = chartDoc(text, file);
      const problems = checkWorkflowFile(text, file, { resolveSrc: false }).diagnostics;
      const d = problems.find((x) => x.code === code);
      assert.ok(d, `${what}: ${code} in ${JSON.stringify(problems.map((x) => x.code))}`);
      const fix = chartFixes(doc, d).find((f) => f.title === title);
      assert.ok(fix, `${what}: "${title}" in ${JSON.stringify(chartFixes(doc, d).map((f) => f.title))}`);
      const out = applyEdits(text, fix.edits);
      assert.deepEqual(checkWorkflowFile(out, file, { resolveSrc: false }).diagnostics.map((x) => `${x.code}: ${x.message}`), [], `${what}:\n${out}`);
    }
  });
}
