/**
 * Compiled definitions (src/engine/store/compiled-definitions.ts, model/ir-json.ts,
 * docs/design/compiled-definition.md): the IR written as JSON reads back as the very IR the
 * loaders made, for every fixture of every format; a run decided from its compiled definition
 * decides exactly as one decided from its source; a compiled file that is missing, corrupt, of
 * another IR version or for another text is never used (the text is loaded again), and one an
 * agent tries to write is denied.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { Runner } from '../../src/engine/runs/runner';
import { analyseForPolicy } from '../../src/engine/shell/gate';
import { loadFromSource } from '../../src/engine/machine/env';
import { IR_VERSION, irFromJson, irToJson } from '../../src/engine/model/ir-json';
import { compiledDir, compiledFileOf, readCompiled, writeCompiled } from '../../src/engine/store/compiled-definitions';
import type { Workflow } from '../../src/engine/model/index';
import { hashText } from '../../src/engine/machine/run';
import type { ToolCall } from '../../src/engine/policy/decide';

/** Every definition fixture of every format (flows load too: their IR is compiled like the others'). */
function fixtures(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(workflow\.json|statechart\.(ya?ml|json)|flow\.ya?ml)$/.test(e.name)) out.push(p);
    }
  };
  for (const d of ['examples', 'test/fixtures/workflows', 'test/fixtures/statecharts', 'test/fixtures/flows', 'test/fixtures/hooks']) walk(path.join(REPO_ROOT, d));
  return out.sort();
}

const FIXTURES = fixtures();
const rel = (f: string): string => path.relative(REPO_ROOT, f);
/** structuredClone: class instances of the IR become plain objects, Maps, Sets, undefined fields and -0 stay what they are. */
const plain = (wf: Workflow | undefined): unknown => structuredClone(wf);

test('every fixture of every format reads back from its compiled JSON as the IR its loader made', () => {
  let loaded = 0;
  for (const file of FIXTURES) {
    const wf = loadFromSource(fs.readFileSync(file, 'utf8'));
    if (!wf) continue; // a fixture with errors: the machine gets nothing, and `null` is compiled (below)
    loaded++;
    const back = irFromJson(JSON.parse(JSON.stringify(irToJson(wf))));
    assert.deepStrictEqual(plain(back), plain(wf), rel(file));
  }
  assert.ok(loaded >= 60, `${loaded} fixtures loaded`);
  assert.ok(FIXTURES.some((f) => /\.ya?ml$/.test(f)) && FIXTURES.some((f) => f.endsWith('.json')));
});

/** What JSON alone would lose or misread, each one a row: the encoding keeps it. */
const EDGE_VALUES: readonly { name: string; value: unknown }[] = [
  { name: 'a Map with non-string keys', value: new Map<unknown, unknown>([[1, 'a'], ['1', 'b']]) },
  { name: 'a Set', value: new Set(['x', 'y']) },
  { name: 'a field set to undefined', value: { a: undefined, b: 1 } },
  { name: 'undefined in an array', value: [1, undefined, 3] },
  { name: '-0, NaN and the infinities', value: [-0, NaN, Infinity, -Infinity] },
  { name: "an author's object with a $t key", value: { $t: 'm', v: [['k', 1]] } },
  { name: "an author's object with a $t key that is an object", value: { $t: { $t: 'u' } } },
  { name: "an author's __proto__ key", value: JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') },
];

test('values JSON alone would lose read back as they were', () => {
  for (const row of EDGE_VALUES) {
    const wf = { states: new Map([['s', { context: row.value }]]) } as unknown as Workflow;
    const back = irFromJson(JSON.parse(JSON.stringify(irToJson(wf))));
    assert.deepStrictEqual(plain(back), plain(wf), row.name);
  }
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'no prototype was polluted');
});

test('what is not data is never compiled, and a value no compiler wrote is refused', () => {
  assert.throws(() => irToJson({ states: new Map([['s', { f: () => 1 }]]) } as unknown as Workflow), /function at \/states\/s\/f/);
  for (const bad of [null, [], {}, { states: [] }, { states: { $t: 'm', v: 'x' } }, { states: { $t: 'zz' } }, { states: { $t: 'n', v: '12' } }]) {
    assert.throws(() => irFromJson(bad), Error, JSON.stringify(bad));
  }
});

