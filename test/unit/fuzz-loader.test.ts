/**
 * Fuzzing the loader and the validator (`checkWorkflowFile`) with fast-check.
 *
 * Documents: the real workflows of the corpus and examples/, mutated (deleted
 * keys, wrong types, huge strings, deep nesting, invoke cycles, `__proto__` /
 * `constructor` keys and state names, subtrees copied elsewhere) and then often
 * broken as text (truncated, garbage inserted, slices cut or doubled, comments,
 * trailing commas); plus generated JSON and plain junk text.
 *
 * For every document: no throw, no hang (a generous per-document limit, and a
 * watchdog that terminates the worker the fuzzing runs in if it stops making
 * progress), every diagnostic well-formed with 0 <= start <= end <= text length
 * (related locations too), and Object.prototype untouched.
 *
 * FUZZ_COUNT sets the number of documents (default 5,000 here; `npm run
 * test:soak` runs 100,000), FUZZ_SEED replays a run, FUZZ_SLOWEST=<dir> writes
 * each worker's slowest documents there (`slow-<ms>-s<worker seed>.workflow.json`,
 * with a `.how` file) to profile them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { cloneJson } from '../../src/engine/model/json-value';
import { createMachineEnv } from '../../src/engine/machine/env';
import * as machine from '../../src/engine/machine/operations';
import { hashText, type RunSnapshot } from '../../src/engine/machine/run';
import { replay } from '../../src/engine/store/replay';
import type { JsonObject, JsonValue } from '../../src/engine/model/index.js';
import { sharedPath } from './helpers/shared-material';
import { tempDir } from './helpers/temp-dir';
import {
  applyTextMutation,
  applyTreeMutation,
  checkDiagnostics,
  checkPrototype,
  finishFuzz,
  fuzzDocuments,
  fuzzSettings,
  type FuzzOutput,
  type FuzzRun,
  DANGEROUS_KEYS,
  makeDoc,
  protoNames,
  runWorkers,
  setOwn,
  smallJson,
  textMutation as textMutationOf,
  timedCheck,
  treeMutation,
  wrongType,
  type Doc,
  type TextMutation,
  type TreeMutation,
  SlowestDocuments,
} from './support/fuzz-harness';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Seeds from ../shared/corpus when it is there (helpers/shared-material.ts); examples/ always. */
const CORPUS = process.env.STATEGATE_CORPUS ?? sharedPath('corpus');
const { count: COUNT, seed: SEED, perDocLimitMs: PER_DOC_LIMIT_MS, watchdogMs: WATCHDOG_MS, workers: WORKERS } = fuzzSettings(5000);
/** Generate but do not check the first FUZZ_SKIP documents (to reach a reported failure of a seed fast). */
const SKIP = Number(process.env.FUZZ_SKIP ?? 0);

type WorkerInput = FuzzRun & { readonly dir: string };

interface WorkerOutput extends FuzzOutput {
  readonly invalidJson: number;
}

// ---------------------------------------------------------------------------
// Seeds
// ---------------------------------------------------------------------------

function jsonFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...jsonFilesUnder(p));
    else if (e.name.endsWith('.json') && e.name !== 'manifest.json') out.push(p);
  }
  return out.sort();
}

function loadSeeds(): JsonObject[] {
  const files = [...jsonFilesUnder(CORPUS), ...jsonFilesUnder(path.join(REPO_ROOT, 'examples'))];
  const seeds: JsonObject[] = [];
  for (const f of files) {
    try {
      const v = JSON.parse(fs.readFileSync(f, 'utf8')) as JsonValue;
      if (v && typeof v === 'object' && !Array.isArray(v)) seeds.push(v);
    } catch {
      /* not a seed */
    }
  }
  return seeds;
}

// ---------------------------------------------------------------------------
// Mutations of a JSON tree
// ---------------------------------------------------------------------------

/** The Statewright-only mutation: an invoke transition (to itself, a cycle, a missing workflow) added to a state. */
type Mutation = TreeMutation | { op: 'invoke'; at: number; target: string; onComplete: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // Seven tree mutations and the invoke one, equally likely.
  { weight: 7, arbitrary: treeMutation },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('invoke' as const), at: fc.nat(), target: fc.constantFrom('$self', 'cyc-a', 'cyc-b', 'missing-wf', '__proto__', 'constructor'), onComplete: fc.constantFrom('$first', '__proto__', 'nowhere', '$return') }),
  },
);

