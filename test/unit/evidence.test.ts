/**
 * Evidence the agent cannot forge (src/engine/machine/evidence.ts): a guard on
 * `evidence.commands["npm test"].exit_code` passes only after the client's
 * post-call hook reported `npm test` exiting 0 in the current state. Data sent
 * with the event cannot stand in for it, a new entry into the state starts
 * again, and a failing run blocks the transition. Driven through the CLI as a
 * client drives it: `run tool` + `run result` (through the CLI's main in this
 * process, helpers/cli-in-process.ts), and `stategate hook` as a process with
 * Claude Code's PreToolUse / PostToolUse / PostToolUseFailure inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { tempDir } from './helpers/temp-dir';
import { callOutcome } from '../../src/cli/hook-outcome';
import { fieldSteps, readField } from '../../src/engine/machine/guards';
import { noteEvidence } from '../../src/engine/machine/evidence';
import { replay } from '../../src/engine/store/replay';
import type { JournalEntry } from '../../src/engine/machine/run';
import { chartEvents } from '../../src/engine/machine/chart-events';
import { createMachineEnv } from '../../src/engine/machine/env';

const FLAT = {
  id: 'verified',
  initial: 'testing',
  states: {
    testing: {
      allowed_tools: ['Read', 'Bash', 'Edit'],
      allowed_commands: ['npm test', 'npm test -- --bail'],
      on: { DEPLOY: { target: 'deploying', guards: ['tests_passed'] }, RETRY: 'testing', AWAY: 'elsewhere' },
    },
    elsewhere: { on: { BACK: 'testing' } },
    deploying: { on: { DONE: 'done' } },
    done: { type: 'final' },
  },
  guards: { tests_passed: { field: 'evidence.commands["npm test"].exit_code', op: 'eq', value: 0 } },
};

const CHART = `statechart:
  id: verified_chart
  initial: testing
  states:
    testing:
      allowed_tools: [Read, Bash]
      allowed_commands: ["npm test"]
      on:
        DEPLOY:
          target: deploying
          guard: 'evidence.commands["npm test"].exit_code == 0'
        RETRY: testing
        AWAY: elsewhere
    elsewhere:
      on:
        BACK: testing
    deploying:
      on:
        DONE: done
    done:
      type: final
`;

type Step =
  | { run: 'send'; event: string; data?: unknown; expect: 'moves' | 'guard_failed' | 'evidence_in_data' }
  | { run: 'result'; command: string; args: readonly string[] }
  | { run: 'hook'; event: 'PostToolUse' | 'PostToolUseFailure'; command: string; response?: unknown; error?: string };

async function workspace(kind: 'flat' | 'chart'): Promise<string> {
  const cwd = tempDir('sg-evidence-');
  const file = kind === 'flat' ? 'w.workflow.json' : 'w.statechart.yaml';
  fs.writeFileSync(path.join(cwd, file), kind === 'flat' ? JSON.stringify(FLAT) : CHART);
  const started = await cliInProcess(['run', 'start', file], { cwd });
  assert.equal(started.code, 0, started.stderr);
  return cwd;
}

function claudeInput(cwd: string, event: string, command: string, extra: Record<string, unknown>): string {
  return JSON.stringify({ session_id: 's1', transcript_path: '', cwd, hook_event_name: event, tool_name: 'Bash', tool_input: { command, description: 'run' }, tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`, ...extra });
}

async function play(cwd: string, step: Step): Promise<void> {
  switch (step.run) {
    case 'send': {
      const r = await cliInProcess(['run', 'send', step.event, ...(step.data === undefined ? [] : ['--data', JSON.stringify(step.data)])], { cwd });
      if (step.expect === 'evidence_in_data') {
        assert.notEqual(r.code, 0, r.stdout);
        assert.equal(r.json?.error?.code, 'evidence_in_data', r.stdout);
        assert.match(r.json.error.message, /never data sent with an event/);
        return;
      }
      if (step.expect === 'moves') {
        assert.equal(r.json?.transitioned, true, `${step.event}: ${r.stdout}${r.stderr}`);
        return;
      }
      assert.equal(r.json?.transitioned, false, `${step.event} should not move: ${r.stdout}`);
      // A flat run names the guard and what satisfies it (a statechart's send says only that nothing moved).
      if (r.json?.error) assert.match(r.json.error.message, /guard "tests_passed" failed .*observed in this state/, r.stdout);
      return;
    }
    case 'result': {
      assert.equal((await cliInProcess(['run', 'tool', 'Bash', '--input', JSON.stringify({ command: step.command })], { cwd })).json?.decision, 'allow');
      const r = await cliInProcess(['run', 'result', 'Bash', '--input', JSON.stringify({ command: step.command }), ...step.args], { cwd });
      assert.equal(r.code, 0, r.stderr);
      return;
    }
    case 'hook': {
      const pre = cli(['hook', '--client', 'claude'], { cwd, input: claudeInput(cwd, 'PreToolUse', step.command, {}) });
      assert.equal(pre.code, 0, pre.stderr);
      const extra = step.event === 'PostToolUse' ? { tool_response: step.response } : { error: step.error, is_interrupt: false };
      const post = cli(['hook', '--client', 'claude'], { cwd, input: claudeInput(cwd, step.event, step.command, extra) });
      assert.equal(post.code, 0, `${step.event}: ${post.stdout}${post.stderr}`);
      return;
    }
  }
}

const passed = { run: 'result', command: 'npm test', args: ['--exit-code', '0'] } as const;
const ok = { stdout: 'all green', stderr: '', interrupted: false, isImage: false };

const CASES: { name: string; kind: 'flat' | 'chart'; steps: Step[] }[] = [
  { name: 'nothing observed: the guard fails', kind: 'flat', steps: [{ run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  { name: 'a claimed tests_passed in the data does not pass it', kind: 'flat', steps: [{ run: 'send', event: 'DEPLOY', data: { tests_passed: true }, expect: 'guard_failed' }] },
  {
    name: 'data with an evidence key is refused, and changes nothing',
    kind: 'flat',
    steps: [
      { run: 'send', event: 'DEPLOY', data: { evidence: { commands: { 'npm test': { exit_code: 0 } } } }, expect: 'evidence_in_data' },
      { run: 'send', event: 'DEPLOY', expect: 'guard_failed' },
    ],
  },
  {
    name: 'evidence sent with an earlier event (merged into the context on old code) is refused too',
    kind: 'flat',
    steps: [
      { run: 'send', event: 'RETRY', data: { evidence: { commands: { 'npm test': { exit_code: 0 } } } }, expect: 'evidence_in_data' },
      { run: 'send', event: 'DEPLOY', expect: 'guard_failed' },
    ],
  },
  { name: 'npm test reported exit 0 in this state: the guard passes', kind: 'flat', steps: [passed, { run: 'send', event: 'DEPLOY', expect: 'moves' }] },
  { name: 'a failing npm test blocks it', kind: 'flat', steps: [{ run: 'result', command: 'npm test', args: ['--exit-code', '1'] }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  { name: 'the last run counts: a pass, then a failure, blocks', kind: 'flat', steps: [passed, { run: 'result', command: 'npm test', args: ['--exit-code', '2'] }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  { name: 'another command text is not npm test', kind: 'flat', steps: [{ run: 'result', command: 'npm test -- --bail', args: ['--exit-code', '0'] }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  { name: 'a result with no exit code is not a pass', kind: 'flat', steps: [{ run: 'result', command: 'npm test', args: ['--outcome', 'ok'] }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  { name: 'a self-transition enters the state again: it starts over', kind: 'flat', steps: [passed, { run: 'send', event: 'RETRY', expect: 'moves' }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  {
    name: 'leaving and coming back starts over',
    kind: 'flat',
    steps: [passed, { run: 'send', event: 'AWAY', expect: 'moves' }, { run: 'send', event: 'BACK', expect: 'moves' }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }, passed, { run: 'send', event: 'DEPLOY', expect: 'moves' }],
  },
  { name: 'Claude Code: PostToolUse of npm test (exit 0) passes it', kind: 'flat', steps: [{ run: 'hook', event: 'PostToolUse', command: 'npm test', response: ok }, { run: 'send', event: 'DEPLOY', expect: 'moves' }] },
  { name: 'Claude Code: PostToolUseFailure "Exit code 1" blocks it', kind: 'flat', steps: [{ run: 'hook', event: 'PostToolUseFailure', command: 'npm test', error: 'Exit code 1\n1 failing' }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  {
    name: 'Claude Code: a pass, then a failing run, blocks it',
    kind: 'flat',
    steps: [{ run: 'hook', event: 'PostToolUse', command: 'npm test', response: ok }, { run: 'hook', event: 'PostToolUseFailure', command: 'npm test', error: 'Exit code 1' }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }],
  },
  { name: 'Claude Code: an interrupted run is no pass', kind: 'flat', steps: [{ run: 'hook', event: 'PostToolUse', command: 'npm test', response: { ...ok, interrupted: true } }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  {
    name: "Claude Code: a non-zero code its semantics call success (returnCodeInterpretation) has no exit code",
    kind: 'flat',
    steps: [{ run: 'hook', event: 'PostToolUse', command: 'npm test', response: { ...ok, returnCodeInterpretation: 'No matches found' } }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }],
  },
  { name: 'statechart: nothing observed, the guard is false', kind: 'chart', steps: [{ run: 'send', event: 'DEPLOY', data: { tests_passed: true }, expect: 'guard_failed' }] },
  { name: 'statechart: evidence data refused', kind: 'chart', steps: [{ run: 'send', event: 'DEPLOY', data: { evidence: {} }, expect: 'evidence_in_data' }] },
  { name: 'statechart: npm test exit 0 observed passes it', kind: 'chart', steps: [passed, { run: 'send', event: 'DEPLOY', expect: 'moves' }] },
  { name: 'statechart: a failing run blocks it', kind: 'chart', steps: [{ run: 'result', command: 'npm test', args: ['--exit-code', '1'] }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }] },
  // A statechart's transition to its own source does not exit it (no re-entry, as in SCXML's internal
  // transitions): the evidence stays; leaving and entering again starts over.
  { name: 'statechart: a self-transition that does not exit keeps it', kind: 'chart', steps: [passed, { run: 'send', event: 'RETRY', expect: 'moves' }, { run: 'send', event: 'DEPLOY', expect: 'moves' }] },
  {
    name: 'statechart: leaving and entering again starts over',
    kind: 'chart',
    steps: [passed, { run: 'send', event: 'AWAY', expect: 'moves' }, { run: 'send', event: 'BACK', expect: 'moves' }, { run: 'send', event: 'DEPLOY', expect: 'guard_failed' }, passed, { run: 'send', event: 'DEPLOY', expect: 'moves' }],
  },
];

for (const c of CASES) {
  test(`evidence (${c.kind}): ${c.name}`, async () => {
    const cwd = await workspace(c.kind);
    for (const step of c.steps) await play(cwd, step);
  });
}

test('evidence: validate does not flag evidence.* in a statechart guard', async () => {
  const cwd = tempDir('sg-evidence-');
  fs.writeFileSync(path.join(cwd, 'w.statechart.yaml'), CHART);
  const r = cli(['validate', 'w.statechart.yaml'], { cwd });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('evidence: the journal replays to the evidence the run holds', async () => {
  const cwd = await workspace('flat');
  for (const step of [passed, { run: 'result', command: 'npm test -- --bail', args: ['--exit-code', '3'] } as const, { run: 'hook', event: 'PostToolUse', command: 'npm test', response: ok } as const]) await play(cwd, step);
  const runDir = fs.readdirSync(path.join(cwd, '.stategate', 'runs'))[0]!;
  const dir = path.join(cwd, '.stategate', 'runs', runDir);
  const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')).run;
  const journal = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as JournalEntry);
  assert.ok(run.counters.evidence, 'the run holds evidence');
  assert.deepEqual(run.counters.evidence.commands['npm test'], { runs: 2, exit_code: 0, ok: true });
  assert.deepEqual(run.counters.evidence.commands['npm test -- --bail'], { runs: 1, exit_code: 3, ok: false });
  assert.deepEqual(replay(journal).evidence, run.counters.evidence);
  // After a transition both are empty again.
  await play(cwd, { run: 'send', event: 'RETRY', expect: 'moves' });
  const after = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')).run;
  const again = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as JournalEntry);
  assert.equal(after.counters.evidence, undefined);
  assert.equal(replay(again).evidence, undefined);
});

// How each client's post-call input tells how a call ended (src/cli/hook-outcome.ts).
const OUTCOMES: { name: string; client: Parameters<typeof callOutcome>[0]; raw: Record<string, unknown>; tool: string; expect: ReturnType<typeof callOutcome> }[] = [
  { name: 'claude Bash PostToolUse: exit 0', client: 'claude', tool: 'Bash', raw: { hook_event_name: 'PostToolUse', tool_response: ok }, expect: { ok: true, exitCode: 0 } },
  { name: 'claude Bash interrupted', client: 'claude', tool: 'Bash', raw: { hook_event_name: 'PostToolUse', tool_response: { ...ok, interrupted: true } }, expect: { ok: false } },
  { name: 'claude Bash in the background: not ended', client: 'claude', tool: 'Bash', raw: { hook_event_name: 'PostToolUse', tool_response: { ...ok, backgroundTaskId: 'b1' } }, expect: undefined },
  { name: 'claude Bash returnCodeInterpretation: ok, no code', client: 'claude', tool: 'Bash', raw: { hook_event_name: 'PostToolUse', tool_response: { ...ok, returnCodeInterpretation: 'No matches found' } }, expect: { ok: true } },
  { name: 'claude PostToolUseFailure with Exit code 2', client: 'claude', tool: 'Bash', raw: { hook_event_name: 'PostToolUseFailure', error: 'Exit code 2\nboom' }, expect: { ok: false, exitCode: 2 } },
  { name: 'claude PostToolUseFailure: the code only at the start', client: 'claude', tool: 'Bash', raw: { hook_event_name: 'PostToolUseFailure', error: 'timed out\nExit code 0' }, expect: { ok: false } },
  { name: 'claude Read PostToolUse', client: 'claude', tool: 'Read', raw: { hook_event_name: 'PostToolUse', tool_response: { file: {} } }, expect: { ok: true } },
  { name: 'codex structured exit_code', client: 'codex', tool: 'Bash', raw: { hook_event_name: 'PostToolUse', tool_response: { exit_code: 0 } }, expect: { ok: true, exitCode: 0 } },
  { name: 'codex text: first line only', client: 'codex', tool: 'Bash', raw: { hook_event_name: 'PostToolUse', tool_response: 'Exit code: 1\nWall time: 1s\nOutput:\nExit code: 0' }, expect: { ok: false, exitCode: 1 } },
  { name: 'codex text without a code: nothing', client: 'codex', tool: 'Bash', raw: { hook_event_name: 'PostToolUse', tool_response: 'done\nExit code: 0' }, expect: undefined },
  { name: 'gemini shell: the last Exit Code line is Gemini\'s', client: 'gemini', tool: 'run_shell_command', raw: { tool_response: { llmContent: 'Output: Exit Code: 0\nExit Code: 0\nExit Code: 1\n' } }, expect: { ok: false, exitCode: 1 } },
  { name: 'gemini error', client: 'gemini', tool: 'run_shell_command', raw: { tool_response: { llmContent: '', error: { message: 'x' } } }, expect: { ok: false } },
  { name: 'copilot success', client: 'copilot', tool: 'bash', raw: { toolResult: { resultType: 'success', textResultForLlm: 'ok' } }, expect: { ok: true } },
  { name: 'copilot failure', client: 'copilot', tool: 'bash', raw: { toolResult: { resultType: 'failure', textResultForLlm: 'x' } }, expect: { ok: false } },
  { name: 'opencode tool_exit_code', client: 'opencode', tool: 'bash', raw: { tool_exit_code: 0 }, expect: { ok: true, exitCode: 0 } },
  { name: 'vscode: says nothing', client: 'vscode', tool: 'run_in_terminal', raw: { tool_response: 'Exit code: 0' }, expect: undefined },
  { name: 'cursor: says nothing', client: 'cursor', tool: 'Shell', raw: { tool_output: 'Exit code: 0' }, expect: undefined },
];

for (const c of OUTCOMES) {
  test(`evidence outcome: ${c.name}`, () => assert.deepEqual(callOutcome(c.client, c.raw, c.tool), c.expect));
}

// Guard fields: bracketed keys, and `evidence` never read from the context.
const FIELDS: { field: string; steps: string[] | undefined }[] = [
  { field: 'a.b', steps: ['a', 'b'] },
  { field: 'evidence.commands["npm test"].exit_code', steps: ['evidence', 'commands', 'npm test', 'exit_code'] },
  { field: "evidence.commands['python -m pytest tests/a.py'].ok", steps: ['evidence', 'commands', 'python -m pytest tests/a.py', 'ok'] },
  { field: 'a["b.c"]["d"]', steps: ['a', 'b.c', 'd'] },
  { field: 'a["unclosed', steps: undefined },
  { field: 'a[b]', steps: undefined },
];

for (const c of FIELDS) {
  test(`evidence field steps: ${c.field}`, () => assert.deepEqual(fieldSteps(c.field), c.steps));
}

test('evidence: a context key named evidence is never read as evidence', async () => {
  const context = { evidence: { commands: { 'npm test': { exit_code: 0 } } }, 'evidence.commands': 1 };
  assert.equal(readField(context, 'evidence.commands["npm test"].exit_code'), undefined);
  assert.deepEqual(readField(context, 'evidence.commands'), {}, 'nothing observed: no commands, whatever the context says');
  const observed = noteEvidence(undefined, { tool: 'Bash', command: 'npm test', files: [], outcome: { exitCode: 0 } }) as never;
  assert.equal(readField(context, 'evidence.commands["npm test"].exit_code', observed), 0);
});

test('evidence: commands named like Object.prototype keys stay plain data', async () => {
  const e = noteEvidence(undefined, { tool: 'Bash', command: '__proto__', files: [], outcome: { exitCode: 0 } });
  assert.deepEqual(Object.keys(e.commands), ['__proto__']);
  assert.equal(Object.getPrototypeOf(e.commands), Object.prototype);
});

// What the agent is told matches what a send would do: the state view's guards read the same evidence.
for (const kind of ['flat', 'chart'] as const) {
  test(`evidence (${kind}): the state view shows the guard passing only once npm test passed`, async () => {
    const cwd = await workspace(kind);
    const deploy = async () => ((await cliInProcess(['run', 'state'], { cwd })).json.transitions as { event: string; available: boolean }[]).find((t) => t.event === 'DEPLOY')!;
    assert.equal((await deploy()).available, false);
    await play(cwd, passed);
    assert.equal((await deploy()).available, true);
  });
}

test('evidence: the panel\'s event list of a statechart reads it too', async () => {
  const cwd = await workspace('chart');
  await play(cwd, passed);
  const runDir = fs.readdirSync(path.join(cwd, '.stategate', 'runs'))[0]!;
  const run = JSON.parse(fs.readFileSync(path.join(cwd, '.stategate', 'runs', runDir, 'run.json'), 'utf8')).run;
  const wf = createMachineEnv({}).load(run.workflow.definitionText)!;
  const enabled = (evidence?: unknown) => chartEvents(wf, run.chart, Date.now(), evidence as never).find((e) => e.event === 'DEPLOY')!.enabled;
  assert.equal(enabled(), false, 'without the evidence the guard is false');
  assert.equal(enabled(run.counters.evidence), true);
});

test('evidence: a failed evidence guard says what was observed, and what would satisfy it', async () => {
  const cwd = await workspace('flat');
  const message = async () => (await cliInProcess(['run', 'send', 'DEPLOY'], { cwd })).json.error.message as string;
  assert.match(await message(), /\(nothing observed yet\): `evidence` is what stategate observed in this state/);
  await play(cwd, { run: 'result', command: 'npm test', args: ['--exit-code', '1'] });
  assert.match(await message(), /failed \(evidence\.commands\["npm test"\]\.exit_code eq 0\) \(observed 1\)/);
});