test('the IR version is pinned to the model: a change to src/engine/model/\'s code must bump IR_VERSION (and this table)', () => {
  // Changing what the IR holds makes compiled files of the old shape wrong: bump IR_VERSION so they are never read
  // (compiled-definitions.ts), then pin the model's new fingerprint here. Comments and spacing do not count.
  // Re-pinned without a bump when a change left the IR as it was (main's removal of the unused isFinal(), for one).
  const PINNED: Record<number, string> = { 1: '34737619b843643e' };
  const dir = path.join(REPO_ROOT, 'src/engine/model');
  // The files the IR's types are declared in (Workflow and what it holds); the run's own types live beside them.
  const code = ['workflow.ts', 'chart.ts', 'flow.ts', 'source.ts', 'json-types.ts', 'diagnostic.ts'].map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/\s+/g, '')).join('');
  const fingerprint = hashText(code).slice(0, 16);
  assert.equal(fingerprint, PINNED[IR_VERSION], `src/engine/model/'s code changed (fingerprint ${fingerprint}): bump IR_VERSION if what the loaders produce changed, and pin it`);
});

/** A workspace holding a copy of the fixture's folder (invoked workflows and child charts sit beside it). */
function workspace(fixture: string, t: { after(fn: () => void): void }): { root: string; file: string } {
  const root = tempDir('sg-compiled-', t);
  fs.cpSync(path.dirname(fixture), root, { recursive: true });
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'const a = 1;\n');
  return { root, file: path.join(root, path.basename(fixture)) };
}

const NOW = () => '2026-12-07T00:00:00.000Z';

/** The calls each run is asked to decide, in order (an allowed call is counted, so the order matters and is the same on both sides). */
function calls(root: string): ToolCall[] {
  return [
    { tool: 'Read', input: { file_path: path.join(root, 'src', 'a.ts') } },
    { tool: 'Edit', input: { file_path: path.join(root, 'src', 'a.ts'), old_string: 'const a = 1;', new_string: 'const a = 2;' } },
    { tool: 'Write', input: { file_path: path.join(root, '.stategate', 'active'), content: 'x' } },
    { tool: 'Bash', input: { command: 'git status' } },
    { tool: 'Bash', input: { command: 'npm test && rm -rf src' } },
  ];
}

/**
 * The run's answers to `calls`, its state, one event (the first the state offers), then its state and a
 * read and a shell call in the state that event led to; without what differs by run (ids, the workspace's
 * folder). Each allowed call commits (fsyncs included): the second round is kept short for the suite's time.
 */
async function decisions(runner: () => Runner, root: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const scrub = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null).split(root).join('WS').replace(/\d{8}T\d{6}Z-[0-9a-f]{6}/g, 'RUN'));
  const all = calls(root);
  for (const round of [all, [all[0]!, all[3]!]]) {
    const state = await runner().state().catch((e: Error) => ({ error: e.message }));
    out.push(scrub(state));
    for (const call of round) out.push(scrub(await runner().tool(call, { client: 'claude', cwd: root })));
    const event = (state as { transitions?: { event: string }[] }).transitions?.[0]?.event;
    if (event && round === all) out.push(scrub(await runner().send(event).catch((e: Error) => ({ error: e.message }))));
  }
  return out;
}

test('a run decided from its compiled definition decides exactly as one decided from its source, for every runnable fixture', async (t) => {
  const runnable = FIXTURES.filter((f) => !/\.flow\.ya?ml$/.test(f) && loadFromSource(fs.readFileSync(f, 'utf8')));
  let compared = 0;
  for (const fixture of runnable) {
    const stateDir = tempDir('sg-compiled-state-', t);
    const fromSource = workspace(fixture, t);
    const fromCompiled = workspace(fixture, t);
    const options = (root: string, compiled: boolean) => ({ dir: path.join(root, '.stategate'), stateDir, now: NOW, environment: {}, analyseShell: analyseForPolicy, compiled });
    const source = new Runner(options(fromSource.root, false));
    const started = await source.start(fromSource.file).catch(() => undefined);
    if (!started) continue; // not startable as it is (e.g. it needs an invoked workflow that is not beside it): nothing to decide
    await new Runner(options(fromCompiled.root, true)).start(fromCompiled.file);
    const text = fs.readFileSync(fixture, 'utf8');
    assert.equal(readCompiled(stateDir, text).kind, 'ok', `${rel(fixture)}: starting the run compiled its definition`);
    // A fresh Runner for every step: nothing is cached in memory, so each step reads the compiled file.
    const a = await decisions(() => source, fromSource.root);
    const b = await decisions(() => new Runner(options(fromCompiled.root, true)), fromCompiled.root);
    assert.deepStrictEqual(b, a, rel(fixture));
    compared++;
  }
  assert.ok(compared >= 40, `${compared} runs compared`);
});

