/**
 * A ready-made `MachineEnv`: definition texts load from their compiled
 * definition when the caller keeps them (store/compiled-definitions.ts), else
 * through the format loaders (required only then: a hook deciding a call on a
 * compiled run never loads them), and stay cached by the text itself (a run re-derives its IR from the text it
 * started with on every operation, so the cache is what keeps that cheap). The
 * text is the key, not its sha256: a Map finds a string key by V8's string hash
 * (cached on the string; for long strings little more than the length) and
 * then by identity or equality, and the machine's copies of a snapshot share
 * the very same string, so a lookup costs next to nothing and never hashes
 * the whole text.
 * The time source and the invoke resolver come from the caller (the store
 * resolves invokes through the workflow registry; tests pass their own).
 */
import type { Workflow } from '../model/index.js';
import type { MachineEnv } from './cursor.js';

/**
 * Where definitions are kept compiled (store/compiled-definitions.ts). `read` answers only for a
 * compiled definition of exactly this text that can be used (`workflow` undefined: the text does
 * not load); anything else is undefined, and the text is loaded and handed to `write`.
 */
export interface CompiledDefinitions {
  read(text: string): { readonly workflow: Workflow | undefined } | undefined;
  write(text: string, workflow: Workflow | undefined): void;
}

export interface MachineEnvOptions {
  now?: () => string;
  resolveInvoke?: MachineEnv['resolveInvoke'];
  resolveChart?: MachineEnv['resolveChart'];
  /** Bound on cached definitions (oldest dropped first). */
  cacheSize?: number;
  /** Compiled definitions to read before loading a text, and to write after. */
  compiled?: CompiledDefinitions;
}

/** The format loaders' verdict on a text: a definition with errors does not run, the machine gets nothing. */
export function loadFromSource(text: string): Workflow | undefined {
  // Required here, not imported: a hook process reading compiled definitions never evaluates the loaders.
  const { loadWorkflowText } = require('../formats/loaders.js') as typeof import('../formats/loaders.js');
  const loaded = loadWorkflowText(text);
  return loaded.diagnostics.some((d) => d.severity === 'error') ? undefined : loaded.workflow;
}

export function createMachineEnv(opts: MachineEnvOptions = {}): MachineEnv {
  const cache = new Map<string, Workflow | undefined>();
  const limit = opts.cacheSize ?? 64;
  return {
    now: opts.now ?? isoNow,
    load(text: string): Workflow | undefined {
      const hit = cache.get(text);
      if (hit !== undefined || cache.has(text)) return hit;
      const kept = opts.compiled?.read(text);
      const wf = kept ? kept.workflow : loadFromSource(text);
      if (!kept) opts.compiled?.write(text, wf);
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(text, wf);
      return wf;
    },
    resolveInvoke: opts.resolveInvoke ?? (() => undefined),
    ...(opts.resolveChart ? { resolveChart: opts.resolveChart } : {}),
  };
}

/** `00` .. `99`. */
const TWO: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
/** `.000Z` .. `.999Z`. */
const MILLIS: readonly string[] = Array.from({ length: 1000 }, (_, i) => `.${String(i).padStart(3, '0')}Z`);
/** 253402300800000 = 10000-01-01T00:00:00Z: up to there an ISO time has a plain four-digit year. */
const YEAR_10000 = 253402300800000;
const DAY_MS = 86400000;

/** The last day formatted (days since 1970-01-01) and its `YYYY-MM-DDT`. */
let lastDay = -1;
let dayPrefix = '';

/**
 * `new Date().toISOString()`, the same string, formatted by arithmetic and
 * small tables: the Date object and its formatting cost more than the rest of
 * a transition. Outside 1970..9999 it falls back to `Date`.
 */
export function isoNow(): string {
  return isoTime(Date.now());
}

export function isoTime(t: number): string {
  if (!(t >= 0 && t < YEAR_10000) || !Number.isInteger(t)) return new Date(t).toISOString();
  const days = Math.floor(t / DAY_MS);
  let rem = t - days * DAY_MS;
  const h = Math.floor(rem / 3600000);
  rem -= h * 3600000;
  const mi = Math.floor(rem / 60000);
  rem -= mi * 60000;
  const s = Math.floor(rem / 1000);
  if (days !== lastDay) {
    dayPrefix = `${civilDate(days)}T`;
    lastDay = days;
  }
  return dayPrefix + TWO[h] + ':' + TWO[mi] + ':' + TWO[s] + MILLIS[rem - s * 1000];
}

/** `YYYY-MM-DD` of a day since 1970-01-01 (H. Hinnant's `civil_from_days`, days ≥ 0, years to 9999). */
function civilDate(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${TWO[m]}-${TWO[d]}`;
}
