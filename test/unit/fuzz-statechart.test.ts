/**
 * Fuzzing the statechart loader and validator (`checkWorkflowFile` on
 * `*.statechart.yaml` / `*.statechart.json`) with fast-check.
 *
 * Documents: the statechart fixtures (the seed's examples and the rules'
 * fixtures), mutated as JSON trees (test/unit/support/fuzz-harness.ts: deleted
 * keys, wrong types, huge strings, deep nesting, `__proto__` keys, copies)
 * and as charts (targets between existing states, eventless cycles, guards
 * and delays that are odd expressions, invocations of every kind, regions,
 * history), written as YAML or as JSON and then often broken as text; plus
 * generated chart-like documents and junk.
 *
 * For every document: no throw, no hang (a generous per-document limit, and
 * a watchdog on the worker), every diagnostic well-formed with its range
 * inside the text, a loaded chart's tree consistent (children and parents
 * agree), Object.prototype untouched.
 *
 * Time: there is no per-document target (the YAML is read by the `yaml`
 * package as it is). The run reports the slowest document; only a document
 * slower than FUZZ_DOC_LIMIT_MS (5 s, a hang guard) fails.
 *
 * FUZZ_COUNT sets the number of documents (default 2,000 here; `npm run
 * test:soak` runs 100,000), FUZZ_WORKERS the workers, FUZZ_SEED replays a run,
 * FUZZ_SKIP skips to a document, FUZZ_DUMP=<file> leaves each document there
 * before it is checked (the one a hang stopped at), FUZZ_SLOWEST=<dir> writes
 * each worker's slowest documents there (`slow-<ms>-s<worker seed>.statechart.<yaml|json>`,
 * with a `.how` file saying how each was made) to profile them.
 */
import { test } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { parseDocument, stringify } from 'yaml';
import { cloneJson } from '../../src/engine/model/json-value';
import type { JsonObject, JsonValue, Workflow } from '../../src/engine/model/index.js';
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
  getAt,
  makeDoc,
  protoNames,
  runWorkers,
  setOwn,
  slots,
  smallJson,
  textMutation,
  timedCheck,
  treeMutation,
  type Doc,
  type TextMutation,
  type TreeMutation,
  SlowestDocuments,
} from './support/fuzz-harness';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'statecharts');
const { count: COUNT, seed: SEED, perDocLimitMs: PER_DOC_LIMIT_MS, watchdogMs: WATCHDOG_MS, workers: WORKERS } = fuzzSettings(2000);
/** Generate but do not check the first FUZZ_SKIP documents (to reach a reported failure of a seed fast). */
const SKIP = Number(process.env.FUZZ_SKIP ?? 0);

type WorkerInput = FuzzRun & { readonly dir: string };

interface WorkerOutput extends FuzzOutput {
  /** Of `ms`, the time in checkWorkflowFile (the rest is making documents). */
  readonly checkMs: number;
  readonly slowest?: string;
  readonly yaml: number;
}

// ---------------------------------------------------------------------------
// Seeds: every statechart fixture, as a JSON tree
// ---------------------------------------------------------------------------