/** A compiled file that must not be used, each a row: the run's decisions still come from its own text. */
const UNUSABLE: readonly { name: string; write: (file: string, good: string) => string }[] = [
  { name: 'missing', write: () => '' },
  { name: 'not JSON', write: () => '{"format": "stategate-compiled-def' },
  { name: 'of another IR version', write: (_, good) => good.replace(`"ir_version":${IR_VERSION}`, `"ir_version":${IR_VERSION + 1}`) },
  { name: 'compiled from another text', write: (_, good) => good.replace(/"source_sha256":"[0-9a-f]+"/, `"source_sha256":"${'0'.repeat(64)}"`) },
  { name: 'not a compiled definition', write: () => JSON.stringify({ format: 'x', ir_version: IR_VERSION }) },
  { name: 'a tag no compiler wrote', write: (_, good) => good.replace('{"$t":"m"', '{"$t":"q"') },
];

test('a compiled file that is missing, corrupt, of another version or for another text is not used: the text is loaded again and the file rewritten', async (t) => {
  const fixture = path.join(REPO_ROOT, 'test/fixtures/hooks/statechart/review.statechart.yaml');
  const text = fs.readFileSync(fixture, 'utf8');
  for (const row of UNUSABLE) {
    const stateDir = tempDir('sg-compiled-bad-', t);
    const ws = workspace(fixture, t);
    const options = { dir: path.join(ws.root, '.stategate'), stateDir, now: NOW, environment: {}, analyseShell: analyseForPolicy };
    await new Runner(options).start(ws.file);
    const file = compiledFileOf(stateDir, text);
    const good = fs.readFileSync(file, 'utf8');
    const bad = row.write(file, good);
    if (bad === '') fs.rmSync(file);
    else fs.writeFileSync(file, bad);
    assert.notEqual(readCompiled(stateDir, text).kind, 'ok', row.name);
    const read = await new Runner(options).tool({ tool: 'Read', input: { file_path: path.join(ws.root, 'src', 'a.ts') } }, { client: 'claude', cwd: ws.root });
    const expected = await new Runner({ ...options, compiled: false }).tool({ tool: 'Read', input: { file_path: path.join(ws.root, 'src', 'a.ts') } }, { client: 'claude', cwd: ws.root });
    assert.deepStrictEqual({ ...read, counted: true }, { ...expected, counted: true }, row.name);
    assert.equal(readCompiled(stateDir, text).kind, 'ok', `${row.name}: compiled again`);
  }
});

test('a compiled file is one of stategate\'s own files: an agent\'s write to it is denied, in a state that allows writing', async (t) => {
  const root = tempDir('sg-compiled-guard-ws-', t);
  const file = path.join(root, 'open.workflow.json');
  const text = JSON.stringify({ id: 'open', initial: 'work', states: { work: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash'], allowed_commands: ['cp', 'tee'], on: { DONE: 'done' } }, done: { type: 'final' } } });
  fs.writeFileSync(file, text);
  const stateDir = tempDir('sg-compiled-guard-', t);
  const runner = new Runner({ dir: path.join(root, '.stategate'), stateDir, now: NOW, analyseShell: analyseForPolicy });
  await runner.start(file);
  const target = compiledFileOf(stateDir, text);
  assert.ok(fs.existsSync(target));
  const ask = (call: ToolCall) => runner.tool(call, { client: 'claude', cwd: root });
  assert.equal((await ask({ tool: 'Write', input: { file_path: path.join(root, 'a.ts'), content: 'x' } })).decision, 'allow', 'the state allows writing');
  for (const call of [
    { tool: 'Write', input: { file_path: target, content: '{}' } },
    { tool: 'Edit', input: { file_path: target, old_string: '"states"', new_string: '"x"' } },
    { tool: 'Write', input: { file_path: path.join(compiledDir(stateDir), 'new.json'), content: '{}' } },
    { tool: 'Bash', input: { command: `cp a.ts ${target}` } },
    { tool: 'Bash', input: { command: `tee ${target}` } },
  ]) {
    const answer = await ask(call);
    assert.equal(answer.decision, 'deny', `${call.tool} ${JSON.stringify(call.input)}: ${answer.reason}`);
    assert.match(answer.reason ?? '', /state folder/, `${call.tool} is denied for what it writes`);
  }
  assert.ok(writeCompiled(stateDir, 'x', undefined) && readCompiled(stateDir, 'x').kind === 'ok', 'stategate itself writes there');
});
