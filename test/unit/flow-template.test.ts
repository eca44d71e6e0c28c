/**
 * `{{ var }}` templating: textual substitution, `state::var` names, text
 * between braces that is not a variable left alone, and an undefined variable
 * an error naming it (never an empty string), in a run too.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flowStatus, startFlow } from '../../src/engine/index.js';
import { renderText, renderValue, UndefinedVariableError } from '../../src/engine/flow/template.js';
import { bash, flowWorkspace } from './helpers/flow-workspace.js';
import { testHost } from './helpers/flow-host.js';

const VARS = { name: 'world', empty: '', 'sub::out': 'from child', quote: `it's "q"` };

describe('renderText', () => {
  const cases: [string, string][] = [
    ['hello {{ name }}', 'hello world'],
    ['{{name}}{{  name  }}', 'worldworld'],
    ['[{{ empty }}]', '[]'],
    ['{{ sub::out }}', 'from child'],
    ["echo '{{ quote }}'", `echo 'it's "q"'`],
    ['no template', 'no template'],
    ['{{ .Field }} {{ 1x }} { name }', '{{ .Field }} {{ 1x }} { name }'],
    ['{{ name }}\n{{ name }}', 'world\nworld'],
  ];
  for (const [text, out] of cases) it(JSON.stringify(text), () => assert.equal(renderText(text, VARS), out));

  for (const [text, missing] of [
    ['hi {{ nobody }}', 'nobody'],
    ['{{ name }} {{ sub::missing }}', 'sub::missing'],
    ['{{ constructor }}', 'constructor'],
  ] as const) {
    it(`${JSON.stringify(text)} names ${missing}`, () => {
      assert.throws(
        () => renderText(text, VARS),
        (err: unknown) => err instanceof UndefinedVariableError && err.variable === missing && err.message.includes(`{{ ${missing} }}`),
      );
    });
  }

  it('renders inside lists and objects, leaving other values', () => {
    assert.deepEqual(renderValue({ a: ['{{ name }}', 1, true, null], b: { c: '{{ empty }}x' } }, VARS), { a: ['world', 1, true, null], b: { c: 'x' } });
  });
});

describe('templating in a run', () => {
  it('substitutes defaults, --var and captured variables; numbers as their text', async (t) => {
    const ws = flowWorkspace(t, {
      't.flow.yaml': {
        'start-at': 'a',
        variables: { n: 42, who: 'default' },
        states: { a: bash('echo "{{ who }}-{{ n }}-{{ extra }}"', { output: 'var(out)', next: 'b' }), b: bash('echo "[{{ out }}]" > seen.txt') },
      },
    });
    const s = await startFlow(testHost(ws), { file: 't.flow.yaml', vars: { who: 'cli', extra: 'x' } });
    assert.equal(s.status, 'completed');
    assert.equal(s.variables.out, 'cli-42-x');
    assert.equal(fs.readFileSync(path.join(ws, 'seen.txt'), 'utf8'), '[cli-42-x]\n');
  });

  it('an undefined variable fails the state naming it; the command never runs', async (t) => {
    const ws = flowWorkspace(t, {
      // `maybe` is captured only on the path not taken, so validation does not warn and the run must stop.
      't.flow.yaml': {
        'start-at': 'a',
        states: {
          a: bash('exit 1', { next: 'set', 'on-error': { _: 'use' } }),
          set: bash('echo x', { output: 'var(maybe)', next: 'use' }),
          use: bash('touch ran-{{ maybe }}.txt; touch ran.txt'),
        },
      },
    });
    const s = await startFlow(testHost(ws), { file: 't.flow.yaml' });
    assert.equal(s.status, 'failed');
    assert.equal(s.exit_code, 1);
    assert.equal(s.state, 'use');
    assert.match(s.message ?? '', /^state `use`: `\{\{ maybe \}\}` is not defined/);
    assert.equal(fs.existsSync(path.join(ws, 'ran.txt')), false);
    assert.equal(fs.existsSync(path.join(ws, 'ran-.txt')), false);
    assert.deepEqual(
      flowStatus(ws, s.instance).log.map((e) => [e.state, e.exit_code]),
      [
        ['a', 1],
        ['use', null],
      ],
    );
  });
});
