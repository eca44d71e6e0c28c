/**
 * Statechart runs in the machine and the policy: limits counted per declaring
 * node (reset when that node is exited), `force`, interrupts fired by an
 * agent's write, `reload`, and every journal replaying to the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMachineEnv } from '../../src/engine/machine/env.js';
import * as m from '../../src/engine/machine/operations.js';
import type { MachineResult } from '../../src/engine/machine/operations.js';
import { hashText, type JournalEntry, type RunSnapshot } from '../../src/engine/machine/run.js';
import { decide, record, type Decision } from '../../src/engine/policy/decide.js';
import { replay } from '../../src/engine/store/replay.js';
import type { JsonObject } from '../../src/engine/model/index.js';

const POLICY = path.join(__dirname, '..', 'fixtures', 'statecharts', 'policy');
const LIMITS = fs.readFileSync(path.join(POLICY, 'limits.statechart.yaml'), 'utf8');
const WS = '/ws';

class ChartDriver {
  run: RunSnapshot;
  journal: JournalEntry[] = [];
  private tick = 0;
  readonly env = createMachineEnv({ now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, this.tick++)).toISOString() });

  constructor(text = LIMITS) {
    const wf = this.env.load(text);
    assert.ok(wf, 'the chart loads');
    const r = m.startRun(wf, text, { runId: 'run-1', hash: hashText(text) }, this.env);
    assert.ok(r.run);
    this.run = r.run;
    this.journal.push(...r.journal);
  }

  take<O>(r: MachineResult<O>): O {
    this.run = r.run;
    this.journal.push(...r.journal);
    return r.outcome;
  }

  tool(tool: string, input: JsonObject = {}): Decision {
    return this.take(decide(this.run, { tool, input }, this.env, { workspaceRoot: WS }));
  }

  read(): Decision {
    return this.tool('Read', { file_path: `${WS}/a.txt` });
  }

  edit(lines: number, file = 'a.txt'): Decision {
    return this.tool('Edit', { file_path: `${WS}/${file}`, old_string: 'x', new_string: Array.from({ length: lines }, (_, i) => `line ${i}`).join('\n') });
  }

  send(event: string): m.SendOutcome {
    return this.take(m.sendEvent(this.run, event, undefined, this.env));
  }

  configuration(): string[] {
    return [...(this.run.chart?.configuration ?? [])].filter((id) => !this.run.chart?.configuration.some((other) => other.startsWith(`${id}.`)));
  }

  /** The journal rebuilds what run.json holds, and run.json survives JSON. */
  assertReplays(): void {
    const r = replay(this.journal);
    assert.deepEqual(
      { state: r.state, context: r.context, status: r.status, transitions: r.transitions },
      { state: this.run.state, context: this.run.context, status: this.run.status, transitions: this.run.counters.transitions },
    );
    assert.deepEqual(JSON.parse(JSON.stringify(this.run)), this.run);
  }
}

test('a limit counts in the node that declares it: a sibling change inside it keeps the count, leaving it resets it', () => {
  const d = new ChartDriver();
  assert.equal(d.read().decision, 'allow');
  assert.equal(d.read().decision, 'allow');
  assert.equal(d.send('NEXT').transitioned, true);
  // phase.a was exited, but the limit is phase's, and phase is still active.
  const third = d.read();
  assert.equal(third.decision, 'allow');
  assert.match(third.notices.join(' '), /last tool call allowed in 'phase'/);
  const fourth = d.read();
  assert.equal(fourth.decision, 'deny');
  assert.match(fourth.reason ?? '', /State 'phase' \(which encloses 'phase\.b'\) has used all 3 tool calls/);
  assert.match(fourth.reason ?? '', /BACK, GO, LEAVE/);
  assert.deepEqual(d.run.nodeCounters, { phase: { iterations: 3, filesEdited: [], editLines: 0, bytesRead: 0 } });
  d.send('LEAVE');
  assert.equal(d.run.nodeCounters, undefined);
  d.send('RETURN');
  assert.equal(d.read().decision, 'allow');
  d.assertReplays();
});

test('limits of an inner node count in that node, and reset when it is exited and entered again', () => {
  const d = new ChartDriver();
  const big = d.edit(3);
  assert.equal(big.decision, 'deny');
  assert.match(big.reason ?? '', /state 'phase\.a' allows 2 lines per edit \(max_edit_lines\)/);
  assert.equal(d.edit(2).decision, 'allow');
  assert.equal(d.run.nodeCounters?.['phase.a']?.editLines, 2);
  // Changed on purpose (issue 30): max_edit_lines holds each edit; the node still counts the lines as usage.
  assert.equal(d.edit(1).decision, 'allow');
  assert.equal(d.run.nodeCounters?.['phase.a']?.editLines, 3);
  assert.equal(d.edit(3).decision, 'deny');
  d.send('NEXT');
  d.send('BACK');
  assert.equal(d.run.nodeCounters?.['phase.a'], undefined);
  assert.equal(d.edit(2).decision, 'allow');
  assert.equal(d.run.nodeCounters?.phase?.iterations, 3);
  d.assertReplays();
});