function applyMutation(doc: JsonObject, m: Mutation): void {
  if (m.op !== 'invoke') return applyTreeMutation(doc, m);
  const states = doc.states;
  if (!states || typeof states !== 'object' || Array.isArray(states)) return;
  const names = Object.keys(states);
  if (names.length === 0) return;
  const name = names[m.at % names.length]!;
  const state = (states as JsonObject)[name];
  if (!state || typeof state !== 'object' || Array.isArray(state)) return;
  const target = m.target === '$self' ? (typeof doc.id === 'string' ? doc.id : 'self') : m.target;
  const onComplete = m.onComplete === '$first' ? names[0]! : m.onComplete;
  const on = (state as JsonObject).on;
  const spec: JsonObject = { invoke: target, on_complete: onComplete };
  if (on && typeof on === 'object' && !Array.isArray(on)) setOwn(on, 'FUZZ_INVOKE', spec);
  else setOwn(state, 'on', { FUZZ_INVOKE: spec });
}

const textMutation: fc.Arbitrary<TextMutation> = textMutationOf(['{', '}', '[', ']', ',', ':', '"', '\\', '/*', '*/', '//', ',}', ',]', 'null', 'tru', '1e999', '-', '\u2028', '\ufeff', '\u0000', '"__proto__":', '"constructor":{}', '\n\n']);

// ---------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------

function documents(seeds: readonly JsonObject[]): fc.Arbitrary<Doc> {
  const mutated = fc
    .record({
      seed: fc.nat({ max: seeds.length - 1 }),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }),
      textMutations: fc.oneof({ weight: 3, arbitrary: fc.constant([] as TextMutation[]) }, { weight: 2, arbitrary: fc.array(textMutation, { minLength: 1, maxLength: 4 }) }),
      pretty: fc.boolean(),
    })
    .map(({ seed, mutations, textMutations, pretty }): Doc => {
      const doc = cloneJson(seeds[seed]!);
      for (const m of mutations) applyMutation(doc, m);
      // Pretty-printing deep nesting grows quadratically: indent only documents of a sane size.
      let text = JSON.stringify(doc);
      if (pretty && text.length < 200_000 && !mutations.some((m) => m.op === 'deep')) text = JSON.stringify(doc, null, 2);
      // Copies of huge or deep subtrees can multiply: keep a document under ~2 MB.
      if (text.length > 2_000_000) text = text.slice(0, 2_000_000);
      for (const t of textMutations) text = applyTextMutation(text, t);
      return makeDoc(text, `seed ${seed}; ${JSON.stringify(mutations).slice(0, 400)}; text ${JSON.stringify(textMutations)}`);
    });
  const generated = fc.jsonValue({ maxDepth: 6 }).map((v): Doc => makeDoc(JSON.stringify(v), 'generated JSON'));
  const workflowish = fc
    .record({
      id: fc.oneof(fc.string({ maxLength: 10 }), wrongType),
      initial: fc.oneof(fc.constantFrom('a', 'b', '__proto__', 'constructor'), wrongType),
      states: fc.dictionary(fc.oneof(fc.constantFrom('a', 'b', 'done', ...DANGEROUS_KEYS), fc.string({ maxLength: 6 })), fc.oneof(smallJson, fc.record({ on: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.constantFrom('a', 'b', '$return', '__proto__'), smallJson)), type: fc.constantFrom('final', 'normal', '__proto__') }, { requiredKeys: [] })), { maxKeys: 6 }),
    }, { requiredKeys: [] })
    .map((v): Doc => makeDoc(JSON.stringify(v), 'generated workflow-like'));
  const junk = fc.string({ maxLength: 200 }).map((text): Doc => makeDoc(text, 'junk text'));
  return fc.oneof({ weight: 14, arbitrary: mutated }, { weight: 2, arbitrary: workflowish }, { weight: 1, arbitrary: generated }, { weight: 1, arbitrary: junk });
}

// ---------------------------------------------------------------------------
// The property, run inside a worker so a hang can be caught and reported
// ---------------------------------------------------------------------------

