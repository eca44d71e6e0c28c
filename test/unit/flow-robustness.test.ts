/**
 * Bad flow files never throw: every prefix of a flow (malformed YAML and JSON
 * cut anywhere), and every value of a flow replaced by each wrong type, give
 * diagnostics with ranges inside the text, never an exception. Systematic,
 * not random: the same cases every run.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { exportWorkflow } from '../../src/engine/index.js';

const FLOW = {
  name: 'n',
  'start-at': 'a',
  variables: { v: 'x' },
  states: {
    a: { tool: 'bash', arguments: { command: 'echo {{ v }}' }, output: 'var(o)', next: 's', 'on-error': { '1': 'p', _: 's' } },
    s: { tool: 'switch', arguments: { value: '{{ o }}' }, goto: { x: 'p', _: 'f' } },
    p: { tool: 'parallel', arguments: { tasks: ['f', { tool: 'bash', arguments: { command: 'x' }, output: 'file(o.txt)' }] }, next: 'f' },
    f: { tool: 'sub-flow', arguments: { workflow: 'c.flow.yaml' } },
  },
};

const WRONG: unknown[] = [null, 0, -1, 1.5, true, '', 'var(', [], [null], {}, { x: [] }];

/** Every path to a value in the object (arrays by index). */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

function replaced(root: unknown, at: (string | number)[], value: unknown): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[at[at.length - 1]!] = value;
  return copy;
}

function checkAll(text: string, file: string): void {
  const r = checkWorkflowFile(text, file, { resolveInvoke: false });
  for (const d of r.diagnostics) {
    assert.ok(d.loc.start >= -1 && d.loc.start <= d.loc.end && d.loc.end <= text.length, `${d.code} at ${d.loc.start}-${d.loc.end} of ${text.length}`);
    assert.ok(d.message.length > 0);
  }
  if (r.workflow) exportWorkflow(r.workflow, 'mermaid');
}

describe('flow files that are wrong everywhere never throw', () => {
  it('the base flow is clean', () => {
    const r = checkWorkflowFile(stringify(FLOW), 'x.flow.yaml', { resolveInvoke: false });
    assert.deepEqual(r.diagnostics, []);
  });

  it('every value replaced by each wrong type (YAML and JSON)', () => {
    let cases = 0;
    for (const at of paths(FLOW)) {
      for (const value of WRONG) {
        const doc = replaced(FLOW, at, value);
        checkAll(stringify(doc), 'x.flow.yaml');
        checkAll(JSON.stringify(doc), 'x.flow.json');
        cases++;
      }
    }
    assert.ok(cases > 300);
  });

  it('every prefix of the file (malformed YAML and JSON)', () => {
    for (const [text, file] of [
      [stringify(FLOW), 'x.flow.yaml'],
      [JSON.stringify(FLOW, null, 1), 'x.flow.json'],
    ] as const) {
      for (let n = 0; n <= text.length; n++) checkAll(text.slice(0, n), file);
    }
  });

  it('YAML that is not a flow at all', () => {
    for (const text of ['', '---', '- a\n- b', 'a: [', '"x"', 'states: &a [*a]', '? [a]: b', 'start-at: a\nstates:\n  a: *nope\n', '\t: x', '{{ x }}']) {
      checkAll(text, 'x.flow.yaml');
    }
  });
});