test('parallel regions: a call counts against the first active state that allows it, in that state', () => {
  const d = new ChartDriver();
  d.send('LEAVE');
  d.send('WORK');
  assert.deepEqual(d.configuration(), ['work.code.coding', 'work.docs.writing']);
  assert.equal(d.edit(1).state, 'work.code.coding');
  const second = d.edit(1, 'b.txt');
  assert.equal(second.decision, 'deny');
  assert.match(second.reason ?? '', /State 'work\.code\.coding' has used all 1 tool calls/);
  const read = d.read();
  assert.deepEqual([read.decision, read.state], ['allow', 'work.docs.writing']);
  assert.deepEqual(Object.keys(d.run.nodeCounters ?? {}), ['work.code.coding', 'work.docs.writing']);
  d.assertReplays();
});

test('result bytes count in the node that declares context_budget_bytes', () => {
  const text = LIMITS.replace('      max_iterations: 3\n', '      max_iterations: 3\n      context_budget_bytes: 100\n');
  const d = new ChartDriver(text);
  d.read();
  d.take(record(d.run, { tool: 'Read', input: { file_path: `${WS}/a.txt` } }, { bytes: 95 }, d.env, { workspaceRoot: WS }));
  d.send('NEXT');
  assert.equal(d.run.nodeCounters?.phase?.bytesRead, 95);
  const read = d.read();
  assert.equal(read.decision, 'allow');
  assert.match(read.notices.join(' '), /Context budget nearly spent in 'phase'/);
});

test('resume resets the iterations of every node', () => {
  const d = new ChartDriver();
  d.read();
  d.take(m.pause(d.run, d.env));
  d.take(m.resume(d.run, d.env));
  assert.equal(d.run.nodeCounters?.phase?.iterations, 0);
});

test('force: a dotted path or a unique name; exits and entries run, the context is patched, the journal replays', () => {
  const d = new ChartDriver();
  d.read();
  const r = d.take(m.forceState(d.run, 'b', { ready: true }, d.env));
  assert.equal(r.forced, true);
  assert.deepEqual(d.configuration(), ['phase.b']);
  // phase was exited and entered again: its limit's count starts again; b's entry action ran.
  assert.equal(d.run.nodeCounters, undefined);
  assert.deepEqual(d.run.context, { ready: true, entered_b: 1 });
  const last = d.journal.at(-1);
  assert.ok(last?.kind === 'chart' && last.op === 'force' && last.event === 'phase.b');
  assert.deepEqual(last.patch, { ready: true });
  // Forcing the state the run is in exits and enters it again.
  d.take(m.forceState(d.run, 'phase.b', undefined, d.env));
  assert.equal(d.run.context.entered_b, 2);
  // Guards are not asked: a parallel state is entered with every region.
  d.take(m.forceState(d.run, 'work', undefined, d.env));
  assert.deepEqual(d.configuration(), ['work.code.coding', 'work.docs.writing']);
  d.assertReplays();
});

test('force refusals: unknown or ambiguous state, a chart without meta.debug, a stopped run', () => {
  const d = new ChartDriver();
  const unknown = d.take(m.forceState(d.run, 'nowhere', undefined, d.env));
  assert.equal(unknown.error?.code, 'unknown_state');
  const twice = LIMITS.replace('        b:\n', '        coding:\n          on: {}\n        b:\n');
  const ambiguous = new ChartDriver(twice);
  const r = ambiguous.take(m.forceState(ambiguous.run, 'coding', undefined, ambiguous.env));
  assert.match(r.error?.message ?? '', /names several states \(phase\.coding, work\.code\.coding\); give the dotted path/);
  const nodebug = new ChartDriver(LIMITS.replace('  meta:\n    debug: true\n', ''));
  assert.equal(nodebug.take(m.forceState(nodebug.run, 'b', undefined, nodebug.env)).error?.code, 'debug_only');
  d.take(m.stop(d.run, d.env));
  assert.equal(d.take(m.forceState(d.run, 'b', undefined, d.env)).error?.code, 'not_running');
});