function runWorker(input: WorkerInput): WorkerOutput {
  const seeds = loadSeeds();
  if (seeds.length === 0) throw new Error(`no seed documents (corpus ${CORPUS})`);
  const file = path.join(input.dir, 'fuzz.workflow.json');
  const proto = protoNames();
  let slowest = 0;
  let diagnostics = 0;
  let invalidJson = 0;
  let loaded = 0;
  const kept = new SlowestDocuments<Doc>(() => 'workflow.json');
  const fuzzed = fuzzDocuments(documents(seeds), input, checkDocument, SKIP); // FUZZ_SKIP: drawn but not checked, to reach a reported document fast
  function checkDocument(doc: Doc): void {
    const { result, ms } = timedCheck(doc.text, file, PER_DOC_LIMIT_MS);
    if (ms > slowest) slowest = ms;
    kept.offer(ms, doc);
    diagnostics += checkDiagnostics(result.diagnostics, doc.text, file);
    try {
      JSON.parse(doc.text);
    } catch {
      invalidJson++;
    }
    if (result.workflow) loaded++;
    checkPrototype(proto);
  }
  kept.write(input.seed);
  return {
    ...fuzzed,
    slowestMs: slowest,
    diagnostics,
    invalidJson,
    loaded,
  };
}

if (!isMainThread && (workerData as { fuzzLoader?: boolean } | undefined)?.fuzzLoader) {
  const input = workerData as WorkerInput & { fuzzLoader: true };
  parentPort!.postMessage(runWorker(input));
} else if (isMainThread) {
  test(`fuzz: ${COUNT} generated and mutated workflow documents through checkWorkflowFile (seed ${SEED})`, { timeout: Math.max(600_000, COUNT * 20) }, async (t) => {
    // A folder with two workflows that invoke each other (cycles the fuzzed document can join).
    const dir = tempDir('sg-fuzz-', t);
    const cyc = (id: string, other: string) => ({ id, initial: 'go', states: { go: { on: { NEXT: { invoke: other, on_complete: 'done' } } }, done: { type: 'final' } } });
    fs.writeFileSync(path.join(dir, 'cyc-a.workflow.json'), JSON.stringify(cyc('cyc-a', 'cyc-b')));
    fs.writeFileSync(path.join(dir, 'cyc-b.workflow.json'), JSON.stringify(cyc('cyc-b', 'cyc-a')));
    // FUZZ_WORKERS workers (default 1) share the documents, each with its own seed (SEED + i).
    const workers = WORKERS;
    const t0 = performance.now();
    const outs = await runWorkers<{ dir: string }, WorkerOutput>(__filename, 'fuzzLoader', { count: COUNT, seed: SEED, workers, watchdogMs: WATCHDOG_MS }, { dir });
    const ms = performance.now() - t0;
    fs.rmSync(dir, { recursive: true, force: true });
    finishFuzz(t, outs, { count: COUNT, seed: SEED, workers, ms }, {
      invalidJson: outs.reduce((a, o) => a + o.invalidJson, 0),
      loadedAsWorkflow: outs.reduce((a, o) => a + o.loaded, 0),
    });
  });
}

// ---------------------------------------------------------------------------
// Prototype pollution through the machine: event data, start context, force
// patches and guards with `__proto__` / `constructor` / `prototype` keys
// ---------------------------------------------------------------------------

const PROTO_WORKFLOW = {
  id: 'proto',
  initial: 'a',
  meta: { debug: true },
  guards: {
    has_constructor: { field: 'constructor', op: 'exists' },
    has_proto_polluted: { field: '__proto__.polluted', op: 'eq', value: true },
    has_to_string: { field: 'toString', op: 'exists' },
  },
  states: {
    a: { on: { GO: 'b', CTOR: { target: 'b', guard: 'has_constructor' }, PROTO: { target: 'b', guard: 'has_proto_polluted' }, TOSTR: { target: 'b', guard: 'has_to_string' } } },
    b: { on: { BACK: 'a', DONE: 'done' } },
    done: { type: 'final' },
  },
};

function protoClean(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype.polluted');
  assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
  assert.equal(([] as unknown as Record<string, unknown>).polluted, undefined, 'Array.prototype');
  assert.equal((Object as unknown as Record<string, unknown>).polluted, undefined);
}

function startProto(context?: JsonObject): { run: RunSnapshot; env: ReturnType<typeof createMachineEnv>; journal: object[] } {
  const text = JSON.stringify(PROTO_WORKFLOW);
  const env = createMachineEnv();
  const wf = env.load(text);
  assert.ok(wf, 'the workflow loads');
  const started = machine.startRun(wf, text, { runId: 'proto-run', hash: hashText(text), ...(context ? { context } : {}) }, env);
  assert.ok(started.run, JSON.stringify(started.outcome));
  return { run: started.run, env, journal: [...started.journal] };
}

