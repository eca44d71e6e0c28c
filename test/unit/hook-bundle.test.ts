/**
 * What the agent hook's bundle (dist/cli/hook.js, a process per tool call)
 * carries, and what it leaves to the bundles it requires only when needed
 * (scripts/build.mjs, docs/architecture.md "Bundles"): deciding a call on a
 * flat workflow's run compiles hook.js alone, so the statechart interpreter
 * (with the expression language and jsep), the PostgreSQL store's code and
 * driver, picomatch, the checker, the shell analysis, the format loaders, the
 * `yaml` package and ajv must stay out of it; a run's definition is read
 * compiled (src/engine/store/compiled-definitions.ts), so deciding a call on a
 * run of any format requires none of the loaders' bundles either (recorded at
 * run time from the hook process's require.cache). Read from the bundles' source maps (the build
 * always writes them), then checked by running a copy of the CLI without
 * those bundles. The PostgreSQL store's bundle has its own copy of
 * StoreError: its errors are still StoreErrors to the Runner (isStoreError).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, requireBuiltCli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { Runner, RunnerError } from '../../src/engine/runs/runner';
import { isStoreError, StoreError } from '../../src/engine/store/store-error';
import type { RunSnapshot } from '../../src/engine/machine/run';

const DIST_CLI = path.join(REPO_ROOT, 'dist', 'cli');

/** The repository-relative source files a bundle was built from (its source map's `sources`). */
function sourcesOf(bundle: string): string[] {
  requireBuiltCli();
  const map = JSON.parse(fs.readFileSync(path.join(DIST_CLI, `${bundle}.map`), 'utf8')) as { sources: string[] };
  // A package is named from its node_modules/ folder wherever that is (a git worktree's may be a link to another checkout's).
  return map.sources.map((s) => path.relative(REPO_ROOT, path.resolve(DIST_CLI, s)).split(path.sep).join('/').replace(/^(\.\.\/)+[^/]+\/node_modules\//, 'node_modules/'));
}

/** The lazily loaded parts: what each bundle is for (a source it must carry), and what marks it in another bundle. */
const LAZY_PARTS: readonly { bundle: string; carries: string; marks: RegExp; requiredBy?: string; loadedAs?: RegExp }[] = [
  { bundle: 'hook-statechart.js', carries: 'src/engine/statechart/index.ts', marks: /^src\/engine\/(statechart\/(?!targets\.ts$|lazy\.ts$)|expr\/)|^node_modules\/jsep\// },
  { bundle: 'hook-pg-store.js', carries: 'src/engine/store/postgres/pg-storage.ts', marks: /^src\/engine\/store\/postgres\/(?!store-url-env\.ts$)/ },
  { bundle: 'hook-postgres.js', carries: 'node_modules/postgres/cjs/src/index.js', marks: /^node_modules\/postgres\// },
  { bundle: 'hook-picomatch.js', carries: 'node_modules/picomatch/index.js', marks: /^node_modules\/picomatch\// },
  { bundle: 'hook-check.js', carries: 'src/engine/check/check-file.ts', marks: /^src\/engine\/check\// },
  // Loaded with its code cache (src/cli/runner-factory.ts, code-cache.ts), by its path beside hook.js.
  { bundle: 'hook-shell.js', carries: 'src/engine/shell/analyse.ts', marks: /^src\/engine\/shell\/(?!rules\.ts$|write-paths\.ts$)|^node_modules\/web-tree-sitter\//, loadedAs: /\.join\(__dirname,"hook-shell\.js"\)/ },
  // Only the format loaders read YAML: their bundle requires the package's.
  { bundle: 'hook-yaml.js', carries: 'src/engine/formats/yaml-package.ts', marks: /^node_modules\/yaml\//, requiredBy: 'hook-formats.js' },
  { bundle: 'hook-ajv.js', carries: 'src/engine/pipeline/payload-ajv.ts', marks: /^node_modules\/ajv(-formats)?\// },
  // The format loaders: what is left of formats/ in hook.js are constants engine/index.ts re-exports (their loaders are shaken out).
  { bundle: 'hook-formats.js', carries: 'src/engine/formats/statechart.ts', marks: /^src\/engine\/formats\/(?!(shared-empty|statewright-fields|stage-read|statewright|text-position|index|registry)\.ts$)/ },
];

test('hook.js carries none of the lazily loaded parts, and requires each from its own bundle beside it, which carries it', () => {
  const hook = sourcesOf('hook.js');
  assert.ok(hook.includes('src/cli/hook-command.ts') && hook.includes('src/engine/runs/runner.ts'), 'the source map names the hook\'s own files');
  const code = fs.readFileSync(path.join(DIST_CLI, 'hook.js'), 'utf8');
  for (const part of LAZY_PARTS) {
    assert.deepEqual(hook.filter((s) => part.marks.test(s)), [], `hook.js carries what ${part.bundle} is for`);
    assert.ok(sourcesOf(part.bundle).includes(part.carries), `${part.bundle} carries ${part.carries}`);
    const by = part.requiredBy ?? 'hook.js';
    const loader = by === 'hook.js' ? code : fs.readFileSync(path.join(DIST_CLI, by), 'utf8');
    if (part.bundle !== 'hook-postgres.js') assert.ok(part.loadedAs ? part.loadedAs.test(loader) : loader.includes(`require("./${part.bundle}")`), `${by} requires ./${part.bundle}`);
  }
  // The driver is required by the PostgreSQL store's bundle, which leaves the file store (run-store.ts) out.
  assert.ok(fs.readFileSync(path.join(DIST_CLI, 'hook-pg-store.js'), 'utf8').includes('require("./hook-postgres.js")'));
  assert.ok(!sourcesOf('hook-pg-store.js').includes('src/engine/store/run-store.ts'));
});

/** The flat workflow the hook benchmark runs (bench/measures/hook.ts). */
const FLAT = {
  id: 'flat',
  initial: 'work',
  states: {
    work: { allowed_tools: ['Read', 'Bash'], allowed_commands: ['git status'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

/** A copy of the built CLI with only the hook's bundles named in `keep` beside hook.js (and the other commands, to start runs). */
function cliWithout(keep: readonly string[]): string {
  const dist = path.join(tempDir('sg-hook-bundle-'), 'dist');
  fs.mkdirSync(path.join(dist, 'cli'), { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, 'dist', 'cli.js'), path.join(dist, 'cli.js'));
  for (const f of fs.readdirSync(path.join(REPO_ROOT, 'dist'))) if (f.endsWith('.wasm') || f === 'engine.js') fs.cpSync(path.join(REPO_ROOT, 'dist', f), path.join(dist, f));
  for (const f of fs.readdirSync(DIST_CLI)) {
    if (f.endsWith('.map') || (f.startsWith('hook-') && !keep.includes(f))) continue;
    fs.cpSync(path.join(DIST_CLI, f), path.join(dist, 'cli', f));
  }
  return path.join(dist, 'cli.js');
}

/** Starts `file` in workspace `cwd` in this process (the hook is what is tested; starting a run is the engine's). */
async function startRun(cwd: string, file: string): Promise<void> {
  await new Runner({ dir: path.join(cwd, '.stategate') }).start(path.join(cwd, file));
}

function hook(cliJs: string, cwd: string, tool: string, input: object, nodeArgs: readonly string[] = [], env: Record<string, string> = {}) {
  const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, transcript_path: path.join(cwd, 't.jsonl'), tool_name: tool, tool_input: input });
  const r = spawnSync(process.execPath, [...nodeArgs, cliJs, 'hook', '--client', 'claude'], { cwd, input: stdin, encoding: 'utf8', env: { ...process.env, ...env } });
  let decision: string | undefined;
  try {
    decision = JSON.parse(r.stdout)?.hookSpecificOutput?.permissionDecision;
  } catch {
    decision = undefined;
  }
  return { code: r.status, decision, stdout: r.stdout, stderr: r.stderr };
}

test('on a flat workflow\'s run, hook.js decides a Read with none of its lazy bundles, and a shell call with the shell analysis alone', async (t) => {
  const cwd = tempDir('sg-hook-flat-', t);
  fs.writeFileSync(path.join(cwd, 'flat.workflow.json'), JSON.stringify(FLAT));
  fs.writeFileSync(path.join(cwd, 'a.ts'), 'a\n');
  await startRun(cwd, 'flat.workflow.json');
  const bare = cliWithout([]);
  const read = hook(bare, cwd, 'Read', { file_path: path.join(cwd, 'a.ts') });
  assert.equal(read.code, 0, read.stderr);
  assert.notEqual(read.decision, 'deny', read.stdout);
  const shell = cliWithout(['hook-shell.js']);
  assert.notEqual(hook(shell, cwd, 'Bash', { command: 'git status' }).decision, 'deny');
  // The rules still hold: a command outside allowed_commands is denied by the same copy.
  assert.equal(hook(shell, cwd, 'Bash', { command: 'rm -rf src' }).decision, 'deny');
});

test('on a statechart run the hook needs hook-statechart.js: without it the call is denied (fail closed), with it decided', async (t) => {
  const cwd = tempDir('sg-hook-chart-bundle-', t);
  fs.copyFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'hooks', 'statechart', 'review.statechart.yaml'), path.join(cwd, 'review.statechart.yaml'));
  fs.writeFileSync(path.join(cwd, 'a.ts'), 'a\n');
  await startRun(cwd, 'review.statechart.yaml');
  const without = hook(cliWithout(['hook-yaml.js', 'hook-picomatch.js']), cwd, 'Read', { file_path: path.join(cwd, 'a.ts') });
  assert.equal(without.decision, 'deny');
  assert.match(without.stdout, /hook-statechart\.js/);
  const withIt = hook(cliWithout(['hook-yaml.js', 'hook-picomatch.js', 'hook-statechart.js']), cwd, 'Read', { file_path: path.join(cwd, 'a.ts') });
  assert.equal(withIt.code, 0, withIt.stderr);
  assert.equal(withIt.decision, hook(path.join(REPO_ROOT, 'dist', 'cli.js'), cwd, 'Read', { file_path: path.join(cwd, 'a.ts') }).decision);
});

/**
 * A run of each format, and a Read its current state allows. Deciding it, the hook process must load
 * no format loader, no YAML parser, no schema validator and no checker: the run's definition is read
 * compiled (src/engine/store/compiled-definitions.ts). Only a statechart run loads its interpreter.
 */
const RUNS: readonly { name: string; fixture: string; may?: readonly string[] }[] = [
  { name: 'Statewright JSON', fixture: 'examples/lint-fix.workflow.json' },
  { name: 'stage pipeline (completion schemas)', fixture: 'examples/code-review-pipeline.workflow.json' },
  { name: 'statechart YAML (guards, parallel regions)', fixture: 'test/fixtures/hooks/statechart/review.statechart.yaml', may: ['hook-statechart.js'] },
  { name: 'statechart JSON', fixture: 'test/fixtures/statecharts/spec/canonical.statechart.json', may: ['hook-statechart.js'] },
];
/** The lazy bundles a decision on a compiled run never needs: the format loaders, the `yaml` package, ajv, the checker. */
const NEVER = ['hook-formats.js', 'hook-yaml.js', 'hook-ajv.js', 'hook-check.js'];
/** Built-ins a Read never needs: v8 (the shell parser's flag), child_process (the bwrap probe), perf_hooks, fs/promises. */
const NEVER_BUILTINS = ['NativeModule v8', 'NativeModule child_process', 'NativeModule perf_hooks', 'NativeModule fs/promises'];

test('deciding a call on a run of each format loads no format loader, YAML parser or schema validator (every module the hook process loaded, recorded at its exit)', async (t) => {
  requireBuiltCli();
  const preload = path.join(tempDir('sg-hook-loaded-', t), 'record-loaded.js');
  // require.cache holds every CommonJS file the process loaded: the dispatcher, hook.js and each lazy bundle it required.
  // process.moduleLoadList: Node's built-in modules it loaded.
  fs.writeFileSync(preload, "process.on('exit', () => require('fs').writeFileSync(process.env.SG_LOADED_OUT, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));\n");
  for (const run of RUNS) {
    const cwd = tempDir('sg-hook-format-', t);
    fs.copyFileSync(path.join(REPO_ROOT, run.fixture), path.join(cwd, path.basename(run.fixture)));
    fs.writeFileSync(path.join(cwd, 'a.ts'), 'a\n');
    await startRun(cwd, path.basename(run.fixture));
    const out = path.join(cwd, 'loaded.json');
    const read = hook(path.join(REPO_ROOT, 'dist', 'cli.js'), cwd, 'Read', { file_path: path.join(cwd, 'a.ts') }, ['--require', preload], { SG_LOADED_OUT: out });
    assert.equal(read.code, 0, `${run.name}: ${read.stderr}`);
    const expected = await new Runner({ dir: path.join(cwd, '.stategate') }).tool({ tool: 'Read', input: { file_path: path.join(cwd, 'a.ts') } }, { client: 'claude', cwd });
    assert.equal(read.decision ?? 'allow', expected.decision, `${run.name}: the hook decides as the engine does (${read.stdout})`);
    const record = JSON.parse(fs.readFileSync(out, 'utf8')) as { files: string[]; builtins: string[] };
    const loaded = record.files.map((f) => path.basename(f));
    // Built-ins only a shell call, a bwrap probe or nothing at all needs (docs/dev/hook-time.md).
    assert.deepEqual(record.builtins.filter((m) => NEVER_BUILTINS.includes(m)), [], `${run.name}: built-ins`);
    // An allowed call answers with nothing, so process.stdout (a pipe here, as under every client) is never
    // made, and with it no socket for the pipe (a few ms: src/cli/main.ts, noteStdoutUse).
    if (read.stdout === '') assert.deepEqual(record.builtins.filter((m) => /^(NativeModule net|Internal Binding pipe_wrap)$/.test(m)), [], `${run.name}: process.stdout made with nothing written`);
    assert.ok(loaded.includes('cli.js'), `${run.name}: the record names what was loaded (${loaded.join(', ')})`);
    assert.deepEqual(loaded.filter((f) => NEVER.includes(f)), [], `${run.name}: loaded ${loaded.join(', ')}`);
    assert.deepEqual(loaded.filter((f) => f.startsWith('hook-') && !(run.may ?? []).includes(f)), [], `${run.name}: only ${(run.may ?? []).join(', ') || 'hook.js'}`);
  }
});

test('the hook writes its code caches on its first calls under a runtime (hook.js after a Read, the shell bundle after a Bash call under Liftoff only) and takes them after, deciding alike', async (t) => {
  requireBuiltCli();
  // A function taken from a code cache cannot import() on Node 20 (code-cache.ts): the call would be denied.
  assert.ok(!/\bimport\(/.test(fs.readFileSync(path.join(DIST_CLI, 'hook.js'), 'utf8')), 'hook.js has no import()');
  // A copy of the CLI as installed: the VSIX ships no cache (.vscodeignore), and neither does this copy.
  const cliJs = cliWithout(['hook-shell.js']);
  const copy = path.join(path.dirname(cliJs), 'cli');
  for (const f of fs.readdirSync(copy)) if (f.endsWith('.cache')) fs.rmSync(path.join(copy, f));
  const caches = (): Map<string, fs.Stats> => new Map(fs.readdirSync(copy).filter((f) => f.endsWith('.cache')).map((f) => [f.replace(/\.[0-9a-f]{16}\.cache$/, ''), fs.statSync(path.join(copy, f))]));
  const cwd = tempDir('sg-hook-code-cache-', t);
  fs.writeFileSync(path.join(cwd, 'flat.workflow.json'), JSON.stringify(FLAT));
  fs.writeFileSync(path.join(cwd, 'a.ts'), 'a\n');
  await startRun(cwd, 'flat.workflow.json');
  const read = () => hook(cliJs, cwd, 'Read', { file_path: path.join(cwd, 'a.ts') });
  // Allowed by git status; cut by the cache of a parser whose import() threw (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
  const bash = () => hook(cliJs, cwd, 'Bash', { command: 'git status --short' });
  const firstRead = read();
  assert.equal(firstRead.code, 0, firstRead.stderr);
  if ('enableCompileCache' in (require('node:module') as object)) {
    assert.deepEqual([...caches().keys()], [], 'this Node caches compiled code itself (in the state folder): no V8 cache beside the bundles');
    return;
  }
  assert.deepEqual([...caches().keys()], ['hook.js'], 'the first Read wrote hook.js\'s cache');
  const firstBash = bash();
  assert.notEqual(firstBash.decision, 'deny', firstBash.stdout);
  const afterBash = caches();
  assert.deepEqual([...afterBash.keys()].sort(), ['hook-shell.js', 'hook.js'], 'the first Bash call wrote the shell bundle\'s cache');
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(read(), firstRead, 'a Read from the cache decides alike');
    assert.deepEqual(bash(), firstBash, 'a Bash call from the caches decides alike');
  }
  for (const [bundle, st] of caches()) {
    assert.equal(st.ino, afterBash.get(bundle)?.ino, `${bundle}'s cache was taken, not written again`);
    assert.equal(st.mtimeMs, afterBash.get(bundle)?.mtimeMs);
  }
  // The rules still hold from the cache.
  assert.equal(hook(cliJs, cwd, 'Bash', { command: 'rm -rf src' }).decision, 'deny');
});

test('a StoreError thrown by the PostgreSQL store\'s bundle is not an instance of this StoreError, yet is one to isStoreError and to the Runner', async (t) => {
  requireBuiltCli();
  const { PostgresRunStorage } = require(path.join(DIST_CLI, 'hook-pg-store.js')) as typeof import('../../src/engine/store/postgres/pg-storage');
  // No git remote and no STATEGATE_PROJECT: the store refuses before it connects (nothing listens on port 9).
  const storage = (checkRun: (value: unknown) => string | undefined) => new PostgresRunStorage<RunSnapshot>({ url: 'postgres://u@127.0.0.1:9/db', project: new Error('no project key'), checkRun });
  const err = await storage(() => undefined).listRuns().then(
    () => assert.fail('listRuns should fail without a project'),
    (e: unknown) => e,
  );
  assert.ok(!(err instanceof StoreError), 'the bundle has its own copy of the class');
  assert.ok(isStoreError(err));
  assert.equal(err.code, 'store_unavailable');
  assert.ok(!isStoreError(new Error('no project key')) && !isStoreError(Object.assign(new Error('x'), { code: 'busy' })));
  assert.ok(isStoreError(new StoreError('busy', 'held')));
  const runner = new Runner({ dir: path.join(tempDir('sg-hook-pg-bundle-', t), '.stategate'), storage });
  await assert.rejects(runner.list(), (e: unknown) => e instanceof RunnerError && e.code === 'store_unavailable' && /no project key/.test(e.message));
});
