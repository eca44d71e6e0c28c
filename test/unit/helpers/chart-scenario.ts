// Runs a plain test chart through the interpreter step by step (events and
// clock moves), asserting what each step should give, and, unless told not
// to, that XState v5 agrees at every step (helpers/xstate-twin.ts).
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/engine/model/index.js';
import {
  fireDueTimers,
  sendEvent,
  startChart,
  stateValue,
  type ChartResult,
  type ChartStatus,
  type StateValue,
} from '../../../src/engine/statechart/index.js';
import { buildChart, type PlainChart } from './chart-builder.js';
import { xstateTwin } from './xstate-twin.js';

export interface Expect {
  value?: StateValue;
  /** `context.trace`. */
  trace?: string;
  status?: ChartStatus;
  context?: JsonObject;
}

export type ScenarioStep = ({ send: string; data?: JsonObject } | { tick: number }) & { expect: Expect };

export interface Scenario {
  chart: PlainChart;
  start: Expect;
  steps?: ScenarioStep[];
  /** false: a deliberate difference (docs/compat.md), so XState is not asked. */
  xstate?: boolean;
  maxMicrosteps?: number;
}

const XSTATUS: Record<ChartStatus, string> = { running: 'active', done: 'done', failed: 'error' };

/** Runs the scenario; returns every step's result (the start first). */
export function runScenario(s: Scenario): ChartResult[] {
  const wf = buildChart(s.chart);
  const twin = s.xstate === false ? undefined : xstateTwin(s.chart, wf, s.maxMicrosteps ? { maxIterations: s.maxMicrosteps } : {});
  let now = 0;
  const limit = s.maxMicrosteps ? { maxMicrosteps: s.maxMicrosteps } : {};
  let result = startChart(wf, { now, ...limit });
  const results = [result];
  const check = (where: string, expect: Expect): void => {
    const snapshot = result.snapshot;
    const value = stateValue(wf, snapshot);
    if (expect.value !== undefined) assert.deepEqual(value, expect.value, `${where}: value`);
    if (expect.trace !== undefined) assert.equal(snapshot.context.trace, expect.trace, `${where}: trace`);
    if (expect.status !== undefined) assert.equal(snapshot.status, expect.status, `${where}: status (${snapshot.error ?? ''})`);
    if (expect.context !== undefined) assert.deepEqual(snapshot.context, expect.context, `${where}: context`);
    if (twin) {
      assert.deepEqual(
        { value, status: XSTATUS[snapshot.status], context: snapshot.context },
        { value: twin.value, status: twin.status, context: twin.context },
        `${where}: XState disagrees`,
      );
    }
  };
  check('after the start', s.start);
  for (const [i, step] of (s.steps ?? []).entries()) {
    if ('send' in step) {
      twin?.send(step.send, step.data);
      result = sendEvent(wf, result.snapshot, step.data ? { type: step.send, data: step.data } : { type: step.send }, { now, ...limit });
    } else {
      now += step.tick;
      twin?.tick(step.tick);
      result = fireDueTimers(wf, result.snapshot, now, limit);
    }
    results.push(result);
    check(`step ${i} (${'send' in step ? step.send : `tick ${step.tick}`})`, step.expect);
  }
  return results;
}

/** An assign action appending `token` to `context.trace`. */
export function trace(token: string): { type: 'assign'; assign: Record<string, string> } {
  return { type: 'assign', assign: { trace: `context.trace + '${token}'` } };
}
