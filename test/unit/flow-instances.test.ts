/**
 * Flow instances across processes: a runner killed with -9 leaves an
 * instance reported `interrupted` naming its state (nested inside a
 * sub-flow), plain resume refuses, `--rerun` runs that state again with the
 * earlier variables; `stopFlow` from another process kills the state's whole
 * process group and the runner, and the next state never runs; a pause
 * request pauses after the running state; two runners never drive one
 * instance; bad input (missing file, malformed YAML, validation errors, a
 * corrupt instance.json) is refused with a clear error and loses nothing.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FlowError, flowStatus, instanceFile, listFlows, pauseFlow, resumeFlow, startFlow, stopFlow } from '../../src/engine/index.js';
import { bash, flowWorkspace, listing, writeFlow } from './helpers/flow-workspace.js';
import { testHost } from './helpers/flow-host.js';

const CHILD = path.join(__dirname, 'helpers', 'flow-child.ts');
const children = new Set<ChildProcess>();
after(() => {
  for (const c of children) c.kill('SIGKILL');
});

function runner(args: Record<string, unknown>): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  const done = new Promise<{ code: number | null; stdout: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout })));
  return { child, done };
}

/** Poll instance.json until `ok` holds (the runner records each state before it runs it). */
async function until(ws: string, name: string, ok: (rec: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    try {
      const rec = JSON.parse(fs.readFileSync(instanceFile(ws, name), 'utf8')) as Record<string, unknown>;
      if (ok(rec)) return rec;
    } catch {
      /* not written yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`instance ${name} never reached the expected point`);
}

/** Kill the recorded process groups after the test, whatever happened in it (a failing test must not leave `sleep 60` behind). */
function reap(t: { after(fn: () => void): unknown }, rec: Record<string, unknown>): void {
  t.after(() => {
    for (const pgid of rec.pgids as number[]) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  });
}

function running(state: string) {
  return (rec: Record<string, unknown>) => (rec.frames as { state: string }[]).map((f) => f.state).join('/') === state && (rec.pgids as number[]).length > 0;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('interrupted (kill -9) and --rerun', () => {
  it('names the nested state, refuses plain resume, reruns it keeping earlier variables', async (t) => {
    const ws = flowWorkspace(t, {
      'p.flow.yaml': {
        'start-at': 'prep',
        states: { prep: bash('echo kept', { output: 'var(k)', next: 'sub' }), sub: { tool: 'sub-flow', arguments: { workflow: 'c.flow.yaml' }, next: 'end' }, end: bash('echo "{{ k }} {{ sub::first }} {{ sub::slow }}"', { output: 'var(all)' }) },
      },
      'c.flow.yaml': {
        'start-at': 'first',
        states: { first: bash('echo one', { output: 'var(first)', next: 'slow' }), slow: bash('if [ -f marker ]; then echo again; else touch marker; sleep 60; fi', { output: 'var(slow)' }) },
      },
    });
    const { child, done } = runner({ workspace: ws, file: 'p.flow.yaml', name: 'k9' });
    const rec = await until(ws, 'k9', running('sub/slow'));
    reap(t, rec);
    child.kill('SIGKILL');
    await done;
    for (const pgid of rec.pgids as number[]) process.kill(-pgid, 'SIGKILL'); // the orphaned sleep

    const status = flowStatus(ws, 'k9');
    assert.equal(status.status, 'interrupted');
    assert.equal(status.state, 'sub/slow');
    assert.equal(status.exit_code, null);
    assert.match(status.message ?? '', /while state `sub\/slow` was running; `flow resume k9 --rerun`/);
    assert.deepEqual(listFlows(ws).map((s) => [s.instance, s.status]), [['k9', 'interrupted']]);

    await assert.rejects(resumeFlow(testHost(ws), 'k9'), (err: unknown) => err instanceof FlowError && err.code === 'interrupted' && /--rerun/.test(err.message) && /`sub\/slow`/.test(err.message));
    assert.equal(flowStatus(ws, 'k9').status, 'interrupted');

    const host = testHost(ws);
    const s = await resumeFlow(host, 'k9', { rerun: true });
    assert.equal(s.status, 'completed', s.message);
    assert.equal(s.variables.all, 'kept one again');
    assert.deepEqual(flowStatus(ws, 'k9').log.map((e) => e.state), ['prep', 'sub/first', 'sub/slow', 'sub', 'end']);
    assert.ok(!host.lines.some((l) => /▶ (prep|sub\/first) /.test(l)), 'earlier states are not run again');
  });
});

describe('stop', () => {
  for (const dieOnTerm of [false, true]) {
    it(`from another process (a runner that ${dieOnTerm ? 'just dies on SIGTERM' : 'aborts on SIGTERM'}): kills the whole process group (background children too) and the runner; the next state never runs`, async (t) => {
      const ws = flowWorkspace(t, {
        's.flow.yaml': { 'start-at': 'long', states: { long: bash('sleep 60 & echo $! > bg.pid; sleep 60; wait', { next: 'next' }), next: bash('touch next-ran') } },
      });
      const { child, done } = runner({ workspace: ws, file: 's.flow.yaml', name: 'st', dieOnTerm });
      reap(t, await until(ws, 'st', (r) => running('long')(r) && fs.existsSync(path.join(ws, 'bg.pid'))));
      const bg = Number(fs.readFileSync(path.join(ws, 'bg.pid'), 'utf8'));
      const stopped = stopFlow(ws, 'st');
      assert.deepEqual([stopped.status, stopped.state, stopped.exit_code], ['stopped', 'long', 130]);
      const ended = await done;
      if (dieOnTerm) assert.equal(child.signalCode, 'SIGTERM');
      else assert.equal(JSON.parse(ended.stdout).status, 'stopped', ended.stdout);
      for (let i = 0; i < 100 && alive(bg); i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(alive(bg), false, 'the background child of the command was killed');
      assert.equal(fs.existsSync(path.join(ws, 'next-ran')), false);
      assert.equal(flowStatus(ws, 'st').status, 'stopped');
      await assert.rejects(resumeFlow(testHost(ws), 'st'), (err: unknown) => err instanceof FlowError && err.code === 'not_resumable');
    });
  }

  it('in the same process: the run is aborted and ends stopped', async (t) => {
    const ws = flowWorkspace(t, { 's.flow.yaml': { 'start-at': 'long', states: { long: bash('sleep 60', { next: 'next' }), next: bash('touch next-ran') } } });
    const run = startFlow(testHost(ws), { file: 's.flow.yaml', name: 'in' });
    reap(t, await until(ws, 'in', running('long')));
    stopFlow(ws, 'in');
    const s = await run;
    assert.deepEqual([s.status, s.state], ['stopped', 'long']);
    assert.equal(fs.existsSync(path.join(ws, 'next-ran')), false);
    assert.equal(flowStatus(ws, 'in').log.length, 1);
  });

  it('a paused instance stops too; a completed one is left as it is', async (t) => {
    const ws = flowWorkspace(t, { 'p.flow.yaml': { 'start-at': 'w', states: { w: { tool: 'pause', arguments: { reason: 'r' } } } }, 'd.flow.yaml': { 'start-at': 'a', states: { a: bash('true') } } });
    await startFlow(testHost(ws), { file: 'p.flow.yaml', name: 'p' });
    assert.equal(stopFlow(ws, 'p').status, 'stopped');
    await startFlow(testHost(ws), { file: 'd.flow.yaml', name: 'd' });
    assert.deepEqual([stopFlow(ws, 'd').status, flowStatus(ws, 'd').exit_code], ['completed', 0]);
  });
});

describe('pause request', () => {
  it('pauses after the running state; resume continues at the next one', async (t) => {
    const ws = flowWorkspace(t, {
      'q.flow.yaml': { 'start-at': 'a', states: { a: bash('while [ ! -f go ]; do sleep 0.05; done; echo A', { output: 'var(a)', next: 'b' }), b: bash('echo B', { output: 'var(b)' }) } },
    });
    const run = startFlow(testHost(ws), { file: 'q.flow.yaml', name: 'q' });
    await until(ws, 'q', running('a'));
    assert.equal(pauseFlow(ws, 'q').status, 'running');
    fs.writeFileSync(path.join(ws, 'go'), '');
    const paused = await run;
    assert.deepEqual([paused.status, paused.state, paused.variables.a], ['paused', 'a', 'A']);
    assert.match(paused.message ?? '', /continues at `b`/);
    const done = await resumeFlow(testHost(ws), 'q');
    assert.deepEqual([done.status, done.state, done.variables.b], ['completed', 'b', 'B']);
    assert.throws(() => pauseFlow(ws, 'q'), (err: unknown) => err instanceof FlowError && /completed/.test(err.message));
  });
});

describe('one runner per instance', () => {
  it('a second resume while one runs is refused as busy', async (t) => {
    const ws = flowWorkspace(t, { 'b.flow.yaml': { 'start-at': 'a', states: { a: bash('while [ ! -f go ]; do sleep 0.05; done') } } });
    const run = startFlow(testHost(ws), { file: 'b.flow.yaml', name: 'b' });
    await until(ws, 'b', running('a'));
    await assert.rejects(resumeFlow(testHost(ws), 'b', { rerun: true }), (err: unknown) => err instanceof FlowError && err.code === 'busy');
    await assert.rejects(startFlow(testHost(ws), { file: 'b.flow.yaml', name: 'b' }), (err: unknown) => err instanceof FlowError && err.code === 'exists');
    fs.writeFileSync(path.join(ws, 'go'), '');
    assert.equal((await run).status, 'completed');
  });
});

describe('bad input', () => {
  const cases: [string, (ws: string) => string, string, RegExp][] = [
    ['a missing flow file', () => 'nowhere.flow.yaml', 'not_found', /cannot read flow nowhere\.flow\.yaml.*no such file/],
    ['malformed YAML', (ws) => path.basename(writeFlow(ws, 'bad.flow.yaml', 'start-at: a\nstates:\n  a: {tool: bash\n')), 'invalid_flow', /bad\.flow\.yaml:\d+:\d+: /],
    ['a validation error', (ws) => path.basename(writeFlow(ws, 'v.flow.yaml', { 'start-at': 'a', states: { a: bash('touch ran', { next: 'nope' }) } })), 'invalid_flow', /v\.flow\.yaml:\d+:\d+: .*`nope`/],
    ['not a flow file', (ws) => path.basename(writeFlow(ws, 'w.json', '{"states":{}}')), 'not_a_flow', /not a flow/],
  ];
  for (const [name, make, code, message] of cases) {
    it(`${name}: refused, nothing written`, async (t) => {
      const ws = flowWorkspace(t);
      const file = make(ws);
      const before = listing(ws);
      await assert.rejects(startFlow(testHost(ws), { file }), (err: unknown) => err instanceof FlowError && err.code === code && message.test(err.message));
      assert.deepEqual(listing(ws), before);
    });
  }

  it('an invalid instance name is refused before anything is written', async (t) => {
    const ws = flowWorkspace(t, { 'a.flow.yaml': { 'start-at': 'a', states: { a: bash('touch ran') } } });
    for (const name of ['../x', 'a/b', '', '.hidden']) {
      await assert.rejects(startFlow(testHost(ws), { file: 'a.flow.yaml', name }), (err: unknown) => err instanceof FlowError && err.code === 'invalid_name');
    }
    assert.deepEqual(listing(ws), ['a.flow.yaml']);
  });

  it('a corrupt instance.json: status, resume, stop and pause name the file and change nothing; list reports it', async (t) => {
    const ws = flowWorkspace(t, { 'a.flow.yaml': { 'start-at': 'w', states: { w: { tool: 'pause', arguments: { reason: 'r' } } } } });
    await startFlow(testHost(ws), { file: 'a.flow.yaml', name: 'c' });
    const file = instanceFile(ws, 'c');
    for (const text of ['{"version":1,"instance":"c"', '[]', '{"version":99}']) {
      fs.writeFileSync(file, text);
      const isCorrupt = (err: unknown) => err instanceof FlowError && err.code === 'corrupt_instance' && err.message.includes(file) && /left as it is/.test(err.message);
      assert.throws(() => flowStatus(ws, 'c'), isCorrupt);
      await assert.rejects(resumeFlow(testHost(ws), 'c'), isCorrupt);
      assert.throws(() => stopFlow(ws, 'c'), isCorrupt);
      assert.throws(() => pauseFlow(ws, 'c'), isCorrupt);
      assert.equal(fs.readFileSync(file, 'utf8'), text);
      const [listed] = listFlows(ws);
      assert.equal(listed?.instance, 'c');
      assert.match(listed?.message ?? '', /not a readable flow instance/);
    }
  });

  it('an unexpected error in the runner (the log cannot be written) marks the instance failed, naming it, rather than running forever', async (t) => {
    const ws = flowWorkspace(t, { 'a.flow.yaml': { 'start-at': 'a', states: { a: bash('mkdir .stategate/flows/x/log.jsonl', { next: 'b' }), b: bash('touch b-ran') } } });
    const s = await startFlow(testHost(ws), { file: 'a.flow.yaml', name: 'x' });
    assert.deepEqual([s.status, s.exit_code, s.state], ['failed', 1, 'a']);
    assert.match(s.message ?? '', /the runner failed at `a`: .*EISDIR/);
    assert.equal(fs.existsSync(path.join(ws, 'b-ran')), false);
  });

  it('an unknown instance is a clear error for every command, and nothing is made', async (t) => {
    const ws = flowWorkspace(t);
    const unknown = (err: unknown) => err instanceof FlowError && err.code === 'no_instance' && /no flow instance named x .*flow list/.test(err.message);
    assert.throws(() => flowStatus(ws, 'x'), unknown);
    assert.throws(() => stopFlow(ws, 'x'), unknown);
    assert.throws(() => pauseFlow(ws, 'x'), unknown);
    await assert.rejects(resumeFlow(testHost(ws), 'x'), unknown);
    assert.deepEqual(listFlows(ws), []);
    assert.deepEqual(listing(ws), []);
  });

  it('default names count up per flow', async (t) => {
    const ws = flowWorkspace(t, { 'a.flow.yaml': { name: 'deploy', 'start-at': 'a', states: { a: bash('true') } } });
    const names = [];
    for (let i = 0; i < 3; i++) names.push((await startFlow(testHost(ws), { file: 'a.flow.yaml' })).instance);
    assert.deepEqual(names, ['deploy-1', 'deploy-2', 'deploy-3']);
    assert.deepEqual(listFlows(ws).map((s) => [s.instance, s.flow, s.status]), names.map((n) => [n, 'deploy', 'completed']));
  });
});
