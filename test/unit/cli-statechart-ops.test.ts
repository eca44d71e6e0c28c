/**
 * Statechart runs through the CLI: the `state` view's rules per active state
 * and the configuration's events, `run force`, `run result` firing a root
 * interrupt, `run reload`, and limits per declaring node; every journal
 * replays to run.json. The run commands go through the CLI's main in this
 * process (helpers/cli-in-process.ts); the hook runs as a process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, REPO_ROOT } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { tempDir } from './helpers/temp-dir';
import { replay } from '../../src/engine/store/replay';
import { RunStore } from '../../src/engine/store/run-store';
import { checkRunSnapshot } from '../../src/engine/runs/runner';
import type { JournalEntry, RunSnapshot } from '../../src/engine/machine/run';

const POLICY = path.join(REPO_ROOT, 'test', 'fixtures', 'statecharts', 'policy');

async function started(t: { after(fn: () => void): void }, fixture = 'limits.statechart.yaml'): Promise<string> {
  const cwd = tempDir('sg-chart-ops-', t);
  fs.copyFileSync(path.join(POLICY, fixture), path.join(cwd, fixture));
  fs.writeFileSync(path.join(cwd, 'a.txt'), 'a\n');
  assert.equal((await cliInProcess(['run', 'start', fixture], { cwd })).code, 0);
  return cwd;
}

async function run(cwd: string, ...args: string[]): Promise<any> {
  const r = await cliInProcess(['run', ...args], { cwd });
  assert.equal(r.code, 0, `run ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.json;
}

function assertReplays(cwd: string): void {
  const store = new RunStore<RunSnapshot>(path.join(cwd, '.stategate'), { checkRun: checkRunSnapshot });
  const runId = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  const snapshot = store.readRun(runId);
  const r = replay(store.readJournal(runId) as unknown as JournalEntry[]);
  assert.deepEqual(
    { state: r.state, context: r.context, status: r.status, transitions: r.transitions },
    { state: snapshot.state, context: snapshot.context, status: snapshot.status, transitions: snapshot.counters.transitions },
  );
}

test('run state on a parallel configuration: rules per active state, the union in the flat fields, every event of the configuration', async (t) => {
  const cwd = await started(t, 'gated.statechart.yaml');
  const view = await run(cwd, 'state');
  assert.deepEqual(view.active_states.map((a: any) => [a.state, a.allowed_tools, a.disallowed_tools]), [
    ['work.code.reading', ['Read', 'Grep'], ['WebFetch']],
    ['work.docs.drafting', ['Read', 'Glob'], ['WebFetch']],
  ]);
  assert.deepEqual(view.allowed_tools, ['Read', 'Grep', 'Glob']);
  assert.deepEqual(view.disallowed_tools, ['WebFetch']);
  assert.deepEqual(view.transitions.map((x: any) => [x.event, x.source, x.target, x.available]), [
    ['START_EDIT', 'work.code.reading', 'work.code.editing', true],
    ['FINISH', 'work', 'shipping', true],
  ]);
});

test('run state: guards evaluated on the context now, limits with the node that declares them and what it used', async (t) => {
  const cwd = await started(t);
  fs.writeFileSync(path.join(cwd, 'a.txt'), 'a\n');
  await run(cwd, 'tool', 'Read', '--input', JSON.stringify({ file_path: path.join(cwd, 'a.txt') }));
  await run(cwd, 'send', 'NEXT');
  const view = await run(cwd, 'state');
  assert.deepEqual(view.active_states[0].limits.max_iterations, { limit: 3, declared_by: 'phase', used: 1 });
  assert.equal(view.active_states[0].limits.max_edit_lines, null);
  assert.deepEqual([view.iteration, view.max_iterations], [1, 3]);
  const go = view.transitions.find((x: any) => x.event === 'GO');
  assert.deepEqual([go.source, go.target, go.guard, go.guards, go.available], ['phase.b', 'other', { expression: 'context.ready == true', passes: false }, [{ name: 'context.ready == true', passes: false }], false]);
  assert.deepEqual(view.transitions.map((x: any) => x.event), ['BACK', 'GO', 'LEAVE']);
});

test('run force: a dotted path or a unique name, the context patched, the configuration in the answer; the journal replays', async (t) => {
  const cwd = await started(t);
  const forced = await run(cwd, 'force', 'b', '--context', '{"ready":true}');
  assert.equal(forced.forced, true);
  assert.deepEqual(forced.configuration, ['phase.b']);
  const view = await run(cwd, 'state');
  assert.deepEqual(view.context, { ready: true, entered_b: 1 });
  assert.equal(view.transitions.find((x: any) => x.event === 'GO').available, true);
  assert.deepEqual((await run(cwd, 'force', 'work')).configuration, ['work.code.coding', 'work.docs.writing']);
  const unknown = await cliInProcess(['run', 'force', 'nowhere'], { cwd });
  assert.equal(unknown.code, 1);
  assert.equal(unknown.json.error.code, 'unknown_state');
  assertReplays(cwd);
});

test('run result: an agent write matching a root interrupt jumps to its handler', async (t) => {
  const cwd = await started(t);
  const input = JSON.stringify({ file_path: path.join(cwd, 'conf', '.env'), content: 'X=1' });
  const r = await run(cwd, 'result', 'Write', '--input', input);
  assert.equal(r.interrupted, true);
  assert.deepEqual(r.interrupt, { name: 'secrets', from: 'phase.a', to: 'handling', file: 'conf/.env', return_via: 'chart' });
  const view = await run(cwd, 'state');
  assert.deepEqual(view.configuration, ['handling']);
  assert.equal(view.interrupt.name, 'secrets');
  await run(cwd, 'send', 'HANDLED');
  assert.equal((await run(cwd, 'state')).interrupt, undefined);
  assertReplays(cwd);
});

test('run reload keeps the configuration, or refuses saying what the run would lose', async (t) => {
  const cwd = await started(t);
  await run(cwd, 'send', 'NEXT');
  const file = path.join(cwd, 'limits.statechart.yaml');
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.replace('    handling:\n', '    extra:\n      on:\n        BACK_TO_WORK:\n          target: phase\n    handling:\n'));
  assert.equal((await run(cwd, 'reload')).reloaded, true);
  assert.deepEqual((await run(cwd, 'state')).configuration, ['phase.b']);
  fs.writeFileSync(file, text.replace(/\bb:\n/, 'bee:\n').replace('target: b\n', 'target: bee\n'));
  const refused = await cliInProcess(['run', 'reload'], { cwd });
  assert.equal(refused.code, 1);
  assert.match(refused.json.error.message, /would lose what the run holds: active state phase\.b/);
  assert.deepEqual((await run(cwd, 'state')).configuration, ['phase.b']);
  assertReplays(cwd);
});

test('run reload: a paused run takes it; an ended run refuses, saying it has ended and to start a new run from the file', async (t) => {
  const cwd = await started(t);
  const file = path.join(cwd, 'limits.statechart.yaml');
  fs.appendFileSync(file, '# edited\n');
  await run(cwd, 'pause');
  assert.equal((await run(cwd, 'reload')).reloaded, true, 'a paused run goes on when resumed: it takes the file');
  await run(cwd, 'stop');
  fs.appendFileSync(file, '# edited again\n');
  const journal = fs.readFileSync(path.join(cwd, '.stategate', 'runs', fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim(), 'journal.jsonl'), 'utf8');
  const refused = await cliInProcess(['run', 'reload'], { cwd });
  // The shape and exit code of the other refusals: one JSON object with `error`, a line on stderr, exit 1.
  assert.equal(refused.code, 1);
  assert.equal(refused.json.reloaded, false);
  assert.equal(refused.json.error.code, 'not_running');
  assert.match(refused.json.error.message, /^the run has ended \(stopped\), so a reload would change nothing: start a new run from the changed file with `stategate run start limits\.statechart\.yaml`/);
  assert.match(refused.stderr, /^stategate: the run has ended \(stopped\)/);
  const after = fs.readFileSync(path.join(cwd, '.stategate', 'runs', fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim(), 'journal.jsonl'), 'utf8');
  assert.equal(after, journal, 'nothing journaled');
  // Refused before the file is read: a file gone since gets the same answer, not a read error.
  fs.rmSync(file);
  assert.match((await cliInProcess(['run', 'reload'], { cwd })).json.error.message, /the run has ended \(stopped\)/);
});

test('limits per declaring node through run tool: the count of phase survives a change between its children', async (t) => {
  const cwd = await started(t);
  const read = (): Promise<any> => run(cwd, 'tool', 'Read', '--input', JSON.stringify({ file_path: path.join(cwd, 'a.txt') }));
  await read();
  await read();
  await run(cwd, 'send', 'NEXT');
  assert.equal((await read()).decision, 'allow');
  const denied = await read();
  assert.equal(denied.decision, 'deny');
  assert.match(denied.reason, /State 'phase' \(which encloses 'phase\.b'\) has used all 3 tool calls/);
  await run(cwd, 'send', 'LEAVE');
  await run(cwd, 'send', 'RETURN');
  assert.equal((await read()).decision, 'allow');
  assertReplays(cwd);
});

test('hook PostToolUse on a statechart run: the write fires the interrupt and the agent is told how to go on', async (t) => {
  const cwd = await started(t);
  const input = JSON.stringify({
    hook_event_name: 'PostToolUse',
    session_id: 'cc-1',
    cwd,
    transcript_path: '/tmp/t.jsonl',
    tool_name: 'Write',
    tool_input: { file_path: path.join(cwd, 'conf', '.env'), content: 'X=1' },
    tool_response: { success: true },
  });
  const r = cli(['hook', '--client', 'claude'], { cwd, input });
  const text = r.stdout + r.stderr;
  assert.match(text, /\[STATEWRIGHT INTERRUPT\] Writing conf\/\.env fired interrupt \\?"secrets\\?": the workflow moved from \\?"phase\.a\\?" to \\?"handling\\?"/);
  assert.match(text, /send one of the events listed below to go back \(the events of \\?"handling\\?"\)/);
  assert.deepEqual((await run(cwd, 'state')).configuration, ['handling']);
});