test('force revives a completed run and keeps a paused one paused', () => {
  const text = LIMITS.replace('    handling:\n', '    finished:\n      type: final\n    handling:\n');
  const d = new ChartDriver(text);
  d.take(m.forceState(d.run, 'finished', undefined, d.env));
  assert.equal(d.run.status, 'completed');
  d.take(m.forceState(d.run, 'a', undefined, d.env));
  assert.deepEqual([d.run.status, d.configuration()], ['running', ['phase.a']]);
  d.take(m.pause(d.run, d.env));
  d.take(m.forceState(d.run, 'b', undefined, d.env));
  assert.equal(d.run.status, 'paused');
  d.assertReplays();
});

test('an agent write matching a root interrupt jumps to its handler; leaving the handler ends it; force clears it', () => {
  const d = new ChartDriver();
  const out = d.take(record(d.run, { tool: 'Write', input: { file_path: `${WS}/config/.env`, content: 'X=1' } }, {}, d.env, { workspaceRoot: WS }));
  assert.equal(out.interrupted, true);
  assert.deepEqual(out.interrupt, { name: 'secrets', from: 'phase.a', to: 'handling', file: 'config/.env', return_via: 'chart' });
  assert.deepEqual(d.configuration(), ['handling']);
  assert.equal(d.run.interrupt?.name, 'secrets');
  // While it is active, no other fires; standing in the handler, the same one does not fire again.
  assert.equal(d.take(m.fileChanged(d.run, 'config/.env', d.env)).reason, 'interrupt_active');
  d.send('HANDLED');
  assert.equal(d.run.interrupt, undefined);
  assert.deepEqual(d.configuration(), ['phase.a']);
  const sent = d.send('INTERRUPT:secrets');
  assert.deepEqual(sent.interrupted, { name: 'secrets', from: 'phase.a', to: 'handling' });
  const forced = d.take(m.forceState(d.run, 'a', undefined, d.env));
  assert.deepEqual(forced.cleared, ['interrupt']);
  assert.equal(d.run.interrupt, undefined);
  assert.equal(d.send('INTERRUPT:nope').error?.code, 'unknown_event');
  d.take(m.pause(d.run, d.env));
  assert.equal(d.send('INTERRUPT:secrets').error?.code, 'not_running');
  assert.equal(d.take(m.fileChanged(d.run, 'config/.env', d.env)).reason, 'not_running');
  d.take(m.resume(d.run, d.env));
  d.assertReplays();
});

test('reload keeps the configuration when its states still exist, and refuses naming what would be lost', () => {
  const d = new ChartDriver();
  d.send('NEXT');
  const added = LIMITS.replace('    handling:\n', '    extra:\n      on:\n        BACK_TO_WORK:\n          target: phase\n    handling:\n');
  const ok = d.take(m.reloadDefinition(d.run, added, d.env));
  assert.equal(ok.reloaded, true);
  assert.deepEqual(d.configuration(), ['phase.b']);
  const renamed = added.replace(/\bb:\n/, 'bee:\n').replace('target: b\n', 'target: bee\n');
  const lost = d.take(m.reloadDefinition(d.run, renamed, d.env));
  assert.equal(lost.reloaded, false);
  assert.match(lost.error?.message ?? '', /would lose what the run holds: active state phase\.b/);
  const parallel = added.replace('    phase:\n      max_iterations: 3\n', '    phase:\n      type: parallel\n      max_iterations: 3\n');
  const illegal = d.take(m.reloadDefinition(d.run, parallel, d.env));
  assert.equal(illegal.reloaded, false);
  const flat = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'workflows', 'debug-machine.workflow.json'), 'utf8');
  assert.equal(d.take(m.reloadDefinition(d.run, flat, d.env)).error?.code, 'invalid_definition');
  assert.equal(d.run.workflow.definitionText, added);
  d.assertReplays();
});

test('force cancels the timers of the states it exits and schedules those of the states it enters', () => {
  const spec = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'statecharts', 'spec', 'after.statechart.yaml'), 'utf8');
  const d = new ChartDriver(spec.replace('  id: delayed_example\n', '  id: delayed_example\n  meta:\n    debug: true\n'));
  const timers = (): readonly { state: string }[] => d.run.chart?.timers ?? [];
  assert.equal(timers().length, 2);
  d.take(m.forceState(d.run, 'sla_breach', undefined, d.env));
  assert.equal(timers().length, 0);
  const entry = d.journal.at(-1);
  assert.ok(entry?.kind === 'chart');
  assert.deepEqual(entry.effects.filter((e) => e.type === 'timer-cancelled').length, 2);
  d.take(m.forceState(d.run, 'waiting_for_approval', undefined, d.env));
  assert.deepEqual(timers().map((t) => t.state), ['waiting_for_approval', 'waiting_for_approval']);
  d.assertReplays();
});