function loadSeeds(): JsonObject[] {
  const out: JsonObject[] = [];
  for (const sub of ['spec', 'rules']) {
    const dir = path.join(FIXTURES, sub);
    for (const f of fs.readdirSync(dir).sort()) out.push(parseDocument(fs.readFileSync(path.join(dir, f), 'utf8')).toJS() as JsonObject);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Chart mutations
// ---------------------------------------------------------------------------

const NAMES = ['a', 'b', 'done', 'pending', 'complete', 'x.y', 'a.b.c', '', '.', '*', '#root', '__proto__', 'constructor', 'toString'];
const EXPRESSIONS = [
  'context.score >= 90',
  "context.risk_level == 'low' and not context.x",
  'context.a.b[0] + 1',
  'len(context.list) > 0 or event.data.ok',
  'now()',
  "agents.select('reviewer', context.task)",
  'context.__proto__.polluted',
  'constructor.constructor("return 1")()',
  'toString.constructor',
  'event.data["__proto__"]',
  '>> 90',
  '(((',
  ')',
  "'unterminated",
  '1e999',
  '-',
  'context.',
  '',
];
const expression: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...EXPRESSIONS) },
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((n) => `${'('.repeat(n)}1${')'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => Array(n).fill('context.a').join(' + ')) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 50_000 }).map((n) => `'${'x'.repeat(n)}'`) },
);
const target: fc.Arbitrary<JsonValue> = fc.oneof(fc.constantFrom(...NAMES), fc.array(fc.constantFrom(...NAMES), { maxLength: 3 }), fc.string({ maxLength: 6 }));
const candidate: fc.Arbitrary<JsonValue> = fc.oneof(
  target,
  fc.record(
    { target, guard: expression, actions: fc.oneof(fc.constantFrom<JsonValue>('log', 'hello', 'assign'), fc.constant<JsonValue>([{ type: 'log', message: 'x' }])), reenter: fc.oneof(fc.boolean(), smallJson) },
    { requiredKeys: [] },
  ) as fc.Arbitrary<JsonValue>,
);
const transition: fc.Arbitrary<JsonValue> = fc.oneof(candidate, fc.array(candidate, { maxLength: 4 }));
const SRCS = ['statechart:', 'statechart:child', 'statechart:child@1.0.0', 'statechart:child@9', 'statechart:@', 'agent:', 'agent:builder', 'agent_executor', 'svc', '', '__proto__'];
const invocation: fc.Arbitrary<JsonValue> = fc.record(
  { id: fc.oneof(fc.constantFrom('task', '__proto__', ''), smallJson), src: fc.oneof(fc.constantFrom(...SRCS), smallJson), input: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(expression, smallJson), { maxKeys: 3 }), smallJson), onDone: transition, onError: transition },
  { requiredKeys: [] },
);
const action: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom('log', 'hello', 'raise', '__proto__'),
  fc.record({ type: fc.constantFrom('assign', 'raise', 'emit', 'send', 'log', 'invoke', 'lgo', '__proto__'), context_updates: fc.dictionary(fc.constantFrom('n', 'score', 'x', '__proto__', 'constructor'), fc.oneof(expression, smallJson), { maxKeys: 3 }), event: fc.constantFrom('E', '', '*'), target: fc.constantFrom('admin', ''), message: fc.string({ maxLength: 5 }), handler: fc.constantFrom('timers.start', '') }, { requiredKeys: ['type'] }),
);
const region: fc.Arbitrary<JsonValue> = fc.record({ id: fc.oneof(fc.constantFrom('r1', 'r2', 'r1', '', 'a.b', '__proto__'), smallJson), initial: fc.constantFrom(...NAMES), states: fc.dictionary(fc.constantFrom('a', 'b', 'done'), fc.constantFrom<JsonValue>({}, null, { type: 'final' }, { on: { GO: 'b' } }, { always: 'a' }), { maxKeys: 3 }) }, { requiredKeys: [] });

/** A chart field and a value of roughly the right shape (or deliberately not). */
const chartField: fc.Arbitrary<[string, JsonValue]> = fc.oneof(
  fc.tuple(fc.constantFrom('on'), fc.dictionary(fc.constantFrom('GO', 'SUBMIT', '*', '__proto__', ''), transition, { maxKeys: 3 })),
  fc.tuple(fc.constantFrom('always', 'onDone', 'onAllDone', 'onError'), transition),
  fc.tuple(fc.constantFrom('after'), fc.dictionary(fc.oneof(fc.constantFrom('0', '1000', '86400000', '99999999999999999999', '-1', '1.5', 'context.ms'), expression), transition, { maxKeys: 3 })),
  fc.tuple(fc.constantFrom('invoke'), fc.oneof(invocation, fc.array(invocation, { maxLength: 3 }))),
  fc.tuple(fc.constantFrom('entry', 'exit', 'actions'), fc.oneof(action, fc.array(action, { maxLength: 3 }))),
  fc.tuple(fc.constantFrom('type'), fc.constantFrom<JsonValue>('atomic', 'compound', 'parallel', 'final', 'history', 'normal', 'paralel', 3)),
  fc.tuple(fc.constantFrom('regions'), fc.oneof(fc.array(region, { maxLength: 3 }), smallJson)),
  fc.tuple(fc.constantFrom('initial', 'target', 'variant', 'src', 'guard'), fc.oneof(fc.constantFrom<JsonValue>(...NAMES, 'deep', 'shallow'), expression)),
  fc.tuple(fc.constantFrom('context'), fc.dictionary(fc.constantFrom('n', 'score', '__proto__', 'constructor'), smallJson, { maxKeys: 4 })),
  fc.tuple(fc.constantFrom('machine_registry'), fc.array(fc.record({ id: fc.constantFrom('child', '', '__proto__'), version: fc.oneof(fc.constantFrom('1.0.0', ''), smallJson), src: fc.constantFrom('child.statechart.yaml', '../x', '') }, { requiredKeys: [] }), { maxLength: 3 })),
  fc.tuple(fc.constantFrom('services'), fc.oneof(fc.array(fc.constantFrom('svc', 'agent_executor', '__proto__'), { maxLength: 3 }), smallJson)),
  fc.tuple(fc.constantFrom('meta'), fc.record({ label: smallJson, color: smallJson, position: fc.oneof(fc.record({ x: fc.integer(), y: fc.integer() }), smallJson) }, { requiredKeys: [] })),
);

type Mutation =
  | TreeMutation
  /** Sets a chart field on some object of the document. */
  | { op: 'field'; at: number; field: [string, JsonValue] }
  /** Points a transition of one state at another existing state (cycles, ancestors, regions). */
  | { op: 'link'; from: number; to: number; via: 'always' | 'on' | 'after' | 'onDone' | 'initial' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: treeMutation },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('field' as const), at: fc.nat(), field: chartField }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('link' as const), from: fc.nat(), to: fc.nat(), via: fc.constantFrom('always' as const, 'on' as const, 'after' as const, 'onDone' as const, 'initial' as const) }) },
);

/** Every [name, state object] under some `states` of the document. */
function stateObjects(doc: JsonObject): Array<[string, JsonObject]> {
  const out: Array<[string, JsonObject]> = [];
  for (const s of slots(doc)) {
    if (s.key !== 'states') continue;
    const states = getAt(s);
    if (!states || typeof states !== 'object' || Array.isArray(states)) continue;
    for (const [k, v] of Object.entries(states)) if (v && typeof v === 'object' && !Array.isArray(v)) out.push([k, v]);
  }
  return out;
}

function applyMutation(doc: JsonObject, m: Mutation): void {
  if (m.op === 'field') {
    const objects = slots(doc)
      .map(getAt)
      .filter((v): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v));
    setOwn(objects.length ? objects[m.at % objects.length]! : doc, m.field[0], cloneJson(m.field[1]));
    return;
  }
  if (m.op === 'link') {
    const states = stateObjects(doc);
    if (states.length === 0) return;
    const [, from] = states[m.from % states.length]!;
    const [name] = states[m.to % states.length]!;
    if (m.via === 'on') setOwn(from, 'on', { FUZZ: name });
    else if (m.via === 'after') setOwn(from, 'after', { 1000: name });
    else setOwn(from, m.via, name);
    return;
  }
  applyTreeMutation(doc, m);
}

const YAML_FRAGMENTS = [':', ': ', '- ', '  ', '\t', '&a ', '*a', '*nope', '!!str ', '!!binary ', '? ', '|', '>-', '#', '"', "'", '{', '}', '[', ']', '---\n', '...\n', '\n', '%YAML 1.2\n', '<<: *a', '\ufeff', '\u0000', '\r\n', 'on: yes', '~'];
const JSON_FRAGMENTS = ['{', '}', '[', ']', ',', ':', '"', '\\', '/*', '*/', '//', ',}', ',]', 'null', 'tru', '1e999', '-', '\u2028', '\ufeff', '\u0000', '"__proto__":', '"constructor":{}', '\n\n'];

// ---------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------

interface ChartDoc extends Doc {
  readonly syntax: 'yaml' | 'json';
}

/**
 * YAML as the `yaml` package writes it, or JSON. A deeply nested tree goes out
 * as JSON either way (JSON is YAML too, in flow style): block-style YAML
 * indents every level, so its size grows with the square of the depth.
 */
function write(doc: JsonValue, syntax: 'yaml' | 'json', pretty: boolean, deep = false): string {
  const json = () => JSON.stringify(doc, null, pretty && !deep ? 2 : undefined);
  if (syntax === 'json' || deep) return json();
  try {
    return stringify(doc, { lineWidth: 0 });
  } catch {
    return json();
  }
}

function documents(seeds: readonly JsonObject[]): fc.Arbitrary<ChartDoc> {
  const syntax = fc.constantFrom('yaml' as const, 'json' as const);
  const mutated = fc
    .record({
      seed: fc.nat({ max: seeds.length - 1 }),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }),
      syntax,
      yamlText: fc.array(textMutation(YAML_FRAGMENTS), { minLength: 1, maxLength: 4 }),
      jsonText: fc.array(textMutation(JSON_FRAGMENTS), { minLength: 1, maxLength: 4 }),
      breakText: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 2, arbitrary: fc.constant(true) }),
      pretty: fc.boolean(),
    })
    .map(({ seed, mutations, syntax, yamlText, jsonText, breakText, pretty }): ChartDoc => {
      const doc = cloneJson(seeds[seed]!);
      for (const m of mutations) applyMutation(doc, m);
      const deep = mutations.some((m) => m.op === 'deep');
      let text = write(doc, syntax, pretty, deep);
      if (text.length > 2_000_000) text = text.slice(0, 2_000_000);
      const textMutations: TextMutation[] = breakText ? (syntax === 'yaml' ? yamlText : jsonText) : [];
      for (const t of textMutations) text = applyTextMutation(text, t);
      return { ...makeDoc(text, `seed ${seed} (${syntax}); ${JSON.stringify(mutations).slice(0, 400)}; text ${JSON.stringify(textMutations)}`), syntax };
    });
  const node: fc.Arbitrary<JsonValue> = fc.letrec<{ node: JsonValue }>((tie) => ({
    node: fc.oneof(
      // Three levels at most: deep nesting is the tree mutations' job, and a wide generated tree costs more to make than to check.
      { maxDepth: 3, depthIdentifier: 'chart-node', withCrossShrink: true },
      fc.constantFrom<JsonValue>(null, {}, { type: 'final' }, { type: 'history', variant: 'deep' }),
      fc.record(
        {
          type: fc.constantFrom('atomic', 'compound', 'parallel', 'final', 'history'),
          initial: fc.constantFrom(...NAMES),
          states: fc.dictionary(fc.constantFrom('a', 'b', 'done', 'p', '__proto__'), tie('node'), { maxKeys: 3, depthIdentifier: 'chart-node' }),
          regions: fc.array(fc.record({ id: fc.constantFrom('r1', 'r2'), initial: fc.constantFrom('a', 'b'), states: fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 2, depthIdentifier: 'chart-node' }) }), { maxLength: 2, depthIdentifier: 'chart-node' }),
          on: fc.dictionary(fc.constantFrom('GO', 'BACK', '*'), transition, { maxKeys: 2 }),
          always: transition,
          after: fc.dictionary(fc.constantFrom('100', 'context.ms'), transition, { maxKeys: 2 }),
          invoke: invocation,
          entry: action,
        },
        { requiredKeys: [] },
      ),
    ),
  })).node;
  const generated = fc
    .record({ root: fc.record({ id: fc.string({ maxLength: 5 }), initial: fc.constantFrom(...NAMES), context: fc.dictionary(fc.constantFrom('n', 'score'), smallJson), states: fc.dictionary(fc.constantFrom('a', 'b', 'done', 'p', ...DANGEROUS_KEYS), node, { maxKeys: 5 }) }, { requiredKeys: [] }), syntax })
    .map(({ root, syntax }): ChartDoc => ({ ...makeDoc(write({ statechart: root }, syntax, true), `generated chart (${syntax})`), syntax }));
  const junk = fc.record({ text: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('statechart:', 'statechart: [', '- statechart', 'statechart: &a\n  x: *a', '{"statechart": ', '\ufeffstatechart:\n\tstates: {}')), syntax }).map(({ text, syntax }): ChartDoc => ({ ...makeDoc(text, 'junk'), syntax }));
  return fc.oneof({ weight: 14, arbitrary: mutated }, { weight: 3, arbitrary: generated }, { weight: 1, arbitrary: junk });
}

// ---------------------------------------------------------------------------
// The property, in a worker so a hang can be caught and reported
// ---------------------------------------------------------------------------

/** Children and parents agree, every id is its parent's id and its key. */
function checkTree(wf: Workflow): void {
  for (const id of wf.topLevel) if (wf.states.get(id)?.parent !== undefined) throw new Error(`top-level ${id} has a parent`);
  for (const [id, s] of wf.states) {
    if (s.id !== id || id !== (s.parent === undefined ? s.key : `${s.parent}.${s.key}`)) throw new Error(`state ${id}: id, key and parent disagree`);
    for (const c of s.children) if (wf.states.get(c)?.parent !== id) throw new Error(`child ${c} of ${id} does not name it as parent`);
  }
}

function runWorker(input: WorkerInput): WorkerOutput {
  const seeds = loadSeeds();
  const proto = protoNames();
  let slowest = 0;
  let checkMs = 0;
  let slowestHow: string | undefined;
  let diagnostics = 0;
  let loaded = 0;
  let yaml = 0;
  const kept = new SlowestDocuments<ChartDoc>((doc) => `statechart.${doc.syntax}`);
  const fuzzed = fuzzDocuments(documents(seeds), input, checkDocument, SKIP);
  function checkDocument(doc: ChartDoc): void {
    const file = path.join(input.dir, `fuzz.statechart.${doc.syntax}`);
    if (doc.syntax === 'yaml') yaml++;
    const { result, ms } = timedCheck(doc.text, file, PER_DOC_LIMIT_MS);
    checkMs += ms;
    if (ms > slowest) {
      slowest = ms;
      slowestHow = `${doc.text.length} chars, ${doc.how.slice(0, 200)}`;
    }
    kept.offer(ms, doc);
    diagnostics += checkDiagnostics(result.diagnostics, doc.text, file);
    if (result.workflow) {
      loaded++;
      if (result.format !== 'statechart') throw new Error(`loaded as ${result.format}`);
      checkTree(result.workflow);
    }
    checkPrototype(proto);
  }
  kept.write(input.seed);
  return {
    ...fuzzed,
    checkMs,
    slowestMs: slowest,
    ...(slowestHow ? { slowest: slowestHow } : {}),
    diagnostics,
    loaded,
    yaml,
  };
}

if (!isMainThread && (workerData as { fuzzStatechart?: boolean } | undefined)?.fuzzStatechart) {
  parentPort!.postMessage(runWorker(workerData as WorkerInput));
} else if (isMainThread) {
  test(`fuzz: ${COUNT} mutated and generated statechart documents (YAML and JSON) through checkWorkflowFile (seed ${SEED})`, { timeout: Math.max(600_000, COUNT * 20) }, async (t) => {
    // A workspace the default resolvers read: a registry with a machine and a service, and a chart found by id.
    const dir = tempDir('sg-fuzz-chart-', t);
    fs.mkdirSync(path.join(dir, '.stategate'));
    fs.writeFileSync(path.join(dir, '.stategate', 'registry.yaml'), 'machine_registry:\n  - {id: child, version: "1.0.0", src: ../child.statechart.yaml}\nservices: [svc]\n');
    fs.writeFileSync(path.join(dir, 'child.statechart.yaml'), 'statechart:\n  id: child\n  version: "1.0.0"\n  initial: s\n  states:\n    s: {type: final}\n');
    const workers = WORKERS;
    const t0 = performance.now();
    const outs = await runWorkers<{ dir: string }, WorkerOutput>(__filename, 'fuzzStatechart', { count: COUNT, seed: SEED, workers, watchdogMs: WATCHDOG_MS }, { dir });
    const slowest = outs.reduce((a, o) => (o.slowestMs > a.slowestMs ? o : a));
    finishFuzz(t, outs, { count: COUNT, seed: SEED, workers, ms: performance.now() - t0 }, {
      checkMsPerDoc: Number((outs.reduce((a, o) => a + o.checkMs, 0) / Math.max(1, outs.reduce((a, o) => a + o.documents, 0))).toFixed(2)),
      slowest: slowest.slowest,
      yamlDocuments: outs.reduce((a, o) => a + o.yaml, 0),
      loadedAsChart: outs.reduce((a, o) => a + o.loaded, 0),
    });
  });
}
