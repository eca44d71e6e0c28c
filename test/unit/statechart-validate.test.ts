/**
 * Statechart validation: every example of the AGENT-33 seed validates clean,
 * and each of the ten rules has a failing fixture (its code and exact range
 * asserted) and a passing one (no diagnostics at all), in YAML as written and
 * in JSON converted from it. Expected ranges are computed from the fixture by
 * the `yaml` package and jsonc-parser themselves (the node at a path, its key
 * or its contents), not by the loader under test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { isMap, isScalar, parseDocument, Scalar, type Node as YamlNode } from 'yaml';
import { checkFile, checkWorkflowFile } from '../../src/engine/check/check-file.js';
import type { Diagnostic, Severity } from '../../src/engine/model/index.js';
import { closestName, MAX_SUGGESTED_LENGTH } from '../../src/engine/util/suggest.js';
import { withCode, type Range } from './support/ranges.js';
import { cli, requireBuiltCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dir.js';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'statecharts');
const SPEC = path.join(FIXTURES, 'spec');
const RULES = path.join(FIXTURES, 'rules');

type Syntax = 'yaml' | 'json';
type Path = readonly (string | number)[];

/** The fixture's text in either syntax (JSON: converted from the YAML, keys in the same order). */
function fixture(file: string, syntax: Syntax): string {
  const text = fs.readFileSync(file, 'utf8');
  if (syntax === 'yaml' || file.endsWith('.json')) return text;
  return `${JSON.stringify(parseDocument(text).toJS(), null, 2)}\n`;
}

/** Rule 8 looks beyond the chart through a resolver; here nothing is found outside it. */
function check(text: string, file: string): Diagnostic[] {
  return checkWorkflowFile(text, file, { resolveSrc: () => undefined }).diagnostics;
}

function nameFor(file: string, syntax: Syntax): string {
  return syntax === 'json' ? file.replace(/\.ya?ml$/, '.json') : file;
}

/** Where a diagnostic is expected: a node's key, or its value (a string's contents), optionally a substring of it. */
interface At {
  readonly path: Path;
  readonly part: 'key' | 'value';
  readonly inner?: string;
}

function expectedRange(text: string, syntax: Syntax, at: At): Range {
  const r = syntax === 'yaml' ? yamlRange(text, at) : jsonRange(text, at);
  if (at.inner === undefined) return r;
  const offset = text.slice(r.start, r.end).indexOf(at.inner);
  assert.ok(offset >= 0, `${at.inner} not inside ${text.slice(r.start, r.end)}`);
  return { start: r.start + offset, end: r.start + offset + at.inner.length };
}

function yamlRange(text: string, at: At): Range {
  const doc = parseDocument(text);
  if (at.part === 'key') {
    const parent = doc.getIn(at.path.slice(0, -1), true) as YamlNode;
    assert.ok(isMap(parent));
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.source ?? p.key.value) === String(at.path[at.path.length - 1]));
    const key = pair?.key as Scalar | undefined;
    assert.ok(key?.range);
    return contents(key);
  }
  const node = doc.getIn(at.path, true) as Scalar | undefined;
  assert.ok(node?.range, `no node at ${at.path.join('/')}`);
  return contents(node);
}

function contents(node: Scalar): Range {
  const [start, end] = node.range as [number, number, number];
  const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
  return quoted ? { start: start + 1, end: end - 1 } : { start, end };
}

function jsonRange(text: string, at: At): Range {
  const node = findNodeAtLocation(parseTree(text)!, [...at.path]);
  assert.ok(node, `no node at ${at.path.join('/')}`);
  const target = at.part === 'key' ? node.parent!.children![0]! : node;
  return target.type === 'string' ? { start: target.offset + 1, end: target.offset + target.length - 1 } : { start: target.offset, end: target.offset + target.length };
}

const S = (...rest: (string | number)[]): Path => ['statechart', 'states', ...rest];

interface Row {
  readonly rule: number;
  readonly code: string;
  readonly bad: string;
  readonly good: string;
  readonly at: At;
  readonly severity?: Severity;
}

