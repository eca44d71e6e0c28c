/**
 * The parse tree of the fast JSON path and the statechart IR's numerous objects
 * are made by constructors (formats/tree-node.ts, formats/ir-objects.ts say
 * why: V8 pretenures object literals whose objects survive, and a loaded chart
 * all does). These tests fail when one of those places goes back to a literal,
 * and check that the objects still look like the plain data they replace.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { fastParseTree } from '../../src/engine/formats/fast-tree';
import { loadWorkflowText } from '../../src/engine/formats/index';
import type { JsonNode } from '../../src/engine/formats/jsonc';
import { ALWAYS, Candidate, DONE, Loc } from '../../src/engine/formats/ir-objects';
import type { ChartTransition, Workflow } from '../../src/engine/model/index';
import { generateChartText } from '../../bench/generate-statechart';

const generated = generateChartText(40).text;
const forms = [
  ['YAML', 'generated.statechart.yaml', generated],
  ['JSON', 'generated.statechart.json', JSON.stringify(parse(generated), null, 2)],
] as const;

/** Every object reachable from `root` (not through `parent` links nor the keys in `skip`), with the key it was found under. */
function reachable(root: unknown, skip: ReadonlySet<string> = new Set()): { value: object; key: string }[] {
  const seen = new Set<object>();
  const out: { value: object; key: string }[] = [];
  const stack: { value: unknown; key: string }[] = [{ value: root, key: '(root)' }];
  while (stack.length) {
    const { value, key } = stack.pop()!;
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    out.push({ value, key });
    const entries = value instanceof Map ? [...value.entries()].map(([k, v]) => [String(k), v] as const) : Object.entries(value);
    for (const [k, v] of entries) if (k !== 'parent' && !skip.has(k)) stack.push({ value: v, key: k });
  }
  return out;
}

const isLiteral = (o: object) => !Array.isArray(o) && !(o instanceof Map) && !(o instanceof Set) && Object.getPrototypeOf(o) === Object.prototype;

describe('parse trees and the statechart IR are made by constructors', () => {
  it('the fast JSON path builds no node as an object literal', () => {
    const jsonTree = fastParseTree(forms[1][2]);
    assert.ok(jsonTree, 'the fast path takes the generated chart');
    for (const tree of [jsonTree]) {
      const nodes = reachable(tree).map((r) => r.value).filter((o) => !Array.isArray(o)) as JsonNode[];
      assert.ok(nodes.length > 1000, `the tree has its nodes (${nodes.length})`);
      const literal = nodes.filter(isLiteral);
      assert.deepEqual(literal.map((n) => `${n.type} at ${n.offset}`), []);
    }
  });

  for (const [form, file, text] of forms) {
    it(`a loaded chart (${form}) keeps no object literal among its states, transitions, names and ranges`, () => {
      const loaded = loadWorkflowText(text, file);
      assert.deepEqual(loaded.diagnostics, []);
      const wf = loaded.workflow as Workflow;
      // Statewright's rules and the author's own data (meta, inline actions) are read as they always were.
      const checked = reachable([...wf.states.values()], new Set(['rules', 'meta', 'action']));
      const shared = new Set<object>([ALWAYS, DONE]); // made once, not per load
      assert.ok(checked.some(({ value }) => value === DONE), 'the chart has done transitions');
      const literals = checked.filter(({ value }) => isLiteral(value) && !shared.has(value)).map(({ key, value }) => `${key}: ${Object.keys(value).join(',')}`);
      assert.deepEqual([...new Set(literals)], []);
      const locs = checked.filter(({ value }) => 'pointer' in value && 'start' in value);
      assert.ok(locs.length > 200 && locs.every(({ value }) => value instanceof Loc), 'every range is a Loc');
    });
  }

  it('they look like the literals they replace: own fields, their order, no field that is not set', () => {
    const wf = loadWorkflowText(generated, 'generated.statechart.yaml').workflow as Workflow;
    const first = wf.states.get('g0.g0_0')!;
    const [guarded, plain, timed] = first.chart!.transitions as (ChartTransition & { eventLoc?: unknown })[];
    assert.ok(guarded instanceof Candidate && plain instanceof Candidate && timed instanceof Candidate);
    assert.deepEqual(Object.keys(guarded), ['trigger', 'targets', 'guard', 'actions', 'reenter', 'loc', 'eventLoc']);
    assert.deepEqual(Object.keys(plain), ['trigger', 'targets', 'actions', 'reenter', 'loc', 'eventLoc']);
    assert.ok(!('guard' in plain), 'a candidate without a guard has no `guard` field at all');
    assert.deepEqual(Object.keys(timed), ['trigger', 'targets', 'actions', 'reenter', 'loc']);
    assert.equal(JSON.stringify(timed.trigger), '{"kind":"after","delay":60000}');
    assert.equal(JSON.stringify(guarded.trigger), '{"kind":"event","event":"NEXT"}');
    assert.deepEqual(Object.keys(first.chart!.entry[0]!), ['kind', 'name']);
    const loc = guarded.targets[0]!.loc;
    assert.deepEqual(JSON.parse(JSON.stringify(loc)), { pointer: '/statechart/states/g0/states/g0_0/on/NEXT/0/target', start: loc.start, end: loc.end });
    assert.equal(generated.slice(loc.start, loc.end), 'g0_1');
    assert.deepEqual(structuredClone(guarded.guard), { text: 'context.n >= 0 and len(context.tags) < 100', loc: { ...guarded.guard!.loc } });
    assert.deepEqual(Object.keys(first), ['key', 'id', 'kind', 'children', 'rules', 'on', 'keyLoc', 'loc', 'fieldLocs', 'parent', 'chart']);
    assert.deepEqual(Object.keys(first.fieldLocs!), ['entry', 'on', 'after']);
  });
});
