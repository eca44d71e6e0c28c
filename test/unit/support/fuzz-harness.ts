/**
 * What the loader fuzzers share (test/unit/fuzz-loader.test.ts for Statewright
 * workflows, test/unit/fuzz-statechart.test.ts for statecharts): mutations of
 * a JSON tree and of a text, documents that print as their recipe, the checks
 * every diagnostic must pass, and a worker run under a watchdog so a hang is
 * caught and reported instead of stalling the suite.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { checkWorkflowFile } from '../../../src/engine/check/check-file';
import { cloneJson } from '../../../src/engine/model/json-value';
import type { Diagnostic, JsonObject, JsonValue } from '../../../src/engine/model/index.js';

// ---------------------------------------------------------------------------
// Mutations of a JSON tree
// ---------------------------------------------------------------------------

export type Container = JsonObject | JsonValue[];
export interface Slot {
  readonly parent: Container;
  readonly key: string | number;
}

export function slots(root: JsonValue): Slot[] {
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
export function setOwn(obj: Container, key: string | number, value: JsonValue): void {
  if (Array.isArray(obj)) obj[key as number] = value;
  else Object.defineProperty(obj, String(key), { value, enumerable: true, writable: true, configurable: true });
}

export function getAt(s: Slot): JsonValue {
  return (s.parent as Record<string | number, JsonValue>)[s.key] as JsonValue;
}

export const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'length'];

/** Mutations that fit any JSON document. */
export type TreeMutation =
  | { op: 'delete'; at: number }
  | { op: 'retype'; at: number; value: JsonValue }
  | { op: 'huge'; at: number; len: number; ch: string }
  | { op: 'deep'; at: number; depth: number; array: boolean }
  | { op: 'protoKey'; at: number; key: string; value: JsonValue }
  | { op: 'renameKey'; at: number; key: string }
  | { op: 'copy'; from: number; to: number };

export const smallJson: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;

