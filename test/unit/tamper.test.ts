/**
 * The active run is tamper-evident (issue 12, part 4; docs/enforcement.md,
 * "Deleting the run does not switch the gate off"): an agent allowed an interpreter deletes or rewrites
 * the run's files, and instead of "no active run, allow everything", every
 * decision denies with what was found and how to recover, because the record
 * outside the workspace (src/engine/active-record.ts, in STATEGATE_STATE_DIR,
 * a temporary folder here) still names the run.
 *
 * Through `stategate hook` as a process for both clients' input shapes, `run
 * state`, `run stop` (the run commands through the CLI's main in this process,
 * helpers/cli-in-process.ts); and, in-process, a writer stopped after each
 * step of a commit (a crash there) is never read as tampering.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './helpers/temp-dir';
import { cli, type CliResult } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { TEST_STATE_DIR } from './helpers/state-dir';
import { recordFileFor } from '../../src/engine/store/active-record';
import { Runner } from '../../src/engine/runs/runner';
import type { CommitStep } from '../../src/engine/store/run-store';

/** Every call its own id, as clients send (two hooks answering one id are counted once: recent-calls.ts). */
let callSeq = 0;
const nextCallId = (): string => `call-${++callSeq}`;

const WORKFLOW = {
  id: 'tamper',
  initial: 'open',
  states: {
    // Bash without allowed_commands: interpreters run, opaque to the shell analysis.
    open: { allowed_tools: ['Read', 'Bash'], on: { LOCK: 'locked', FINISH: 'done' } },
    locked: { allowed_tools: ['Read'], on: { OPEN: 'open', FINISH: 'done' } },
    done: { type: 'final' },
  },
};


async function workspace(): Promise<{ cwd: string; runId: string }> {
  const cwd = tempDir('sg-tamper-');
  fs.writeFileSync(path.join(cwd, 'tamper.workflow.json'), JSON.stringify(WORKFLOW));
  fs.mkdirSync(path.join(cwd, 'src'));
  const r = await cliInProcess(['run', 'start', 'tamper.workflow.json'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  return { cwd, runId: r.json.run_id };
}

const recordOf = (cwd: string) => recordFileFor(fs.realpathSync(cwd), TEST_STATE_DIR);
const runFile = (cwd: string, runId: string) => path.join(cwd, '.stategate', 'runs', runId, 'run.json');

type Client = 'vscode' | 'claude';

function preToolUse(client: Client, cwd: string, tool: 'read' | 'bash', arg: string): string {
  if (client === 'vscode') {
    const call = tool === 'read' ? { tool_name: 'read_file', tool_input: { filePath: arg, startLine: 1, endLine: 5 } } : { tool_name: 'run_in_terminal', tool_input: { command: arg, explanation: 'x', isBackground: false } };
    return JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 'vs-1', timestamp: '2026-11-22T20:00:00.000Z', cwd, transcript_path: '/tmp/t.json', tool_use_id: nextCallId(), ...call });
  }
  const call = tool === 'read' ? { tool_name: 'Read', tool_input: { file_path: arg } } : { tool_name: 'Bash', tool_input: { command: arg } };
  return JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'cc-1', cwd, transcript_path: '/tmp/t.jsonl', ...call });
}

/** The hook's decision and reason ('allow' when it prints nothing). */
function hook(client: Client, cwd: string, tool: 'read' | 'bash', arg: string): { decision: string; reason: string; r: CliResult } {
  const r = cli(['hook', '--client', client], { cwd, input: preToolUse(client, cwd, tool, arg) });
  assert.equal(r.code, 0, r.stderr);
  const out = r.json?.hookSpecificOutput;
  return { decision: out?.permissionDecision ?? 'allow', reason: out?.permissionDecisionReason ?? '', r };
}

const DELETIONS: Record<string, string> = {
  node: `node -e "require('fs').rmSync('.stategate',{recursive:true})"`,
  python3: `python3 -c "import shutil; shutil.rmtree('.stategate')"`,
};
const hasPython = spawnSync('python3', ['-c', '0']).status === 0;

