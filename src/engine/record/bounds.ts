/**
 * The run's safety bounds from the workflow's `meta`: `max_cost` ("$5") and
 * `max_time` ("2h", "90m", "1h 30m"), spelled as the record's seed spells
 * them. Past a bound every tool but stategate's own is denied (policy/decide.ts);
 * crossing 75% and 90% of one adds a warning, once, that the agent is told
 * and the record lists. Time counts from the run's start on the run's clock.
 */
import type { JsonObject } from '../model/index.js';
import type { BoundWarning, JournalEntry, RunSnapshot } from '../machine/run.js';

const THRESHOLDS = [0.75, 0.9] as const;

/** "$5", "$0.50", "5" (dollars), or a number; undefined when absent or not a cost. */
export function parseCost(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*\$?\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  return m ? Number(m[1]) : undefined;
}

/** "2h", "90m", "1h 30m", "45s" (or a number of seconds) in milliseconds; undefined when absent or not a duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(?:(\d+(?:\.\d+)?)\s*h)?\s*(?:(\d+(?:\.\d+)?)\s*m)?\s*(?:(\d+(?:\.\d+)?)\s*s)?\s*$/.exec(value);
  if (!m || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return undefined;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

/** "$0.75": cents, trailing zeros kept as the seed writes costs. */
export function formatCost(dollars: number): string {
  return `$${(Math.round(dollars * 100) / 100).toFixed(2)}`;
}

/** "0h 34m 8s", as the seed writes elapsed time. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 3600)}h ${Math.floor((total % 3600) / 60)}m ${total % 60}s`;
}

/** "15m 23s" (hours only when there are some), as the seed writes a task's time. */
export function formatShortElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return `${h ? `${h}h ` : ''}${m}m ${total % 60}s`;
}

export interface Bounds {
  /** As written in meta (the record shows them so), or null. */
  readonly maxCostText: string | null;
  readonly maxTimeText: string | null;
  readonly maxCost?: number;
  readonly maxTimeMs?: number;
}

export function boundsOf(meta: JsonObject | undefined): Bounds {
  const cost = meta?.max_cost;
  const time = meta?.max_time;
  const maxCost = parseCost(cost);
  const maxTimeMs = parseDuration(time);
  return {
    maxCostText: cost === undefined || cost === null ? null : String(cost),
    maxTimeText: time === undefined || time === null ? null : String(time),
    ...(maxCost === undefined ? {} : { maxCost }),
    ...(maxTimeMs === undefined ? {} : { maxTimeMs }),
  };
}

export function costSoFar(run: RunSnapshot): number {
  return run.usage?.cost ?? 0;
}

export function elapsedMs(run: RunSnapshot, now: string): number {
  return Math.max(0, Date.parse(now) - Date.parse(run.createdAt));
}

export interface BoundsCheck {
  /** Why every tool is denied now (a bound is reached), with the way forward. */
  readonly exceeded?: string;
  /** Warnings crossed now that the run has not given yet. */
  readonly crossed: BoundWarning[];
}

/** Where the run stands against its bounds at `now`. */
export function checkBounds(run: RunSnapshot, bounds: Bounds, now: string): BoundsCheck {
  const crossed: BoundWarning[] = [];
  const given = new Set((run.boundWarnings ?? []).map((w) => w.key));
  let exceeded: string | undefined;
  const measure = (name: 'cost' | 'time', used: number, max: number | undefined, shown: (n: number) => string, limitText: string | null) => {
    if (max === undefined) return;
    if (used >= max && exceeded === undefined) {
      exceeded = `The run has reached its ${name} bound: ${shown(used)} of ${limitText} (meta.max_${name}). Every tool but stategate's own is denied; a person can raise meta.max_${name} in the workflow and reload it (stategate run reload), or stop the run.`;
    }
    for (const t of THRESHOLDS) {
      const key = `${name}:${Math.round(t * 100)}`;
      if (used >= max * t && !given.has(key)) {
        crossed.push({ key, at: now, message: `${name === 'cost' ? 'Cost' : 'Time'} at ${Math.round(t * 100)}% of limit (${shown(used)} of ${limitText})` });
      }
    }
  };
  measure('cost', costSoFar(run), bounds.maxCost, formatCost, bounds.maxCostText);
  measure('time', elapsedMs(run, now), bounds.maxTimeMs, formatElapsed, bounds.maxTimeText);
  return exceeded === undefined ? { crossed } : { exceeded, crossed };
}

/**
 * Check the bounds on an operation's own copy of the run and note the warnings
 * crossed: added to the run (so each is given once) and journaled.
 */
export function noteBounds(run: RunSnapshot, meta: JsonObject | undefined, now: string, journal: JournalEntry[]): BoundsCheck {
  const check = checkBounds(run, boundsOf(meta), now);
  for (const w of check.crossed) {
    run.boundWarnings = [...(run.boundWarnings ?? []), w];
    journal.push({ kind: 'bound_warning', at: now, key: w.key, message: w.message });
  }
  return check;
}
