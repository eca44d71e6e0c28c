/**
 * JSON handed to a run from outside that nests past MAX_JSON_DEPTH is refused
 * before the run is touched, by every command that takes it. Before, 3,000
 * levels of `run send --data` moved the run, wrote an 18 MB run.json and then
 * failed with "internal error: Maximum call stack size exceeded"; 5,000 failed
 * the same way before moving it.
 *
 * The refusal is the Runner's (runs/runner.ts), so the table goes through the
 * CLI's own entry point in this process (helpers/cli-in-process.ts: the same
 * parsing, command and printed answer); one row runs `dist/cli.js` as a
 * process, for the exit code and stack of a real CLI process, and the hook
 * test stays a process test (its input is read and bounded by the process).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, type CliResult } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { tempDir } from './helpers/temp-dir';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/engine/model/json-value';

const WORKFLOW = {
  id: 'w',
  initial: 'a',
  states: { a: { allowed_tools: ['Read'], on: { GO: 'b' } }, b: { on: { DONE: 'c' } }, c: { type: 'final' } },
};

const objects = (levels: number): string => `${'{"a": '.repeat(levels)}1${'}'.repeat(levels)}`;
const arrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** An object (what --context and --data of most commands must be) whose value nests `levels` in all. */
const deepObject = (levels: number): string => `{"x": ${arrays(levels - 1)}}`;

async function started(t: { after(fn: () => void): void }): Promise<string> {
  const cwd = tempDir('sg-deep-', t);
  fs.writeFileSync(path.join(cwd, 'w.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal((await cliInProcess(['run', 'start', 'w.workflow.json'], { cwd })).code, 0);
  return cwd;
}

/** Every file of every run, by path, to show that nothing was written. */
function runFiles(cwd: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(cwd, p), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(cwd, '.stategate'));
  return out;
}

const ROWS: Array<{ name: string; args: (levels: number) => string[] }> = [
  { name: 'run send --data (objects)', args: (n) => ['run', 'send', 'GO', '--data', objects(n)] },
  { name: 'run send --data (arrays in an object)', args: (n) => ['run', 'send', 'GO', '--data', deepObject(n)] },
  { name: 'run force --context', args: (n) => ['run', 'force', 'b', '--context', deepObject(n)] },
  { name: 'run start --context', args: (n) => ['run', 'start', 'w.workflow.json', '--context', deepObject(n)] },
  { name: 'run done --data', args: (n) => ['run', 'done', 'some-invocation', '--data', deepObject(n)] },
  { name: 'run complete --payload', args: (n) => ['run', 'complete', 'finish', '--payload', deepObject(n)] },
  { name: 'run result --input', args: (n) => ['run', 'result', 'Read', '--input', deepObject(n)] },
];

/** The refusal as the CLI prints it, and nothing written. */
async function refusedUntouched(cwd: string, run: () => CliResult | Promise<CliResult>): Promise<void> {
  const before = runFiles(cwd);
  const r = await run();
  assert.notEqual(r.code, 0, r.stdout);
  assert.equal(r.json?.error?.code, 'too_deep', r.stdout + r.stderr);
  assert.match(r.json.error.message, new RegExp(`more than ${MAX_JSON_DEPTH} levels deep`));
  assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/);
  assert.deepEqual(runFiles(cwd), before);
  assert.equal((await cliInProcess(['run', 'state'], { cwd })).json?.state, 'a');
}

for (const row of ROWS) {
  for (const levels of [MAX_JSON_DEPTH + 1, 3000, 5000]) {
    test(`deep JSON: ${row.name}, ${levels} levels: refused with too_deep, the run's files untouched`, async (t) => {
      const cwd = await started(t);
      await refusedUntouched(cwd, () => cliInProcess(row.args(levels), { cwd }));
    });
  }
}

test('deep JSON through the CLI process: run send --data, 3000 levels (the case that overflowed) exits 1 with too_deep on stdout', async (t) => {
  const cwd = await started(t);
  await refusedUntouched(cwd, () => {
    const r = cli(['run', 'send', 'GO', '--data', objects(3000)], { cwd });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^stategate: .*more than \d+ levels deep/);
    return r;
  });
});

test('deep JSON: run tool --input past the limit is denied, saying why, and nothing is counted', async (t) => {
  const cwd = await started(t);
  const before = runFiles(cwd);
  const r = await cliInProcess(['run', 'tool', 'Read', '--input', deepObject(3000)], { cwd });
  assert.equal(r.json?.decision, 'deny', r.stdout + r.stderr);
  assert.match(r.json.reason, new RegExp(`more than ${MAX_JSON_DEPTH} levels deep`));
  assert.deepEqual(runFiles(cwd), before);
});

test('deep JSON: the hook denies a tool call whose input nests past the limit, and says why, at any depth', async (t) => {
  const cwd = await started(t);
  const payload = (inner: string) =>
    JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'Read', tool_input: { file_path: 'x.ts', extra: '@@' } }).replace('"@@"', inner);
  // tool_input is one level more than what its `extra` holds: 255 levels there is 256 in tool_input, the most it may have.
  const atLimit = cli(['hook', '--client', 'claude'], { cwd, input: payload(objects(MAX_JSON_DEPTH - 1)) });
  assert.equal(atLimit.code, 0, atLimit.stdout + atLimit.stderr);
  assert.equal(atLimit.stdout, '', 'Read is allowed in this state: a Claude hook allows by printing nothing');
  // 9,000 and 50,000 levels overflowed the hook's stack before the runner saw the call ("internal error").
  for (const levels of [MAX_JSON_DEPTH, 3000, 9000, 50_000]) {
    const r = cli(['hook', '--client', 'claude'], { cwd, input: payload(objects(levels)) });
    const out = r.json?.hookSpecificOutput;
    assert.equal(out?.permissionDecision, 'deny', `${levels}: ${r.stdout}${r.stderr}`);
    assert.match(out.permissionDecisionReason, new RegExp(`more than ${MAX_JSON_DEPTH} levels deep`), `${levels} levels`);
    assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/);
  }
});

test('deep JSON: at the limit, data is taken (send moves the run and keeps the data)', async (t) => {
  const cwd = await started(t);
  const data = deepObject(MAX_JSON_DEPTH);
  assert.equal(nestsDeeperThan(JSON.parse(data)), false);
  const r = await cliInProcess(['run', 'send', 'GO', '--data', data], { cwd });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.json?.to, 'b');
  const state = (await cliInProcess(['run', 'state'], { cwd })).json;
  assert.equal(state.state, 'b');
  assert.equal(nestsDeeperThan(state.context.x, MAX_JSON_DEPTH - 2), true, 'the data is kept whole');
});

test('nestsDeeperThan: counts objects and arrays, not scalars or properties', () => {
  const table: Array<[unknown, number, boolean]> = [
    [1, 0, false],
    [null, 0, false],
    [{}, 0, true],
    [{}, 1, false],
    [{ a: [] }, 1, true],
    [{ a: [] }, 2, false],
    [[1, 'x', [null]], 2, false],
    [[1, 'x', [null]], 1, true],
    [[[], [[[]]]], 3, true],
    [[[], [[[]]]], 4, false],
    [JSON.parse(objects(10)), 10, false],
    [JSON.parse(objects(11)), 10, true],
  ];
  for (const [value, max, deeper] of table) assert.equal(nestsDeeperThan(value, max), deeper, `${JSON.stringify(value)} past ${max}`);
});
