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
 * test:soak` runs 100,000), FUZZ_SEED replays a run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
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

const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Seeds from ../shared/corpus when it is there (helpers/shared-material.ts); examples/ always. */
const CORPUS = process.env.STATEGATE_CORPUS ?? sharedPath('corpus');
const COUNT = Number(process.env.FUZZ_COUNT ?? 5000);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(process.env.FUZZ_SEED);
/** A document that takes longer than this fails the property (it is generous: a corpus file takes milliseconds). */
const PER_DOC_LIMIT_MS = Number(process.env.FUZZ_DOC_LIMIT_MS ?? 5000);
/** No progress for this long: the worker is hung, terminate it. */
const WATCHDOG_MS = Number(process.env.FUZZ_WATCHDOG_MS ?? 60_000);
/** Generate but do not check the first FUZZ_SKIP documents (to reach a reported failure of a seed fast). */
const SKIP = Number(process.env.FUZZ_SKIP ?? 0);

interface WorkerInput {
  readonly count: number;
  readonly seed: number;
  readonly progress: SharedArrayBuffer;
  readonly dir: string;
}

interface WorkerOutput {
  readonly ok: boolean;
  readonly error?: string;
  readonly documents: number;
  readonly ms: number;
  readonly slowestMs: number;
  readonly diagnostics: number;
  readonly invalidJson: number;
  readonly loaded: number;
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

type Container = JsonObject | JsonValue[];
interface Slot {
  readonly parent: Container;
  readonly key: string | number;
}

function slots(root: JsonValue): Slot[] {
  const out: Slot[] = [];
  const walk = (v: JsonValue, depth: number) => {
    if (depth > 60 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push({ parent: v, key: i });
        walk(x, depth + 1);
      });
    } else {
      for (const k of Object.keys(v)) {
        out.push({ parent: v, key: k });
        walk(v[k] as JsonValue, depth + 1);
      }
    }
  };
  walk(root, 0);
  return out;
}

/** Set a property as own data, even `__proto__` (never a prototype change). */
function setOwn(obj: Container, key: string | number, value: JsonValue): void {
  if (Array.isArray(obj)) obj[key as number] = value;
  else Object.defineProperty(obj, String(key), { value, enumerable: true, writable: true, configurable: true });
}

function getAt(s: Slot): JsonValue {
  return (s.parent as Record<string | number, JsonValue>)[s.key] as JsonValue;
}

const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'length'];

type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'retype'; at: number; value: JsonValue }
  | { op: 'huge'; at: number; len: number; ch: string }
  | { op: 'deep'; at: number; depth: number; array: boolean }
  | { op: 'protoKey'; at: number; key: string; value: JsonValue }
  | { op: 'renameKey'; at: number; key: string }
  | { op: 'invoke'; at: number; target: string; onComplete: string }
  | { op: 'copy'; from: number; to: number };

const smallJson: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;

const wrongType: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', '$return', 'BRANCH_DONE:', 'INTERRUPT:x', '**/*', '[', '\u0000', '\ud800'),
  fc.array(smallJson, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), smallJson, { maxKeys: 3 }),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('retype' as const), at: fc.nat(), value: wrongType }),
  fc.record({ op: fc.constant('huge' as const), at: fc.nat(), len: fc.integer({ min: 1000, max: 100_000 }), ch: fc.constantFrom('a', 'é', '"', '\\', '\n', '😀', '{') }),
  fc.record({ op: fc.constant('deep' as const), at: fc.nat(), depth: fc.integer({ min: 10, max: 2000 }), array: fc.boolean() }),
  fc.record({ op: fc.constant('protoKey' as const), at: fc.nat(), key: fc.constantFrom(...DANGEROUS_KEYS), value: smallJson }),
  fc.record({ op: fc.constant('renameKey' as const), at: fc.nat(), key: fc.constantFrom(...DANGEROUS_KEYS) }),
  fc.record({ op: fc.constant('invoke' as const), at: fc.nat(), target: fc.constantFrom('$self', 'cyc-a', 'cyc-b', 'missing-wf', '__proto__', 'constructor'), onComplete: fc.constantFrom('$first', '__proto__', 'nowhere', '$return') }),
  fc.record({ op: fc.constant('copy' as const), from: fc.nat(), to: fc.nat() }),
);

function nest(value: JsonValue, depth: number, array: boolean): JsonValue {
  let v = value;
  for (let i = 0; i < depth; i++) v = array ? [v] : { n: v };
  return v;
}

function applyMutation(doc: JsonObject, m: Mutation): void {
  const all = slots(doc);
  if (m.op === 'invoke') {
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
    return;
  }
  if (all.length === 0) return;
  switch (m.op) {
    case 'delete': {
      const s = all[m.at % all.length]!;
      if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
      else delete (s.parent as Record<string, JsonValue>)[s.key as string];
      return;
    }
    case 'retype':
      setOwn(all[m.at % all.length]!.parent, all[m.at % all.length]!.key, m.value);
      return;
    case 'huge': {
      const s = all[m.at % all.length]!;
      setOwn(s.parent, s.key, m.ch.repeat(Math.ceil(m.len / m.ch.length)));
      return;
    }
    case 'deep': {
      const s = all[m.at % all.length]!;
      setOwn(s.parent, s.key, nest(getAt(s), m.depth, m.array));
      return;
    }
    case 'protoKey': {
      const objects = all.map(getAt).filter((v): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v));
      const target = objects.length ? objects[m.at % objects.length]! : doc;
      setOwn(target, m.key, m.value);
      return;
    }
    case 'renameKey': {
      const keyed = all.filter((s) => !Array.isArray(s.parent));
      if (!keyed.length) return;
      const s = keyed[m.at % keyed.length]!;
      const value = getAt(s);
      delete (s.parent as Record<string, JsonValue>)[s.key as string];
      setOwn(s.parent, m.key, value);
      return;
    }
    case 'copy': {
      const from = all[m.from % all.length]!;
      const to = all[m.to % all.length]!;
      setOwn(to.parent, to.key, cloneJson(getAt(from)));
      return;
    }
  }
}

// ---------------------------------------------------------------------------
// Mutations of the text
// ---------------------------------------------------------------------------

type TextMutation =
  | { op: 'truncate'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'cut'; at: number; len: number }
  | { op: 'double'; at: number; len: number };

const fragment = fc.oneof(
  fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '/*', '*/', '//', ',}', ',]', 'null', 'tru', '1e999', '-', '\u2028', '\ufeff', '\u0000', '"__proto__":', '"constructor":{}', '\n\n'),
  fc.string({ maxLength: 12 }),
);

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fragment }),
  fc.record({ op: fc.constant('cut' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ op: fc.constant('double' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
);

function applyTextMutation(text: string, m: TextMutation): string {
  const at = text.length ? m.at % (text.length + 1) : 0;
  switch (m.op) {
    case 'truncate':
      return text.slice(0, at);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'cut':
      return text.slice(0, at) + text.slice(at + m.len);
    case 'double':
      return text.slice(0, at + m.len) + text.slice(at, at + m.len) + text.slice(at + m.len);
  }
}

// ---------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------

interface Doc {
  readonly text: string;
  readonly how: string;
}

/** Counterexamples print as their recipe and size, not megabytes of text. */
function makeDoc(text: string, how: string): Doc {
  const d = { text, how };
  Object.defineProperty(d, fc.toStringMethod, { value: () => `Doc(${text.length} chars: ${how}; starts ${JSON.stringify(text.slice(0, 300))})` });
  return d;
}

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

function checkLoc(what: string, loc: { start: unknown; end: unknown; pointer?: unknown } | undefined, length: number): void {
  if (!loc) throw new Error(`${what}: no location`);
  const { start, end } = loc;
  if (!Number.isInteger(start) || !Number.isInteger(end)) throw new Error(`${what}: range ${String(start)}..${String(end)} is not integers`);
  if ((start as number) < 0 || (start as number) > (end as number) || (end as number) > length) {
    throw new Error(`${what}: range ${String(start)}..${String(end)} outside the text (length ${length}) or start > end`);
  }
}

/** A description of anything thrown, even a value whose toString throws. */
function safeString(err: unknown): string {
  try {
    if (err instanceof Error) return err.stack ?? err.message;
    return typeof err === 'string' ? err : JSON.stringify(err);
  } catch {
    return Object.prototype.toString.call(err);
  }
}

function runWorker(input: WorkerInput): WorkerOutput {
  const progress = new Int32Array(input.progress);
  const seeds = loadSeeds();
  if (seeds.length === 0) throw new Error(`no seed documents (corpus ${CORPUS})`);
  const file = path.join(input.dir, 'fuzz.workflow.json');
  const protoNames = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  let slowest = 0;
  let diagnostics = 0;
  let invalidJson = 0;
  let loaded = 0;
  const t0 = performance.now();
  let failure: string | undefined;
  let firstFailure: string | undefined;
  try {
    fc.assert(
      fc.property(documents(seeds), (doc) => {
        const index = Atomics.add(progress, 0, 1);
        if (index < SKIP) return; // FUZZ_SKIP: generate but do not check the first documents (to reach a reported one fast)
        try {
          checkDocument(doc);
        } catch (err) {
          // Report in our own words: fast-check's report may fail on odd values.
          const message = safeString(err);
          firstFailure ??= `document ${index + 1} (seed ${input.seed}): ${message.slice(0, 3000)}\n  ${String(doc.how).slice(0, 1500)}\n  text (${doc.text.length} chars) starts ${JSON.stringify(doc.text.slice(0, 600))}`;
          throw new Error(message.split('\n')[0]);
        }
      }),
      { numRuns: input.count, seed: input.seed, includeErrorInReport: true },
    );
  } catch (err) {
    failure = `${firstFailure ?? ''}\n${safeString(err).slice(0, 3000)}`;
  }
  function checkDocument(doc: Doc): void {
    const started = performance.now();
    let result;
    try {
      result = checkWorkflowFile(doc.text, file);
    } catch (err) {
      throw new Error(`checkWorkflowFile threw: ${safeString(err)}`);
    }
    const ms = performance.now() - started;
    if (ms > slowest) slowest = ms;
    if (ms > PER_DOC_LIMIT_MS) throw new Error(`took ${ms.toFixed(0)} ms (limit ${PER_DOC_LIMIT_MS} ms)`);
    if (!Array.isArray(result.diagnostics)) throw new Error('no diagnostics array');
    for (const d of result.diagnostics) {
      diagnostics++;
      if (!['error', 'warning', 'info', 'hint'].includes(d.severity)) throw new Error(`bad severity ${String(d.severity)}`);
      if (typeof d.code !== 'string' || d.code === '' || typeof d.message !== 'string' || d.message === '') throw new Error(`diagnostic without code or message: ${JSON.stringify(d).slice(0, 200)}`);
      checkLoc(`${d.code}`, d.loc, doc.text.length);
      for (const r of d.related ?? []) if (r.file === undefined || r.file === file) checkLoc(`${d.code} related`, r.loc, doc.text.length);
    }
    try {
      JSON.parse(doc.text);
    } catch {
      invalidJson++;
    }
    if (result.workflow) loaded++;
    if (({} as Record<string, unknown>).polluted !== undefined || Object.getOwnPropertyNames(Object.prototype).sort().join(',') !== protoNames) {
      throw new Error('Object.prototype was changed');
    }
  }
  return {
    ok: failure === undefined,
    ...(failure ? { error: failure } : {}),
    documents: Atomics.load(progress, 0),
    ms: performance.now() - t0,
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
    const workers = Math.max(1, Number(process.env.FUZZ_WORKERS ?? 1));
    const t0 = performance.now();
    const outs = await Promise.all(
      Array.from({ length: workers }, (_, i) => {
        const count = Math.floor(COUNT / workers) + (i < COUNT % workers ? 1 : 0);
        return runWatched({ count, seed: SEED + i, progress: new SharedArrayBuffer(4), dir });
      }),
    );
    const ms = performance.now() - t0;
    fs.rmSync(dir, { recursive: true, force: true });
    const documents = outs.reduce((a, o) => a + o.documents, 0);
    const summary = {
      documents,
      workers,
      seconds: Number((ms / 1000).toFixed(1)),
      msPerDocPerWorker: Number((outs.reduce((a, o) => a + o.ms, 0) / Math.max(1, documents)).toFixed(2)),
      slowestMs: Number(Math.max(...outs.map((o) => o.slowestMs)).toFixed(1)),
      diagnostics: outs.reduce((a, o) => a + o.diagnostics, 0),
      invalidJson: outs.reduce((a, o) => a + o.invalidJson, 0),
      loadedAsWorkflow: outs.reduce((a, o) => a + o.loaded, 0),
      seed: SEED,
    };
    t.diagnostic(JSON.stringify(summary));
    if (process.env.FUZZ_SUMMARY) fs.writeFileSync(process.env.FUZZ_SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);
    for (const [i, out] of outs.entries()) assert.ok(out.ok, `worker ${i} (seed ${SEED + i}): ${out.error}`);
    assert.ok(documents >= COUNT, `ran ${documents} of ${COUNT} documents`);
  });
}

/** Runs one fuzzing worker under the watchdog: no progress for WATCHDOG_MS is a hang. */
async function runWatched(input: WorkerInput): Promise<WorkerOutput> {
  const counter = new Int32Array(input.progress);
  const worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(__filename)});`, {
    eval: true,
    workerData: { fuzzLoader: true, ...input } satisfies WorkerInput & { fuzzLoader: true },
  });
  try {
    return await new Promise<WorkerOutput>((resolve, reject) => {
      let last = -1;
      let lastChange = Date.now();
      const watchdog = setInterval(() => {
        const now = Atomics.load(counter, 0);
        if (now !== last) {
          last = now;
          lastChange = Date.now();
        } else if (Date.now() - lastChange > WATCHDOG_MS) {
          clearInterval(watchdog);
          reject(new Error(`hang: document ${now} (1-based, seed ${input.seed}) made no progress for ${WATCHDOG_MS} ms; rerun with FUZZ_SEED=${input.seed}`));
        }
      }, 1000);
      worker.once('message', (m: WorkerOutput) => {
        clearInterval(watchdog);
        resolve(m);
      });
      worker.once('error', (err) => {
        clearInterval(watchdog);
        reject(err);
      });
    });
  } finally {
    await worker.terminate();
  }
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