if (isMainThread) {
  test('regressions found by the fuzzer: every range inside the text', () => {
    // 1. jsonc-parser put an unterminated block comment one past the end (`/*` -> 0..3).
    for (const text of ['/*', '/* x', '{"id": "x" /*', '{"states": {"a": 1}} /* trailing']) {
      for (const d of checkWorkflowFile(text, path.join(os.tmpdir(), 'regression.workflow.json')).diagnostics) {
        assert.ok(d.loc.start >= 0 && d.loc.start <= d.loc.end && d.loc.end <= text.length, `${JSON.stringify(text)}: ${d.code} ${d.loc.start}..${d.loc.end}`);
      }
    }
  });

  test('event data {"__proto__": {"polluted": true}} through sendEvent pollutes nothing and stays plain data', () => {
    const { run, env, journal } = startProto();
    const data = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as JsonValue;
    const r = machine.sendEvent(run, 'GO', data, env);
    protoClean();
    assert.equal(r.outcome.transitioned, true);
    const ctx = r.run.context;
    assert.equal(Object.getPrototypeOf(ctx), Object.prototype, 'the context keeps its prototype');
    assert.ok(Object.prototype.hasOwnProperty.call(ctx, '__proto__'), '__proto__ is an own data key');
    assert.deepEqual(JSON.parse(JSON.stringify(ctx)), JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'));
    // Through a JSON round trip (what the store does) and the journal's replay.
    const stored = JSON.parse(JSON.stringify(r.run)) as RunSnapshot;
    const again = machine.sendEvent(stored, 'BACK', JSON.parse('{"__proto__": {"polluted": 2}}') as JsonValue, env);
    protoClean();
    const rebuilt = replay([...journal, ...r.journal, ...again.journal] as never);
    protoClean();
    assert.deepEqual(JSON.parse(JSON.stringify(rebuilt.context)), JSON.parse(JSON.stringify(again.run.context)));
  });

  test('guards never read through the prototype chain (constructor, toString, __proto__.polluted on an empty context)', () => {
    const { run, env } = startProto();
    for (const event of ['CTOR', 'PROTO', 'TOSTR']) {
      const r = machine.sendEvent(run, event, undefined, env);
      assert.equal(r.outcome.transitioned, false, `${event}: a guard on an inherited property must not pass`);
    }
    // With own keys of those names, the guards see them.
    const own = startProto(JSON.parse('{"constructor": 1, "toString": "x", "__proto__": {"polluted": true}}') as JsonObject);
    protoClean();
    for (const event of ['CTOR', 'PROTO', 'TOSTR']) assert.equal(machine.sendEvent(own.run, event, undefined, own.env).outcome.transitioned, true, event);
    protoClean();
  });

  test('fuzz: event data, start context and force patches with dangerous keys never touch a prototype', () => {
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'valueOf', 'hasOwnProperty'), fc.string({ maxLength: 4 }));
    const tree: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 4 }), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
    })).v;
    // Build objects through JSON.parse so `__proto__` is an own key, as it is in data from agents.
    const obj = fc.dictionary(key, tree, { maxKeys: 5 }).map((o) => JSON.parse(JSON.stringify(o)) as JsonObject);
    const ops = fc.array(fc.record({ kind: fc.constantFrom('send', 'force'), event: fc.constantFrom('GO', 'BACK', 'CTOR', 'PROTO', 'TOSTR', 'DONE', '__proto__', 'constructor'), state: fc.constantFrom('a', 'b', '__proto__', 'constructor', 'toString'), data: obj }), { maxLength: 8 });
    fc.assert(
      fc.property(obj, ops, (context, steps) => {
        const { run: first, env } = startProto(context);
        let run = first;
        for (const step of steps) {
          const r = step.kind === 'send' ? machine.sendEvent(run, step.event, step.data, env) : machine.forceState(run, step.state, step.data, env);
          run = JSON.parse(JSON.stringify(r.run)) as RunSnapshot;
          protoClean();
          assert.equal(Object.getPrototypeOf(r.run.context), Object.prototype);
        }
      }),
      { numRuns: Number(process.env.FUZZ_PROTO_COUNT ?? 1000), seed: SEED },
    );
    protoClean();
  });
}
