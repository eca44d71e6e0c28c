/**
 * The build-time validators (scripts/compile-schema.mjs) pass each sub-schema
 * its `instancePath` by position instead of in an options object ajv's
 * standalone code builds for every call (less garbage per validation of a
 * large chart). The rewritten validators must be the validators ajv compiles:
 * here both judge the statechart fixtures and the workflow corpus, each broken
 * in many single places, and must agree on validity and on every error's path,
 * keyword and parameters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
import statechartValidate from '../../src/engine/schema/statechart-validator.generated.js';
import workflowValidate from '../../src/engine/schema/workflow-validator.generated.js';

const repoRoot = path.resolve(__dirname, '..', '..');
const readSchema = (name: string): object => JSON.parse(fs.readFileSync(path.join(repoRoot, 'schemas', name), 'utf8')) as object;

/** ajv at run time, with the options scripts/compile-schema.mjs compiles with. */
function runtimeValidator(name: string, referenced: string[]): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
  ajv.addVocabulary(['markdownDescription', 'markdownEnumDescriptions', 'defaultSnippets']);
  for (const r of referenced) ajv.addSchema(readSchema(r));
  return ajv.compile(readSchema(name));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every way this test breaks a value: the wrong type, an empty one, an unknown key. */
const BREAKS: Array<(v: Json) => Json> = [() => 42, () => 'x', () => '', () => null, () => [], () => ({}), () => [1, 'x', { a: 1 }], (v) => (v && typeof v === 'object' && !Array.isArray(v) ? { ...v, bogus_field: 1 } : v)];

/** The document with the value at `at` (a path of keys) replaced. */
function replaced(doc: Json, at: readonly (string | number)[], value: Json): Json {
  if (at.length === 0) return value;
  const [head, ...rest] = at;
  if (Array.isArray(doc)) return doc.map((item, i) => (i === head ? replaced(item, rest, value) : item));
  if (doc && typeof doc === 'object') return { ...doc, [head as string]: replaced(doc[head as string] as Json, rest, value) };
  return doc;
}

function paths(doc: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(doc)) doc.forEach((item, i) => paths(item, [...at, i], out));
  else if (doc && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) paths(v, [...at, k], out);
  return out;
}

const summary = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => JSON.stringify([e.instancePath, e.schemaPath, e.keyword, e.params]));

function agree(name: string, generated: (d: unknown) => boolean, errorsOf: () => ErrorObject[] | null | undefined, runtime: ValidateFunction, docs: Json[]): number {
  let broken = 0;
  for (const doc of docs) {
    for (const at of paths(doc)) {
      for (const br of BREAKS) {
        const d = replaced(doc, at, br(at.length ? (at.reduce<Json>((v, k) => (v as Record<string, Json>)[k as string] as Json, doc)) : doc));
        const ours = generated(d);
        const theirs = runtime(d);
        assert.equal(ours, theirs, `${name} at /${at.join('/')}`);
        assert.deepEqual(summary(errorsOf()), summary(runtime.errors), `${name} at /${at.join('/')}`);
        if (!ours) broken++;
      }
    }
  }
  return broken;
}

test('the build-time statechart validator finds what ajv compiled at run time finds, error for error', () => {
  const runtime = runtimeValidator('statechart-schema.json', ['workflow-schema.json']);
  const dir = path.join(repoRoot, 'test', 'fixtures', 'statecharts', 'spec');
  const docs = fs.readdirSync(dir).sort().map((f) => parseDocument(fs.readFileSync(path.join(dir, f), 'utf8')).toJS() as Json);
  assert.ok(docs.length >= 5);
  const broken = agree('statechart', statechartValidate, () => statechartValidate.errors, runtime, docs);
  assert.ok(broken > 1000, `only ${broken} broken documents were compared`);
});

test('the build-time workflow validator finds what ajv compiled at run time finds, error for error', () => {
  const runtime = runtimeValidator('workflow-schema.json', []);
  const dir = path.join(repoRoot, 'examples');
  const docs = fs.readdirSync(dir).filter((f) => f.endsWith('.workflow.json')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Json);
  assert.ok(docs.length >= 1);
  const broken = agree('workflow', workflowValidate, () => workflowValidate.errors, runtime, docs);
  assert.ok(broken > 100, `only ${broken} broken documents were compared`);
});