const rows: Row[] = [
  { rule: 1, code: 'chart-initial', bad: '01-initial.bad', good: '01-initial.good', at: { path: S('processing'), part: 'key' } },
  { rule: 1, code: 'chart-initial', bad: '01-initial-unknown.bad', good: '01-initial.good', at: { path: ['statechart', 'initial'], part: 'value' } },
  { rule: 2, code: 'chart-unknown-target', bad: '02-unknown-target.bad', good: '02-unknown-target.good', at: { path: S('drafting', 'on', 'SUBMIT', 'target'), part: 'value' } },
  { rule: 2, code: 'chart-unknown-target', bad: '02-unknown-child.bad', good: '02-unknown-target.good', at: { path: S('drafting', 'on', 'JUMP', 'target'), part: 'value' } },
  { rule: 3, code: 'chart-unreachable', bad: '03-unreachable.bad', good: '03-unreachable.good', at: { path: S('orphan'), part: 'key' } },
  { rule: 4, code: 'chart-parallel-regions', bad: '04-parallel-regions.bad', good: '04-parallel-regions.good', at: { path: S('checks'), part: 'key' } },
  { rule: 5, code: 'chart-region-final', bad: '05-region-final.bad', good: '05-region-final.good', at: { path: S('checks', 'regions', 1, 'id'), part: 'value' } },
  { rule: 6, code: 'chart-guard-syntax', bad: '06-guard-syntax.bad', good: '06-guard-syntax.good', at: { path: S('drafting', 'on', 'SUBMIT', 0, 'guard'), part: 'value', inner: '>>' } },
  { rule: 7, code: 'chart-unknown-action', bad: '07-unknown-action.bad', good: '07-unknown-action.good', at: { path: S('reviewing', 'entry', 0), part: 'value' } },
  { rule: 7, code: 'chart-unknown-action', bad: '07-unknown-action-type.bad', good: '07-unknown-action.good', at: { path: S('reviewing', 'entry', 0, 'type'), part: 'value' } },
  { rule: 8, code: 'chart-unknown-src', bad: '08-unknown-src.bad', good: '08-unknown-src.good', at: { path: S('deploying', 'invoke', 'src'), part: 'value' } },
  { rule: 8, code: 'chart-unknown-src', bad: '08-unknown-service.bad', good: '08-unknown-src.good', at: { path: S('running', 'invoke', 'src'), part: 'value' } },
  { rule: 9, code: 'chart-always-cycle', bad: '09-always-cycle.bad', good: '09-always-cycle.good', at: { path: S('a', 'always'), part: 'value' } },
  {
    rule: 9,
    code: 'chart-always-cycle',
    bad: '09-always-guarded.warn',
    good: '09-always-cycle.good',
    at: { path: S('counting', 'always', 'guard'), part: 'value' },
    severity: 'warning',
  },
  { rule: 10, code: 'chart-context-mismatch', bad: '10-context-mismatch.bad', good: '10-context-mismatch.good', at: { path: S('reviewing', 'on', 'ASSIGN', 'actions', 0, 'context_updates', 'reviewr'), part: 'key' } },
  { rule: 10, code: 'chart-context-mismatch', bad: '10-context-type.bad', good: '10-context-mismatch.good', at: { path: S('reviewing', 'on', 'SCORE', 'actions', 0, 'context_updates', 'score'), part: 'value' } },
];

