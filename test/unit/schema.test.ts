/**
 * The published JSON Schema and its build-time compiled validator: complete
 * (descriptions everywhere, enums, snippets), accepting the real corpus, and
 * mapped to diagnostics with exact ranges and readable messages that do not
 * duplicate the loader's or the rules' findings.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { parseJsonc } from '../../src/engine/formats/jsonc.js';
import { GUARD_OPS } from '../../src/engine/model/index.js';
import { schemaDiagnostics } from '../../src/engine/schema/index.js';
import statechartValidate from '../../src/engine/schema/statechart-validator.generated.js';
import validate from '../../src/engine/schema/workflow-validator.generated.js';
import { parseDocument } from 'yaml';
import { lit, withCode } from './support/ranges.js';
import { requireShared } from './helpers/shared-material.js';

type Obj = Record<string, unknown>;
const repoRoot = path.resolve(__dirname, '..', '..');
const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'schemas', 'workflow-schema.json'), 'utf8')) as Obj;
const defs = schema.definitions as Record<string, Obj>;
const corpus = requireShared('corpus');

const doc = (states: Obj, extra: Obj = {}) => JSON.stringify({ id: 'w', initial: 'start', ...extra, states });
const DONE = { done: { type: 'final' } };

function diagnose(text: string) {
  const root = parseJsonc(text).root;
  assert.ok(root);
  return schemaDiagnostics(root);
}

/** Every `properties` entry anywhere in the schema, with its path. */
function allProperties(node: unknown, at = '#'): Array<[string, Obj]> {
  if (node === null || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((n, i) => allProperties(n, `${at}/${i}`));
  const o = node as Obj;
  const own = o.properties && typeof o.properties === 'object' ? Object.entries(o.properties as Record<string, Obj>).map(([k, v]): [string, Obj] => [`${at}/properties/${k}`, v]) : [];
  const nested = Object.entries(o)
    // Snippets are examples; if/then/else hold conditional constraints, not declarations.
    .filter(([k]) => !['defaultSnippets', 'if', 'then', 'else'].includes(k))
    .flatMap(([k, v]) => allProperties(v, `${at}/${k}`));
  return [...own, ...nested];
}

describe('the workflow schema', () => {
  it('is a valid draft-07 schema', () => {
    const ajv = new Ajv({ strict: false });
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.equal(ajv.validateSchema(schema), true, JSON.stringify(ajv.errors));
  });

  it('has a description and a markdownDescription on every property', () => {
    const missing = allProperties(schema)
      .filter(([, p]) => !p.$ref && (typeof p.description !== 'string' || typeof p.markdownDescription !== 'string'))
      .map(([at]) => at);
    assert.deepEqual(missing, []);
  });

  const enums: Array<[string, unknown, readonly string[]]> = [
    ['guard operators', (defs.guard?.properties as Obj).op, GUARD_OPS],
    ['state type', (defs.state?.properties as Obj).type, ['final', 'normal', 'atomic']],
    ['danger_level', (defs.meta?.properties as Obj).danger_level, ['safe', 'moderate', 'dangerous']],
    ['approval_mode', (defs.meta?.properties as Obj).approval_mode, ['ask', 'ui', 'none']],
    ['fork join', (defs.fork?.properties as Obj).join, ['all', 'any']],
  ];
  for (const [name, prop, values] of enums) {
    it(`enumerates ${name}`, () => {
      assert.deepEqual((prop as Obj).enum, values);
    });
  }

  const fields: Array<[string, string[]]> = [
    ['state', ['disallowed_tools', 'model', 'thinking_level', 'model_ladder', 'allowed_commands_tool', 'blocked_env', 'deny_env', 'env_overrides', 'env', 'completion_tool', 'completion_schema', 'turn_cap', 'safe_next']],
    ['meta', ['task_type', 'estimated_steps', 'danger_level', 'requires_human_approval', 'capture_output', 'approval_mode', 'debug', 'failure_states', 'default_model', 'immutable']],
    ['modelRung', ['model', 'thinking_level', 'health_url', 'requires_provider_switch']],
    ['workflow', ['$schema', 'id', 'initial', 'context', 'states', 'guards', 'interrupts', 'meta']],
  ];
  for (const [def, names] of fields) {
    it(`declares the ${def} fields the reference implementation added`, () => {
      const declared = Object.keys(defs[def]?.properties as Obj);
      assert.deepEqual(names.filter((n) => !declared.includes(n)), []);
    });
  }

  const snippets: Array<[string, Obj | undefined, string[]]> = [
    ['the root', schema, ['New workflow']],
    ['a state', defs.state, ['State', 'Final state']],
    ['a transition', defs.transition, ['Simple transition', 'Guarded transition', 'Transition with approval', 'Branched transition', 'Invoke a sub-workflow', 'Fork into branches']],
    ['a guard', defs.guard, ['Guard']],
    ['an interrupt', defs.interrupt, ['Interrupt']],
  ];
  for (const [where, node, labels] of snippets) {
    it(`offers snippets for ${where}: ${labels.join(', ')}`, () => {
      const offered = ((node?.defaultSnippets ?? []) as Array<{ label: string }>).map((s) => s.label);
      assert.deepEqual(offered, labels);
    });
  }

  it('accepts every snippet body in place', () => {
    const bodies = (node: Obj | undefined) => ((node?.defaultSnippets ?? []) as Array<{ body: unknown }>).map((s) => s.body);
    const wrap = (states: Obj, extra: Obj = {}) => ({ id: 'w', initial: 's', states: { ...states, done: { type: 'final' } }, ...extra });
    const docs = [
      ...bodies(schema),
      ...bodies(defs.state).map((b) => wrap({ s: b as Obj })),
      ...bodies(defs.transition).map((b) => wrap({ s: { on: { GO: b } } })),
      ...bodies(defs.guard).map((b) => wrap({}, { guards: { g: b } })),
      ...bodies(defs.interrupt).map((b) => wrap({}, { interrupts: { i: b } })),
    ];
    for (const d of docs) assert.equal(validate(d), true, `${JSON.stringify(d)}: ${JSON.stringify(validate.errors)}`);
  });

  it('is compiled at build time into a standalone validator', () => {
    const generated = fs.readFileSync(path.join(repoRoot, 'src/engine/schema/workflow-validator.generated.js'), 'utf8');
    assert.match(generated, /GENERATED by scripts\/compile-schema\.mjs/);
    assert.equal(typeof validate, 'function');
  });

  it('accepts every corpus file as written (including gateway wrappers)', { skip: corpus.skip }, () => {
    assert.ok(corpus.present, `the workflow corpus is missing: expected it at ${corpus.dir}`);
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.json') && e.name !== 'manifest.json' ? [path.join(dir, e.name)] : []));
    for (const f of files(corpus.dir)) {
      assert.equal(validate(JSON.parse(fs.readFileSync(f, 'utf8'))), true, `${f}: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('accepts a top-level $schema and extra gateway keys around `definition`', () => {
    const inner = { $schema: './workflow-schema.json', id: 'w', initial: 's', states: { s: { type: 'final' } } };
    assert.equal(validate({ definition: inner, upstream_servers: [{ name: 'x' }], listen: 1 }), true);
  });
});

describe('schemaDiagnostics', () => {
  it('names the allowed values of an enum, at the value', () => {
    const text = doc({ start: { on: { GO: 'done' } }, ...DONE }, { meta: { danger_level: 'extreme' } });
    const [d] = diagnose(text);
    assert.deepEqual(d && { code: d.code, start: d.loc.start, end: d.loc.end }, { code: 'invalid-value', ...lit(text, 'extreme') });
    assert.match(d?.message ?? '', /`danger_level` must be one of "safe", "moderate", "dangerous"; found "extreme"/);
  });

  it('says which type was expected and what was found', () => {
    const text = doc({ start: { allowed_commands: ['ls', 3], on: { GO: 'done' } }, ...DONE });
    const [d] = diagnose(text);
    assert.equal(d?.message, 'Item 2 of `allowed_commands` must be a string; found a number.');
    assert.equal(d?.loc.pointer, '/states/start/allowed_commands/1');
  });

  it('reports a missing required field at the key owning the object', () => {
    const text = doc({ start: { on: { GO: 'done' } }, ...DONE }, { interrupts: { watch: { target: 'start' } } });
    assert.deepEqual(withCode(diagnose(text), 'missing-field'), [{ code: 'missing-field', ...lit(text, 'watch') }]);
  });

  it('keeps the /definition prefix for gateway-wrapped files', () => {
    const text = JSON.stringify({ definition: JSON.parse(doc({ start: { max_iterations: 0, on: { GO: 'done' } }, ...DONE })) });
    assert.deepEqual(diagnose(text).map((d) => d.loc.pointer), ['/definition/states/start/max_iterations']);
  });

  it('leaves unknown fields to the loader (no additionalProperties findings)', () => {
    const text = doc({ start: { alowed_tools: [], on: { GO: 'done' } }, ...DONE }, { extra: 1 });
    assert.deepEqual(diagnose(text), []);
  });

  it('reports a wrong transition shape once', () => {
    const text = doc({ start: { on: { GO: 5, END: 'done' } }, ...DONE });
    assert.equal(diagnose(text).length, 1);
  });
});

describe('checkWorkflowFile: one finding per problem', () => {
  const rows: Array<{ name: string; text: string; codes: string[] }> = [
    { name: 'a zero limit', text: doc({ start: { max_iterations: 0, on: { GO: 'done' } }, ...DONE }), codes: ['invalid-limit'] },
    { name: 'an unknown field', text: doc({ start: { alowed_tools: [], on: { GO: 'done' } }, ...DONE }), codes: ['unknown-field'] },
    { name: 'a wrong enum value', text: doc({ start: { on: { GO: 'done' } }, ...DONE }, { meta: { approval_mode: 'always' } }), codes: ['invalid-value'] },
    { name: 'a wrong type', text: doc({ start: { max_edit_lines: '9', on: { GO: 'done' } }, ...DONE }), codes: ['invalid-type'] },
    { name: 'a missing id', text: JSON.stringify({ initial: 'start', states: { start: { on: { GO: 'done' } }, ...DONE } }), codes: ['missing-field'] },
    { name: 'an empty target', text: doc({ start: { on: { GO: '', END: 'done' } }, ...DONE }), codes: ['unknown-target'] },
    { name: 'a schema-only problem (a negative estimate)', text: doc({ start: { on: { GO: 'done' } }, ...DONE }, { meta: { estimated_steps: -2 } }), codes: ['invalid-value'] },
  ];
  for (const row of rows) {
    it(`reports ${row.name} once`, () => {
      const codes = checkWorkflowFile(row.text, 'w.json', { resolveInvoke: false }).diagnostics.map((d) => d.code);
      assert.deepEqual(codes, row.codes);
    });
  }
});

describe('the statechart schema', () => {
  const chartSchema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'schemas', 'statechart-schema.json'), 'utf8')) as Obj;
  const fixtures = path.join(repoRoot, 'test', 'fixtures', 'statecharts');
  const chartFiles = ['spec', 'rules'].flatMap((sub) => fs.readdirSync(path.join(fixtures, sub)).map((f) => path.join(fixtures, sub, f)));

  it('is a valid draft-07 schema that refers to the workflow schema for the state rules', () => {
    const ajv = new Ajv({ strict: false });
    ajv.addSchema(schema);
    assert.equal(chartSchema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.equal(ajv.validateSchema(chartSchema), true, JSON.stringify(ajv.errors));
    assert.ok(ajv.compile(chartSchema), 'its references to workflow-schema.json resolve');
    assert.match(JSON.stringify(chartSchema), /"\$ref":"workflow-schema\.json#\/definitions\/state\/properties\/allowed_tools"/);
  });

  it('has a description and a markdownDescription on every property', () => {
    const missing = allProperties(chartSchema)
      .filter(([, p]) => !p.$ref && (typeof p.description !== 'string' || typeof p.markdownDescription !== 'string'))
      .map(([at]) => at);
    assert.deepEqual(missing, []);
  });

  it('accepts every statechart fixture but one (whose inline action type is not built in)', () => {
    const rejected = chartFiles.filter((f) => !statechartValidate(parseDocument(fs.readFileSync(f, 'utf8')).toJS())).map((f) => path.basename(f));
    assert.deepEqual(rejected, ['07-unknown-action-type.bad.statechart.yaml']);
  });

  it('reports what the loader does not (a schema-only finding), and nothing twice', () => {
    const chart = (state: Obj) => JSON.stringify({ statechart: { initial: 'a', states: { a: { on: { GO: 'b' }, ...state }, b: { type: 'final' } } } });
    const codes = (state: Obj) => checkWorkflowFile(chart(state), 'x.statechart.json', { resolveSrc: false }).diagnostics.map((d) => d.code);
    assert.deepEqual(codes({ max_iterations: 1.5 }), ['invalid-type'], 'a whole number (the schema says so; the loader reads any number)');
    assert.deepEqual(codes({ max_iterations: 0 }), ['invalid-value']);
    assert.deepEqual(codes({ alowed_tools: [] }), ['unknown-field'], 'unknown fields are the loader’s, with a suggestion');
    assert.deepEqual(codes({ allowed_tools: 'Read' }), ['invalid-type'], 'the loader’s finding; the schema’s at the same place is left out');
  });
});
