/**
 * Test helpers for the machine: fixtures loaded through the Statewright
 * loader, a deterministic clock, invokes resolved by workflow id among the
 * fixtures, and a small driver that applies results and keeps the journal.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonValue, Workflow } from '../../src/engine/model/index.js';
import { createMachineEnv } from '../../src/engine/machine/env.js';
import type { BranchOption, MachineEnv, MachineResult } from '../../src/engine/machine/operations.js';
import * as m from '../../src/engine/machine/operations.js';
import type { JournalEntry, RunSnapshot } from '../../src/engine/machine/run.js';
import { hashText } from '../../src/engine/machine/run.js';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'workflows');

export function fixtureText(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** An env whose clock ticks one second per call and whose invokes find fixtures by id. */
export function testEnv(invokable: readonly string[] = ['debug-machine.workflow.json']): MachineEnv {
  let tick = 0;
  const base = createMachineEnv({ now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString() });
  const byId = new Map<string, { text: string; file: string }>();
  for (const f of invokable) {
    const text = fixtureText(f);
    const wf = base.load(text);
    if (wf) byId.set(wf.id, { text, file: f });
  }
  return {
    ...base,
    resolveInvoke(name) {
      const hit = byId.get(name);
      const workflow = hit && base.load(hit.text);
      return hit && workflow ? { workflow, text: hit.text, file: hit.file } : undefined;
    },
  };
}

export function loadFixture(env: MachineEnv, name: string): { wf: Workflow; text: string } {
  const text = fixtureText(name);
  const wf = env.load(text);
  assert.ok(wf, `fixture ${name} loads`);
  return { wf, text };
}

/** Drives one run: each call replaces `run` with the result and keeps the whole journal. */
export class Driver {
  run: RunSnapshot;
  journal: JournalEntry[] = [];
  readonly env: MachineEnv;

  constructor(fixture: string, opts: { env?: MachineEnv; context?: JsonObject } = {}) {
    this.env = opts.env ?? testEnv();
    const { wf, text } = loadFixture(this.env, fixture);
    const r = m.startRun(wf, text, { runId: 'run-1', file: fixture, hash: hashText(text), ...(opts.context ? { context: opts.context } : {}) }, this.env);
    assert.ok(r.run, 'run starts');
    this.run = r.run;
    this.journal.push(...r.journal);
  }

  private take<O>(r: MachineResult<O>): O {
    this.run = r.run;
    this.journal.push(...r.journal);
    return r.outcome;
  }

  send(event: string, data?: JsonValue, opt: BranchOption = {}): m.SendOutcome {
    return this.take(m.sendEvent(this.run, event, data, this.env, opt));
  }
  approve(opt: BranchOption = {}): m.ApprovalOutcome {
    return this.take(m.approve(this.run, this.env, opt));
  }
  reject(opt: BranchOption = {}): m.ApprovalOutcome {
    return this.take(m.reject(this.run, this.env, opt));
  }
  file(path: string, opt: BranchOption = {}): m.FileChangedOutcome {
    return this.take(m.fileChanged(this.run, path, this.env, opt));
  }
  pause(): m.StatusOutcome {
    return this.take(m.pause(this.run, this.env));
  }
  resume(): m.StatusOutcome {
    return this.take(m.resume(this.run, this.env));
  }
  stop(): m.StatusOutcome {
    return this.take(m.stop(this.run, this.env));
  }
  force(state: string, patch?: JsonObject): m.ForceOutcome {
    return this.take(m.forceState(this.run, state, patch, this.env));
  }
  reload(text: string): m.ReloadOutcome {
    return this.take(m.reloadDefinition(this.run, text, this.env));
  }
  view(opt: BranchOption = {}): m.StateView {
    return m.describe(this.run, this.env, opt);
  }
  /** The state `describe` reports. */
  get state(): string {
    return this.view().state;
  }
  /** Sends and asserts the transition happened and where it led. */
  go(event: string, expected: string, data?: JsonValue, opt: BranchOption = {}): m.SendOutcome {
    const o = this.send(event, data, opt);
    assert.equal(o.error, undefined, `${event}: ${o.error?.message}`);
    assert.equal(o.to, expected, `${event} leads to ${expected}`);
    return o;
  }
  /** Sends and asserts it was refused with `code`, leaving the snapshot unchanged. */
  refused(event: string, code: string, data?: JsonValue, opt: BranchOption = {}): m.SendOutcome {
    const before = this.run;
    const o = this.send(event, data, opt);
    assert.equal(o.error?.code, code, `${event} refused with ${code} (got ${o.error?.code ?? 'no error'}: ${o.error?.message ?? ''})`);
    assert.equal(o.transitioned, false);
    assert.equal(this.run, before, 'a refused event leaves the snapshot as it was');
    return o;
  }
  kinds(): string[] {
    return this.journal.map((e) => e.kind);
  }
}
