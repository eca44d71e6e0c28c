/**
 * Statecharts for the bench: the transitions chart (3 levels, 2 parallel
 * regions) in our format and as the equivalent XState v5 config, and a
 * generated chart of about `n` nodes for validation.
 */
import { stringify } from 'yaml';

type Plain = Record<string, unknown>;

/** States of one region: `${prefix}0 -NEXT-> ${prefix}1 ... -NEXT-> ${prefix}0` (names unique across the chart). */
function ring(prefix: string, n: number): Record<string, Plain> {
  const states: Record<string, Plain> = {};
  for (let i = 0; i < n; i++) states[`${prefix}${i}`] = { on: { NEXT: `${prefix}${(i + 1) % n}` } };
  return states;
}

const RING = 4;

/**
 * work (compound) > checks (parallel) > regions a and b > their states; NEXT
 * moves both regions one step, STOP leaves to a final state.
 */
export function transitionChartText(): string {
  const checks = { type: 'parallel', regions: ['a', 'b'].map((id) => ({ id, initial: `${id}0`, states: ring(id, RING) })) };
  const chart = {
    id: 'bench_parallel',
    initial: 'work',
    states: { work: { initial: 'checks', states: { checks }, on: { STOP: 'stopped' } }, stopped: { type: 'final' } },
  };
  return JSON.stringify({ statechart: chart });
}

/** The same chart as an XState v5 machine config. */
export function transitionChartXState(): Plain {
  const region = (id: string): Plain => ({ initial: `${id}0`, states: ring(id, RING) });
  return {
    id: 'bench_parallel',
    initial: 'work',
    states: {
      work: { initial: 'checks', states: { checks: { type: 'parallel', states: { a: region('a'), b: region('b') } } }, on: { STOP: '#bench_parallel.stopped' } },
      stopped: { type: 'final' },
    },
  };
}

/** Children per group in the generated chart. */
const GROUP = 10;

/**
 * A chart of about `n` nodes (YAML): groups of GROUP states run one after
 * the other (onDone); every third group is a parallel state of two regions,
 * the others compound states whose steps have a guarded NEXT, an `after`
 * and entry actions. Every name is unique, so every rule has work to do.
 */
export function generateChartText(n: number): { text: string; nodes: number } {
  const groups = Math.max(1, Math.ceil(n / (GROUP + 1)));
  const states: Record<string, Plain> = {};
  let nodes = 1;
  const steps = (prefix: string, count: number): Record<string, Plain> => {
    const out: Record<string, Plain> = {};
    for (let j = 0; j < count; j++) {
      const last = j === count - 1;
      out[`${prefix}_${j}`] = last
        ? { type: 'final' }
        : {
            entry: ['count'],
            on: { NEXT: [{ target: `${prefix}_${j + 1}`, guard: 'context.n >= 0 and len(context.tags) < 100' }, { target: `${prefix}_${j + 1}` }] },
            after: { 60000: `${prefix}_${j + 1}` },
          };
      nodes++;
    }
    return out;
  };
  for (let g = 0; g < groups; g++) {
    const next = g === groups - 1 ? 'done' : `g${g + 1}`;
    nodes++;
    if (g % 3 === 2) {
      const half = Math.floor((GROUP - 2) / 2);
      nodes += 2;
      states[`g${g}`] = {
        type: 'parallel',
        regions: [0, 1].map((r) => ({ id: `g${g}r${r}`, initial: `g${g}r${r}_0`, states: steps(`g${g}r${r}`, half) })),
        onAllDone: next,
      };
    } else {
      states[`g${g}`] = { initial: `g${g}_0`, states: steps(`g${g}`, GROUP), onDone: next, on: { ABORT: 'done' } };
    }
  }
  states['done'] = { type: 'final' };
  nodes++;
  const chart = {
    id: `generated_${n}`,
    initial: 'g0',
    context: { n: 0, tags: [] },
    actions: { count: { type: 'assign', context_updates: { n: 'context.n + 1' } } },
    states,
  };
  return { text: stringify({ statechart: chart }), nodes };
}