export const wrongType: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', '$return', 'BRANCH_DONE:', 'INTERRUPT:x', '**/*', '[', '\u0000', '\ud800'),
  fc.array(smallJson, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), smallJson, { maxKeys: 3 }),
);

export const treeMutation: fc.Arbitrary<TreeMutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('retype' as const), at: fc.nat(), value: wrongType }),
  fc.record({ op: fc.constant('huge' as const), at: fc.nat(), len: fc.integer({ min: 1000, max: 100_000 }), ch: fc.constantFrom('a', 'é', '"', '\\', '\n', '😀', '{') }),
  // At most 400 levels a time: six of them stacked (slots are at most 61 deep) stay under the ~3,400 levels
  // JSON.stringify reaches on a worker's 1 MB stack (runWatched), so making a document never overflows.
  fc.record({ op: fc.constant('deep' as const), at: fc.nat(), depth: fc.integer({ min: 10, max: 400 }), array: fc.boolean() }),
  fc.record({ op: fc.constant('protoKey' as const), at: fc.nat(), key: fc.constantFrom(...DANGEROUS_KEYS), value: smallJson }),
  fc.record({ op: fc.constant('renameKey' as const), at: fc.nat(), key: fc.constantFrom(...DANGEROUS_KEYS) }),
  fc.record({ op: fc.constant('copy' as const), from: fc.nat(), to: fc.nat() }),
);

function nest(value: JsonValue, depth: number, array: boolean): JsonValue {
  let v = value;
  for (let i = 0; i < depth; i++) v = array ? [v] : { n: v };
  return v;
}

export function applyTreeMutation(doc: JsonObject, m: TreeMutation): void {
  const all = slots(doc);
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

export type TextMutation =
  | { op: 'truncate'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'cut'; at: number; len: number }
  | { op: 'double'; at: number; len: number };

/** Text mutations whose inserted fragments are drawn from `fragments` (and random strings). */
export function textMutation(fragments: readonly string[]): fc.Arbitrary<TextMutation> {
  const fragment = fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 12 }));
  return fc.oneof(
    fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fragment }),
    fc.record({ op: fc.constant('cut' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
    fc.record({ op: fc.constant('double' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
  );
}

export function applyTextMutation(text: string, m: TextMutation): string {
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
// Documents and checks
// ---------------------------------------------------------------------------

export interface Doc {
  readonly text: string;
  readonly how: string;
}

/** Counterexamples print as their recipe and size, not megabytes of text. */
export function makeDoc(text: string, how: string): Doc {
  const d = { text, how };
  Object.defineProperty(d, fc.toStringMethod, { value: () => `Doc(${text.length} chars: ${how}; starts ${JSON.stringify(text.slice(0, 300))})` });
  return d;
}

export function checkLoc(what: string, loc: { start: unknown; end: unknown; pointer?: unknown } | undefined, length: number): void {
  if (!loc) throw new Error(`${what}: no location`);
  const { start, end } = loc;
  if (!Number.isInteger(start) || !Number.isInteger(end)) throw new Error(`${what}: range ${String(start)}..${String(end)} is not integers`);
  if ((start as number) < 0 || (start as number) > (end as number) || (end as number) > length) {
    throw new Error(`${what}: range ${String(start)}..${String(end)} outside the text (length ${length}) or start > end`);
  }
}

/** Every diagnostic well-formed, its range (and its related ranges in this file) inside the text. */
export function checkDiagnostics(diagnostics: unknown, text: string, file: string): number {
  if (!Array.isArray(diagnostics)) throw new Error('no diagnostics array');
  for (const d of diagnostics as Diagnostic[]) {
    if (!['error', 'warning', 'info', 'hint'].includes(d.severity)) throw new Error(`bad severity ${String(d.severity)}`);
    if (typeof d.code !== 'string' || d.code === '' || typeof d.message !== 'string' || d.message === '') throw new Error(`diagnostic without code or message: ${JSON.stringify(d).slice(0, 200)}`);
    checkLoc(`${d.code}`, d.loc, text.length);
    for (const r of d.related ?? []) if (r.file === undefined || r.file === file) checkLoc(`${d.code} related`, r.loc, text.length);
  }
  return diagnostics.length;
}

/** Throws when Object.prototype has changed since `before` (Object.getOwnPropertyNames, sorted and joined). */
export function checkPrototype(before: string): void {
  if (({} as Record<string, unknown>).polluted !== undefined || protoNames() !== before) throw new Error('Object.prototype was changed');
}

export function protoNames(): string {
  return Object.getOwnPropertyNames(Object.prototype).sort().join(',');
}

/** A description of anything thrown, even a value whose toString throws. */
export function safeString(err: unknown): string {
  try {
    if (err instanceof Error) return err.stack ?? err.message;
    return typeof err === 'string' ? err : JSON.stringify(err);
  } catch {
    return Object.prototype.toString.call(err);
  }
}

/** Every worker input has its seed and the counter of documents it has started (shared with the watchdog). */
export interface WatchedInput {
  readonly seed: number;
  readonly progress: SharedArrayBuffer;
}

/**
 * Runs `file` in a worker with `workerData` = `{[flag]: true, ...input}` (the
 * file runs its fuzzing when it sees its flag) under a watchdog: no progress
 * for `watchdogMs` is a hang, reported with the seed to replay it.
 */
export async function runWatched<I extends WatchedInput, O>(file: string, flag: string, input: I, watchdogMs: number): Promise<O> {
  const counter = new Int32Array(input.progress);
  // A worker's stack is 4 MB by default, four times the main thread's: the CLI, the hook and the extension
  // host run on a main thread, so a document that overflows only there would pass here unseen (a Statewright
  // document 1,877 levels deep did, in a walk of the stage loader). 1 MB gives a little less depth than a
  // main thread has.
  const worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, {
    eval: true,
    workerData: { [flag]: true, ...input },
    resourceLimits: { stackSizeMb: 1 },
  });
  try {
    return await new Promise<O>((resolve, reject) => {
      let last = -1;
      let lastChange = Date.now();
      const watchdog = setInterval(() => {
        const now = Atomics.load(counter, 0);
        if (now !== last) {
          last = now;
          lastChange = Date.now();
        } else if (Date.now() - lastChange > watchdogMs) {
          clearInterval(watchdog);
          reject(new Error(`hang: document ${now} (1-based, seed ${input.seed}) made no progress for ${watchdogMs} ms; rerun with FUZZ_SEED=${input.seed}`));
        }
      }, 1000);
      worker.once('message', (m: O) => {
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

export interface FuzzRun {
  readonly count: number;
  readonly seed: number;
  readonly progress: SharedArrayBuffer;
}

/** The part of a worker's FuzzOutput that fuzzDocuments fills in, the same for every fuzzer. */
export type FuzzedDocuments = Pick<FuzzOutput, 'ok' | 'error' | 'documents' | 'ms'>;

/**
 * Checks `count` documents drawn from `docs` with `check` (which throws on a
 * failure), counting each in `progress` for the watchdog; says how many were
 * drawn and how long it took. On a failure, `error` holds the first failure in
 * our own words (fast-check's report may fail on odd values) and fast-check's
 * report. The first `skip` documents are drawn but not checked (to reach a
 * reported one of a seed fast).
 */
export function fuzzDocuments<D extends Doc>(docs: fc.Arbitrary<D>, run: FuzzRun, check: (doc: D) => void, skip = 0): FuzzedDocuments {
  const started = performance.now();
  const error = checkDocuments(docs, run, check, skip);
  return {
    ok: error === undefined,
    ...(error !== undefined ? { error } : {}),
    documents: Atomics.load(new Int32Array(run.progress), 0),
    ms: performance.now() - started,
  };
}

/** fuzzDocuments' checking: undefined when every document passes, else the failure's report. */
function checkDocuments<D extends Doc>(docs: fc.Arbitrary<D>, run: FuzzRun, check: (doc: D) => void, skip: number): string | undefined {
  const progress = new Int32Array(run.progress);
  let firstFailure: string | undefined;
  try {
    fc.assert(
      fc.property(docs, (doc) => {
        const index = Atomics.add(progress, 0, 1);
        if (index < skip) return;
        // FUZZ_DUMP=<file>: each document is written there before it is checked, so a hang leaves its document behind.
        if (process.env.FUZZ_DUMP) fs.writeFileSync(process.env.FUZZ_DUMP, `${doc.how}\n${doc.text}`);
        try {
          check(doc);
        } catch (err) {
          const message = safeString(err);
          firstFailure ??= `document ${index + 1} (seed ${run.seed}): ${message.slice(0, 3000)}\n  ${String(doc.how).slice(0, 1500)}\n  text (${doc.text.length} chars) starts ${JSON.stringify(doc.text.slice(0, 600))}`;
          throw new Error(message.split('\n')[0]);
        }
      }),
      { numRuns: run.count, seed: run.seed, includeErrorInReport: true },
    );
  } catch (err) {
    return `${firstFailure ?? ''}\n${safeString(err).slice(0, 3000)}`;
  }
  return undefined;
}

/** `count` documents shared among `workers` workers, each with its own seed (`seed + i`), run under the watchdog; their outputs. */
export function runWorkers<E extends object, O>(
  file: string,
  flag: string,
  opts: { readonly count: number; readonly seed: number; readonly workers: number; readonly watchdogMs: number },
  extra: E,
): Promise<O[]> {
  const { count, seed, workers, watchdogMs } = opts;
  return Promise.all(
    Array.from({ length: workers }, (_, i) => {
      const share = Math.floor(count / workers) + (i < count % workers ? 1 : 0);
      return runWatched<E & FuzzRun, O>(file, flag, { ...extra, count: share, seed: seed + i, progress: new SharedArrayBuffer(4) }, watchdogMs);
    }),
  );
}

/**
 * A worker's slowest documents, kept to be profiled: with FUZZ_SLOWEST=<dir>
 * set, `write` leaves the `keep` slowest there as `slow-<ms>-s<worker
 * seed>.<suffix>`, each with a `.how` file saying how it was made. Without the
 * variable, nothing is kept.
 */
export class SlowestDocuments<D extends Doc> {
  private readonly kept: Array<{ readonly ms: number; readonly doc: D }> = [];

  constructor(
    /** The file name's ending for a document (`workflow.json`, `statechart.yaml`): what the checker reads it as. */
    private readonly suffix: (doc: D) => string,
    private readonly dir: string | undefined = process.env.FUZZ_SLOWEST,
    private readonly keep = 5,
  ) {}

  offer(ms: number, doc: D): void {
    if (!this.dir || (this.kept.length >= this.keep && ms <= this.kept[this.kept.length - 1]!.ms)) return;
    this.kept.push({ ms, doc });
    this.kept.sort((a, b) => b.ms - a.ms);
    this.kept.length = Math.min(this.kept.length, this.keep);
  }

  write(seed: number): void {
    if (!this.dir) return;
    fs.mkdirSync(this.dir, { recursive: true });
    for (const { ms, doc } of this.kept) {
      const base = path.join(this.dir, `slow-${ms.toFixed(1)}-s${seed}.${this.suffix(doc)}`);
      fs.writeFileSync(base, doc.text);
      fs.writeFileSync(`${base}.how`, `${doc.how}\n`);
    }
  }
}

/** The environment's settings: FUZZ_COUNT, FUZZ_SEED (replays a run), FUZZ_DOC_LIMIT_MS, FUZZ_WATCHDOG_MS, FUZZ_WORKERS. */
export function fuzzSettings(defaultCount: number) {
  return {
    count: Number(process.env.FUZZ_COUNT ?? defaultCount),
    seed: process.env.FUZZ_SEED === undefined ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(process.env.FUZZ_SEED),
    /** A document that takes longer than this fails the property (generous: a hang guard, not a speed test). */
    perDocLimitMs: Number(process.env.FUZZ_DOC_LIMIT_MS ?? 5000),
    /** No progress for this long: the worker is hung, terminate it. */
    watchdogMs: Number(process.env.FUZZ_WATCHDOG_MS ?? 60_000),
    workers: Math.max(1, Number(process.env.FUZZ_WORKERS ?? 1)),
  };
}

/** What every fuzzing worker reports. */
export interface FuzzOutput {
  readonly ok: boolean;
  readonly error?: string;
  readonly documents: number;
  readonly ms: number;
  readonly slowestMs: number;
  readonly diagnostics: number;
  readonly loaded: number;
}

/**
 * Reports a run (as a test diagnostic, and to FUZZ_SUMMARY when set) and
 * asserts that every worker passed and all the documents ran. `extra` adds a
 * fuzzer's own counts to the summary.
 */
export function finishFuzz(
  t: { diagnostic(message: string): void },
  outs: readonly FuzzOutput[],
  run: { readonly count: number; readonly seed: number; readonly workers: number; readonly ms: number },
  extra: Record<string, unknown>,
): void {
  const documents = outs.reduce((a, o) => a + o.documents, 0);
  const summary = {
    documents,
    workers: run.workers,
    seconds: Number((run.ms / 1000).toFixed(1)),
    msPerDocPerWorker: Number((outs.reduce((a, o) => a + o.ms, 0) / Math.max(1, documents)).toFixed(2)),
    slowestMs: Number(Math.max(...outs.map((o) => o.slowestMs)).toFixed(1)),
    diagnostics: outs.reduce((a, o) => a + o.diagnostics, 0),
    ...extra,
    seed: run.seed,
  };
  t.diagnostic(JSON.stringify(summary));
  if (process.env.FUZZ_SUMMARY) fs.writeFileSync(process.env.FUZZ_SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);
  for (const [i, out] of outs.entries()) assert.ok(out.ok, `worker ${i} (seed ${run.seed + i}): ${out.error}`);
  assert.ok(documents >= run.count, `ran ${documents} of ${run.count} documents`);
}

/** `checkWorkflowFile(text, file)` timed; a throw becomes a failure that says so; slower than `limitMs` fails too. */
export function timedCheck(text: string, file: string, limitMs: number): { result: ReturnType<typeof checkWorkflowFile>; ms: number } {
  const started = performance.now();
  let result;
  try {
    result = checkWorkflowFile(text, file);
  } catch (err) {
    throw new Error(`checkWorkflowFile threw: ${safeString(err)}`);
  }
  const ms = performance.now() - started;
  if (ms > limitMs) throw new Error(`took ${ms.toFixed(0)} ms (limit ${limitMs} ms)`);
  return { result, ms };
}