// Each client's input shape with each interpreter once (two processes a call: keep the file quick).
for (const [client, interpreter] of [['vscode', 'python3'], ['claude', 'node']] as const) {
  const command = DELETIONS[interpreter]!;
  {
    test(`${client}: deleting .stategate with ${interpreter} does not switch the gate off: every call is denied, from the workspace and from a subfolder`, { skip: interpreter === 'python3' && !hasPython ? 'no python3 here' : false }, async () => {
      const { cwd } = await workspace();
      const read = path.join(cwd, 'a.txt');
      // The agent's call is allowed by its state (Bash, no allowed_commands): the shell analysis cannot see into it.
      assert.equal(hook(client, cwd, 'bash', command).decision, 'allow');
      const ran = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8' });
      assert.equal(ran.status, 0, ran.stderr);
      assert.equal(fs.existsSync(path.join(cwd, '.stategate')), false);
      for (const from of [cwd, path.join(cwd, 'src')]) {
        const h = hook(client, from, 'read', read);
        assert.equal(h.decision, 'deny', `${from}: ${h.r.stdout}`);
        assert.match(h.reason, /tampered with: .*\.stategate is gone, but .* records run .* as this workspace's active run/);
        assert.match(h.reason, /stategate run stop/);
      }
      const state = await cliInProcess(['run', 'state'], { cwd });
      assert.equal(state.code, 3);
      assert.equal(state.json.error.code, 'run_tampered');
    });
  }
}

interface Tampering {
  readonly name: string;
  readonly found: RegExp;
  readonly tamper: (cwd: string, runId: string) => void;
}

const TAMPERINGS: readonly Tampering[] = [
  { name: '`active` deleted', found: /active is gone/, tamper: (cwd) => fs.rmSync(path.join(cwd, '.stategate', 'active')) },
  { name: '`active` emptied', found: /active is gone \(or empty\)/, tamper: (cwd) => fs.writeFileSync(path.join(cwd, '.stategate', 'active'), '') },
  {
    name: '`active` pointed at a run of the agent\'s making, in a state that allows everything',
    found: /active names run 20990101T000000Z-fake00/,
    tamper: (cwd, runId) => {
      const fake = path.join(cwd, '.stategate', 'runs', '20990101T000000Z-fake00');
      fs.mkdirSync(fake);
      const envelope = JSON.parse(fs.readFileSync(runFile(cwd, runId), 'utf8'));
      fs.writeFileSync(path.join(fake, 'run.json'), JSON.stringify({ ...envelope, run: { ...envelope.run, runId: '20990101T000000Z-fake00', state: 'open' } }));
      fs.writeFileSync(path.join(cwd, '.stategate', 'active'), '20990101T000000Z-fake00\n');
    },
  },
  { name: 'run.json deleted', found: /run\.json is gone/, tamper: (cwd, runId) => fs.rmSync(runFile(cwd, runId)) },
  {
    name: 'run.json rewritten into a state that allows Bash',
    found: /run\.json is not the file stategate last wrote \(its content changed\)/,
    tamper: (cwd, runId) => {
      const envelope = JSON.parse(fs.readFileSync(runFile(cwd, runId), 'utf8'));
      fs.writeFileSync(runFile(cwd, runId), JSON.stringify({ ...envelope, run: { ...envelope.run, state: 'open' } }, null, 2) + '\n');
    },
  },
];

for (const [i, t] of TAMPERINGS.entries()) {
  const recovery = i === 0;
  test(`tampering: ${t.name} — the hook (both clients) and run state say what was found${recovery ? "; start is refused; a person's run stop clears both records" : ''}`, async () => {
    const { cwd, runId } = await workspace();
    assert.equal((await cliInProcess(['run', 'send', 'LOCK'], { cwd })).code, 0);
    t.tamper(cwd, runId);
    for (const client of ['vscode', 'claude'] as const) {
      const h = hook(client, cwd, 'bash', 'ls');
      assert.equal(h.decision, 'deny', h.r.stdout);
      assert.match(h.reason, t.found);
      assert.match(h.reason, /stategate run stop/);
    }
    const state = await cliInProcess(['run', 'state'], { cwd });
    assert.deepEqual([state.code, state.json.error.code], [3, 'run_tampered']);
    assert.match(state.json.error.message, t.found);
    if (!recovery) return;
    // Starting another run does not paper over it.
    const start = await cliInProcess(['run', 'start', 'tamper.workflow.json'], { cwd });
    assert.deepEqual([start.code, start.json.error.code], [3, 'run_tampered']);

    const stop = await cliInProcess(['run', 'stop'], { cwd });
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(stop.json.reason, /tampered with/);
    assert.equal(fs.existsSync(recordOf(cwd)), false, 'the record outside the workspace is cleared');
    assert.equal(hook('claude', cwd, 'bash', 'ls').decision, 'allow', 'nothing is enforced after the stop');
    assert.equal((await cliInProcess(['run', 'start', 'tamper.workflow.json'], { cwd })).code, 0);
    assert.equal((await cliInProcess(['run', 'send', 'LOCK'], { cwd })).code, 0);
    assert.equal(hook('vscode', cwd, 'bash', 'ls').decision, 'deny', 'a new run is enforced');
  });
}

test('the record: written while a run is running, with the workspace path for people; gone after pause, stop by a person and completion, so deleting .stategate then changes nothing', async () => {
  for (const end of [['pause'], ['stop'], ['send', 'FINISH']]) {
    const { cwd, runId } = await workspace();
    const record = JSON.parse(fs.readFileSync(recordOf(cwd), 'utf8'));
    assert.equal(record.workspace, fs.realpathSync(cwd));
    assert.equal(record.run, runId);
    assert.equal(path.dirname(path.dirname(recordOf(cwd))), TEST_STATE_DIR, 'in the state directory the tests point at');
    assert.equal((await cliInProcess(['run', ...end], { cwd })).code, 0);
    assert.equal(fs.existsSync(recordOf(cwd)), false, `${end.join(' ')} removes the record`);
    fs.rmSync(path.join(cwd, '.stategate'), { recursive: true });
    assert.equal(hook('claude', cwd, 'read', path.join(cwd, 'a.txt')).decision, 'allow', `after ${end.join(' ')}: nothing to enforce`);
  }
});

test('resume writes the record again, and a run started before the record existed gets one at its next commit', async () => {
  const { cwd } = await workspace();
  assert.equal((await cliInProcess(['run', 'pause'], { cwd })).code, 0);
  assert.equal((await cliInProcess(['run', 'resume', 'tamper.workflow.json'], { cwd })).json.resumed, true);
  assert.ok(fs.existsSync(recordOf(cwd)));
  fs.rmSync(recordOf(cwd));
  assert.equal((await cliInProcess(['run', 'state'], { cwd })).code, 0, 'no record: the run is read as it is');
  assert.equal(hook('claude', cwd, 'read', path.join(cwd, 'a.txt')).decision, 'allow');
  assert.ok(fs.existsSync(recordOf(cwd)), 'the allowed call was counted, a commit, which wrote the record');
});

// ---------------------------------------------------------------------------
// A writer killed between two steps of a commit is never read as tampering
// ---------------------------------------------------------------------------

class Crash extends Error {}

function runnerIn(cwd: string, stateDir: string, crashAt?: CommitStep): Runner {
  return new Runner({
    dir: path.join(cwd, '.stategate'),
    stateDir,
    ...(crashAt
      ? {
          afterCommitStep: (step: CommitStep) => {
            if (step === crashAt) throw new Crash(step);
          },
        }
      : {}),
  });
}

const STEPS: readonly CommitStep[] = ['record-written', 'run-renamed', 'journal-appended', 'active-written'];

interface Operation {
  readonly name: string;
  /** Prepares the run (no crash). */
  readonly setup: (r: Runner, file: string) => Promise<unknown>;
  /** The change that is cut short. */
  readonly act: (r: Runner, file: string) => unknown;
}

const OPERATIONS: readonly Operation[] = [
  { name: 'the first start in a workspace', setup: async () => undefined, act: (r, f) => r.start(f) },
  { name: 'a transition', setup: (r, f) => r.start(f), act: (r) => r.send('LOCK') },
  // Runner.tool turns the throw into a denial; the files are left as the crash left them all the same.
  { name: 'a counted tool call', setup: (r, f) => r.start(f), act: (r) => r.tool({ tool: 'Read', input: { file_path: 'a.txt' } }) },
  { name: 'a pause (the record goes)', setup: (r, f) => r.start(f), act: (r) => r.pause() },
  { name: 'a start replacing a stopped run', setup: async (r, f) => (await r.start(f), await r.stop()), act: (r, f) => r.start(f) },
  { name: 'a resume', setup: async (r, f) => (await r.start(f), await r.pause()), act: (r, f) => r.resume(f) },
];

for (const op of OPERATIONS) {
  test(`crash safety: ${op.name}, cut short after each step of its commit, is never read as tampering`, async () => {
    for (const step of STEPS) {
      const cwd = tempDir('sg-tamper-crash-');
      const stateDir = tempDir('sg-tamper-state-');
      const file = path.join(cwd, 'tamper.workflow.json');
      fs.writeFileSync(file, JSON.stringify(WORKFLOW));
      await op.setup(runnerIn(cwd, stateDir), file);
      try {
        await op.act(runnerIn(cwd, stateDir, step), file);
      } catch (err) {
        if (!(err instanceof Crash)) throw err;
      }
      // What a fresh process finds: no tampering, whichever step the writer died after.
      const fresh = runnerIn(cwd, stateDir);
      const active = await fresh.active();
      assert.ok(!(active.kind === 'unreadable' && active.tampered), `${op.name}, killed after ${step}: ${active.kind === 'unreadable' ? active.reason : ''}`);
      const answer = await fresh.tool({ tool: 'Read', input: { file_path: path.join(cwd, 'a.txt') } });
      assert.doesNotMatch(answer.reason ?? '', /tampered/, `${op.name}, killed after ${step}`);
      // And the run goes on: the next commit sees no tampering either.
      if (active.kind === 'ok' && active.run.status === 'running') {
        await assert.doesNotReject(() => fresh.send(active.run.state === 'open' ? 'LOCK' : 'OPEN'), `${op.name}, killed after ${step}: the next change`);
        const after = await runnerIn(cwd, stateDir).active();
        assert.equal(after.kind, 'ok', `${op.name}, killed after ${step}: after the next change`);
      }
    }
  });
}

test('the record is keyed by the workspace\'s real path, without case where file names are compared without case', async () => {
  assert.equal(recordFileFor('/Users/A/Project', '/s', 'darwin'), recordFileFor('/users/a/project', '/s', 'darwin'));
  assert.equal(recordFileFor('C:\\Work\\App', 'C:\\s', 'win32'), recordFileFor('c:\\work\\app', 'C:\\s', 'win32'));
  assert.notEqual(recordFileFor('/home/A', '/s', 'linux'), recordFileFor('/home/a', '/s', 'linux'));
  assert.match(recordFileFor('/home/a', '/s', 'linux'), /^\/s\/workspaces\/[0-9a-f]{32}\.json$/);
});
