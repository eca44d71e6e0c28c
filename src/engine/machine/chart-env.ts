/**
 * The environment a statechart run reads as `env.NAME` (docs/statecharts.md,
 * "Environment variables"): only the variables the chart's root `env:` names,
 * taken from the starting process's environment when the run starts (a name
 * that is not set takes its default, else null). The values are kept in the
 * run and its start entry in the journal, so later steps, other processes
 * and a replay read the same values; no other variable ever enters the run.
 */
import type { Workflow } from '../model/index.js';

export type CapturedEnv = Record<string, string | null>;

/** The chart's declared variables from `environment`; undefined when the chart declares none. */
export function captureChartEnv(wf: Workflow, environment: Readonly<Record<string, string | undefined>>): CapturedEnv | undefined {
  const declared = wf.chart?.env;
  if (!declared?.length) return undefined;
  const out: CapturedEnv = {};
  for (const v of declared) {
    // Read by index, not own keys: process.env on Windows finds a name in any case; a non-string (an inherited name) is not set.
    const value: unknown = environment[v.name];
    Object.defineProperty(out, v.name, { value: typeof value === 'string' ? value : v.default, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** What expressions see as `env`: the captured values, an unset one (null) left out so it reads null. */
export function envBinding(captured: CapturedEnv | undefined): Readonly<Record<string, string | undefined>> | undefined {
  if (!captured) return undefined;
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(captured)) if (value !== null) Object.defineProperty(out, name, { value, enumerable: true });
  return out;
}