describe('statechart validation: the ten rules', () => {
  it('has a failing and a passing fixture for every rule', () => {
    assert.deepEqual([...new Set(rows.map((r) => r.rule))], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const files = fs.readdirSync(RULES).map((f) => f.replace(/\.statechart\.yaml$/, ''));
    assert.deepEqual([...new Set(rows.flatMap((r) => [r.bad, r.good]))].sort(), files.sort(), 'every rule fixture has a row');
  });

  for (const row of rows) {
    for (const syntax of ['yaml', 'json'] as const) {
      it(`rule ${row.rule} ${row.code}: ${row.bad} (${syntax}) at the exact range`, () => {
        const file = path.join(RULES, `${row.bad}.statechart.yaml`);
        const text = fixture(file, syntax);
        const diagnostics = check(text, nameFor(file, syntax));
        assert.deepEqual(withCode(diagnostics, row.code), [{ code: row.code, ...expectedRange(text, syntax, row.at) }], JSON.stringify(diagnostics, null, 1));
        assert.equal(diagnostics.find((d) => d.code === row.code)?.severity, row.severity ?? 'error');
        const others = diagnostics.filter((d) => d.code !== row.code);
        assert.deepEqual(others, [], 'the failing fixture fails only this rule');
      });

      it(`rule ${row.rule} ${row.code}: ${row.good} (${syntax}) is clean`, () => {
        const file = path.join(RULES, `${row.good}.statechart.yaml`);
        assert.deepEqual(check(fixture(file, syntax), nameFor(file, syntax)), []);
      });
    }
  }
});

describe('statechart validation: the seed examples', () => {
  const files = fs.readdirSync(SPEC).sort();
  it('covers every example of the seed', () => {
    const expected = [
      'actions', 'after', 'always', 'atomic', 'canonical', 'compound', 'context', 'final', 'guarded-submit', 'history-resume', 'history',
      'invoke-agent', 'invoke-child', 'invoke-service', 'machine-registry', 'meta', 'parallel', 'pipeline', 'review-workflow', 'wildcard',
    ];
    assert.deepEqual(files.map((f) => f.replace(/\.statechart\.(yaml|json)$/, '')), expected);
  });
  for (const name of files) {
    for (const syntax of ['yaml', 'json'] as const) {
      if (name.endsWith('.json') && syntax === 'yaml') continue;
      it(`${name} (${syntax}) loads and validates with no diagnostics`, () => {
        const file = path.join(SPEC, name);
        // The default resolver: the real folder (invoke-child's `statechart:review_workflow` is beside it).
        const result = checkFile(fixture(file, syntax), nameFor(file, syntax));
        assert.equal(result.format, 'statechart');
        assert.ok(result.workflow, 'loads');
        assert.deepEqual(result.diagnostics, []);
      });
    }
  }
});

describe('statechart validation: details docs/statecharts-validation.md gives', () => {
  const yaml = (body: string) => `statechart:\n  id: t\n${body}`;
  const codes = (text: string) => check(text, 'detail.statechart.yaml').map((d) => `${d.severity} ${d.code}`);

  it('rule 5: an ancestor of the parallel state leaving it by an event exempts the regions', () => {
    const chart = (on: string) =>
      yaml(`  initial: start
  states:
    start: {on: {GO: outer, END: done}}
    outer:
      initial: par
${on}      states:
        par:
          regions:
            - {id: a, initial: x, states: {x: {}}}
            - {id: b, initial: y, states: {y: {}}}
    done: {type: final}
`);
    assert.deepEqual(codes(chart('')), ['error chart-region-final', 'error chart-region-final']);
    assert.deepEqual(codes(chart('      on: {CANCEL: done}\n')), []);
    // A transition that stays inside the parallel state does not leave it.
    assert.deepEqual(codes(chart('      on: {CANCEL: outer.par}\n')), ['error chart-region-final', 'error chart-region-final']);
  });

  it('rule 9: a targetless or self-targeting `always` loops only when it assigns (as XState v5 does)', () => {
    const chart = (always: string) =>
      yaml(`  initial: a
  context: {n: 0}
  states:
    a:
      always: ${always}
      on: {DONE: done}
    done: {type: final}
`);
    assert.deepEqual(codes(chart('{actions: [{type: log, message: hi}]}')), []);
    assert.deepEqual(codes(chart('a')), []);
    assert.deepEqual(codes(chart('{target: a, reenter: true}')), []);
    assert.deepEqual(codes(chart('{actions: [{type: assign, context_updates: {n: "context.n + 1"}}]}')), ['error chart-always-cycle']);
    assert.deepEqual(codes(chart('{guard: "context.n < 3", actions: [{type: assign, context_updates: {n: "context.n + 1"}}]}')), ['warning chart-always-cycle']);
  });

  it('rule 9: a parent whose `always` re-enters a child that hands back loops', () => {
    const text = yaml(`  initial: p
  states:
    p:
      initial: x
      always: p.x
      states:
        x: {always: y}
        y: {on: {GO: x}}
      on: {DONE: done}
    done: {type: final}
`);
    assert.deepEqual(codes(text), ['error chart-always-cycle']);
  });

  // Eventless transitions in sibling regions of a parallel state: one that stays inside its region enters
  // nothing in the others, so they do not feed each other; one that leaves its region through the
  // parallel state re-enters the other regions, and a loop through it is still a cycle.
  const parallelAlways: { name: string; r1: string; r2: string; expect: string[] }[] = [
    { name: 'each region moves on by `always` inside itself', r1: '{a: {always: b}, b: {type: final}}', r2: '{c: {always: d}, d: {type: final}}', expect: [] },
    { name: 'chained `always` in both regions', r1: '{a: {always: b}, b: {always: e}, e: {type: final}}', r2: '{c: {always: d}, d: {always: f}, f: {type: final}}', expect: [] },
    {
      name: 'an `always` that leaves its region for a sibling region re-enters its own region by default: a real loop',
      r1: '{a: {always: b}, b: {always: {target: p.r2.d, actions: [{type: assign, context_updates: {n: "context.n + 1"}}]}}}',
      r2: '{c: {on: {GO: d}}, d: {type: final}}',
      expect: ['error chart-always-cycle'],
    },
    {
      name: 'two regions handing over to each other through the parallel state, guarded: a loop only the guards end',
      r1: '{a: {always: {target: p.r2.d, guard: "context.n < 3"}}}',
      r2: '{c: {}, d: {always: {target: p.r1.a, guard: "context.n > 5"}}}',
      expect: ['warning chart-always-cycle'],
    },
  ];
  for (const c of parallelAlways) {
    it(`rule 9, parallel regions: ${c.name}`, () => {
      const text = yaml(`  initial: p
  context: {n: 0}
  states:
    p:
      type: parallel
      states:
        r1: {initial: a, states: ${c.r1}}
        r2: {initial: c, states: ${c.r2}}
      onDone: done
      on: {STOP: done}
    done: {type: final}
`);
      assert.deepEqual(codes(text), c.expect);
    });
  }

  // `version` is semver (check/chart-version.ts: semver.org's grammar); before, any string or number passed.
  const versions: { written: string; expect: string[] }[] = [
    { written: '"1.2.0"', expect: [] },
    { written: '"2.0.0-rc.1+build.5"', expect: [] },
    { written: '"1.2"', expect: ['error chart-version'] },
    { written: '"v1.2.0"', expect: ['error chart-version'] },
    { written: '"01.2.0"', expect: ['error chart-version'] },
    { written: '1.10', expect: ['error chart-version'] },
    { written: '"latest"', expect: ['error chart-version'] },
  ];
  for (const v of versions) {
    it(`version ${v.written}: ${v.expect.length ? 'not semver' : 'semver'}`, () => {
      const text = yaml(`  version: ${v.written}\n  initial: a\n  states:\n    a: {type: final}\n`);
      const found = check(text, 'detail.statechart.yaml');
      assert.deepEqual(found.map((d) => `${d.severity} ${d.code}`), v.expect);
      if (v.expect.length) assert.equal(text.slice(found[0]!.loc.start, found[0]!.loc.end), v.written.replace(/^"|"$/g, ''));
    });
  }

  // An action's \`data\` reads the context like a guard does: an undeclared key warns, inside the string
  // (before, data was not looked at: no diagnostic).
  const dataReads: { name: string; data: string; expect: string[]; at?: string }[] = [
    { name: 'declared keys and literals', data: '{who: "context.owner", note: "plain words", n: 3}', expect: [] },
    { name: 'an undeclared key in emit data', data: '{who: "context.ownr"}', expect: ['warning chart-context-mismatch'], at: 'context.ownr' },
    { name: 'nested in an object and a list', data: '{deep: {list: ["context.missing"]}}', expect: ['warning chart-context-mismatch'], at: 'context.missing' },
    { name: 'an undeclared env variable in data is an error', data: '{region: "env.REGION"}', expect: ['error chart-env-undeclared'], at: 'REGION' },
  ];
  for (const c of dataReads) {
    it(`action data: ${c.name}`, () => {
      const text = yaml(`  context: {owner: null}
  initial: a
  states:
    a:
      on:
        GO: {target: b, actions: [{type: emit, event: DONE, data: ${c.data}}]}
    b: {type: final}
`);
      const found = check(text, 'detail.statechart.yaml');
      assert.deepEqual(found.map((d) => `${d.severity} ${d.code}`), c.expect);
      if (c.at) assert.equal(text.slice(found[0]!.loc.start, found[0]!.loc.end), c.at);
    });
  }

  it('rule 10: a default of null takes any type; null may be written to any key; expressions are not literals', () => {
    const text = yaml(`  initial: a
  context: {who: null, n: 0, tags: []}
  states:
    a:
      on:
        GO:
          target: done
          actions:
            - type: assign
              context_updates: {who: 3, n: null, tags: "context.tags"}
    done: {type: final}
`);
    assert.deepEqual(codes(text), []);
  });

  it('rule 10: an expression reading an undeclared context key is a warning inside the expression', () => {
    const text = yaml(`  initial: a
  context: {score: 0}
  states:
    a:
      on:
        GO: {target: done, guard: "context.scroe > 1"}
    done: {type: final}
`);
    const d = check(text, 'detail.statechart.yaml');
    assert.deepEqual(withCode(d, 'chart-context-mismatch'), [{ code: 'chart-context-mismatch', start: text.indexOf('context.scroe'), end: text.indexOf('context.scroe') + 'context.scroe'.length }]);
    assert.equal(d[0]?.severity, 'warning');
    assert.match(d[0]!.message, /Did you mean `score`/);
  });

  it('rule 6: a guard written with escapes is reported on the whole string (offsets inside would not match the text)', () => {
    const text = '{"statechart": {"initial": "a", "states": {"a": {"on": {"GO": {"target": "a", "guard": "\\u0063ontext.a >> 1"}}}}}}';
    const d = check(text, 'escaped.statechart.json');
    const start = text.indexOf('\\u0063');
    assert.deepEqual(withCode(d, 'chart-guard-syntax'), [{ code: 'chart-guard-syntax', start, end: text.indexOf('1"}') + 1 }]);
  });

  it('named delays and assign updates that do not parse have their own code', () => {
    const text = yaml(`  initial: a
  context: {n: 0}
  states:
    a:
      after:
        "context.n +": done
      on:
        GO: {target: done, actions: [{type: assign, context_updates: {n: "(("}}]}
    done: {type: final}
`);
    assert.deepEqual(codes(text), ['error chart-expression-syntax', 'error chart-expression-syntax']);
  });
});

describe('"did you mean" on huge names (found by the statechart fuzzer: two 30,000-character names stalled it)', () => {
  it('a name longer than the limit gets no suggestion; a short one still does', () => {
    const long = 'a'.repeat(MAX_SUGGESTED_LENGTH);
    assert.equal(closestName(`${long}b`, [`${long}c`]), undefined);
    assert.equal(closestName('reveiw', ['review', 'a'.repeat(10_000)]), 'review');
  });

  it('an unknown target as long as a state name is reported without a suggestion', () => {
    const long = '😀'.repeat(15_000);
    const text = JSON.stringify({ statechart: { initial: 'a', states: { a: { on: { GO: `${long}x` } }, [long]: { on: { GO: 'a' } } } } });
    const d = check(text, 'long.statechart.json');
    assert.deepEqual(d.map((x) => x.code), ['chart-unknown-target']);
    assert.doesNotMatch(d[0]!.message, /Did you mean/);
  });
});

describe('statechart validation: invoke sources in the workspace', () => {
  const chart = (src: string) => `statechart:
  id: parent
  initial: a
  states:
    a:
      invoke: {src: "${src}", onDone: {target: done}}
    done: {type: final}
`;
  const child = (id: string, version: string) => `statechart:\n  id: ${id}\n  version: "${version}"\n  initial: s\n  states:\n    s: {type: final}\n`;

  function workspace(t: { after(fn: () => void): unknown }, registry?: string): string {
    const root = tempDir('sg-chart-src-', t);
    fs.mkdirSync(path.join(root, '.stategate', 'workflows'), { recursive: true });
    fs.mkdirSync(path.join(root, 'charts'));
    fs.writeFileSync(path.join(root, 'charts', 'deploy.statechart.yaml'), child('deploy', '2.0.0'));
    fs.writeFileSync(path.join(root, '.stategate', 'workflows', 'review.statechart.json'), JSON.stringify({ statechart: { id: 'review', version: '1.0.0', initial: 's', states: { s: { type: 'final' } } } }));
    if (registry !== undefined) fs.writeFileSync(path.join(root, '.stategate', 'registry.yaml'), registry);
    return root;
  }
  const srcCodes = (root: string, src: string) => {
    const file = path.join(root, 'charts', 'parent.statechart.yaml');
    return checkFile(chart(src), file).diagnostics.map((d) => `${d.code}: ${d.message}`);
  };

  it('finds charts by id beside the file and in .stategate/workflows/, with the version asked for', (t) => {
    const root = workspace(t);
    assert.deepEqual(srcCodes(root, 'statechart:deploy'), []);
    assert.deepEqual(srcCodes(root, 'statechart:deploy@2.0.0'), []);
    assert.deepEqual(srcCodes(root, 'statechart:review'), []);
    assert.match(srcCodes(root, 'statechart:deploy@3.0.0').join('\n'), /^chart-unknown-src: No statechart `deploy` version 3.0.0/);
    assert.match(srcCodes(root, 'statechart:nowhere').join('\n'), /^chart-unknown-src/);
    assert.deepEqual(srcCodes(root, 'agent:anyone'), []);
  });

  it('reads .stategate/registry.yaml: machines (src relative to it) and services', (t) => {
    const root = workspace(t, 'machine_registry:\n  - {id: shipped, version: "1.0.0", src: ../charts/deploy.statechart.yaml}\n  - {id: ghost, src: missing.statechart.yaml}\nservices: [agent_executor]\n');
    assert.deepEqual(srcCodes(root, 'statechart:shipped'), []);
    assert.deepEqual(srcCodes(root, 'agent_executor'), []);
    assert.match(srcCodes(root, 'agent_exec').join('\n'), /^chart-unknown-src: `agent_exec` is not a known service/);
    assert.match(srcCodes(root, 'statechart:ghost').join('\n'), /^chart-unknown-src: `statechart:ghost` cannot be looked up: .*registry.yaml registers `ghost` as .*missing.statechart.yaml, which does not exist/);
  });

  it('a malformed registry.yaml is a problem to report, never an empty registry', (t) => {
    const root = workspace(t, 'machine_registry: [{id: x}]\n');
    assert.match(srcCodes(root, 'agent_executor').join('\n'), /cannot be looked up: the registry .*registry.yaml is malformed at line 1/);
  });
});

describe('stategate validate on statecharts (CLI)', () => {
  it('reports a rule by its code and exits 1; a clean chart exits 0', () => {
    requireBuiltCli();
    const bad = cli(['validate', path.join(RULES, '06-guard-syntax.bad.statechart.yaml')], { cwd: FIXTURES });
    assert.equal(bad.code, 1, bad.stderr);
    assert.match(bad.stdout, /06-guard-syntax\.bad\.statechart\.yaml:12:35: error chart-guard-syntax: /);
    const good = cli(['validate', '--json', path.join(SPEC, 'pipeline.statechart.yaml'), path.join(SPEC, 'canonical.statechart.json')], { cwd: FIXTURES });
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.deepEqual(good.json.files.map((f: { format: string; diagnostics: unknown[] }) => [f.format, f.diagnostics.length]), [['statechart', 0], ['statechart', 0]]);
  });
});
