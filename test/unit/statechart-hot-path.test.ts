// The statechart interpreter's fast paths against the plain computations
// they stand for (docs/architecture.md "Hot paths"): transition plans
// (plans.ts: a domain and an entry set computed once when history plays no
// part) against domain.ts / entry.ts run in every configuration a chart
// reaches, with anything already marked; the range test for conflicts
// (exits.ts) against the exit sets themselves; and what a snapshot shares
// with the one it came from (the context when no assign ran, the
// configuration when no microstep changed it), never changing the input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildChart, type PlainChart } from './helpers/chart-builder.js';
import { transitionDomain } from '../../src/engine/statechart/domain.js';
import { addEntrySet } from '../../src/engine/statechart/entry.js';
import { exitSetsOverlap } from '../../src/engine/statechart/exits.js';
import { sendEvent, startChart, type ChartSnapshot } from '../../src/engine/statechart/index.js';
import { planOf } from '../../src/engine/statechart/plans.js';
import { RunState } from '../../src/engine/statechart/run-state.js';
import { chartTable, type TransitionRow } from '../../src/engine/statechart/table.js';
import type { Workflow } from '../../src/engine/model/index.js';

/** Nesting, parallel states in parallel states, shallow and deep history, reenter, root and cross-region transitions. */
const CHART: PlainChart = {
  on: { ROOT: { target: 'idle', reenter: true } },
  states: {
    idle: {
      on: {
        GO: '#work',
        DEEP: '#work.hd',
        SHALLOW: '#work.hs',
        BOTH: { target: ['#work.p.r1.x2', '#work.p.r2.y2'] },
        REGION: '#work.p.r1.x2',
        INNER: '#work.p.r1.x3.q1.z2',
      },
    },
    work: {
      initial: 'p',
      on: { PAUSE: '#idle', RESET: { target: '#work', reenter: true }, SELF: '#work' },
      states: {
        hs: { history: 'shallow' },
        hd: { history: 'deep', target: 'p.r2.y2' },
        p: {
          type: 'parallel',
          states: {
            r1: {
              initial: 'x1',
              states: {
                x1: { on: { NEXT: 'x2', DOWN: 'x3' } },
                x2: { on: { NEXT: 'x1', DOWN: '#work.p.r1.x3.q2.w2' } },
                x3: {
                  type: 'parallel',
                  on: { NEXT: 'x1' },
                  states: {
                    q1: { initial: 'z1', states: { z1: { on: { NEXT: 'z2' } }, z2: { on: { NEXT: 'z1' } } } },
                    q2: { initial: 'w1', states: { w1: { on: { NEXT: 'w2', FLIP: '#work.p.r1.x3.q1.z2' } }, w2: {} } },
                  },
                },
              },
            },
            r2: {
              initial: 'y1',
              states: {
                y1: { on: { NEXT: 'y2', UP: { target: '#work.p.r2', reenter: true } } },
                y2: { on: { NEXT: 'y1', JUMP: '#work.p.r1.x3.q1.z2', BACK: '#work.hs' } },
              },
            },
          },
        },
      },
    },
  },
};

const EVENTS = ['GO', 'NEXT', 'JUMP', 'FLIP', 'NEXT', 'UP', 'NEXT', 'PAUSE', 'DEEP', 'NEXT', 'PAUSE', 'SHALLOW', 'BACK', 'PAUSE', 'BOTH', 'RESET', 'SELF', 'PAUSE', 'INNER', 'NEXT', 'UP', 'ROOT', 'REGION', 'DOWN', 'NEXT', 'JUMP'];

/** Every snapshot the chart passes through on EVENTS (history records included on the way). */
function reached(wf: Workflow): ChartSnapshot[] {
  let snapshot = startChart(wf, { now: 0 }).snapshot;
  const out = [snapshot];
  for (const type of EVENTS) {
    snapshot = sendEvent(wf, snapshot, { type }, { now: 0 }).snapshot;
    out.push(snapshot);
  }
  return out;
}

function allTransitions(wf: Workflow): TransitionRow[] {
  const out: TransitionRow[] = [];
  for (const node of chartTable(wf).nodes) for (const rows of node.exact.values()) out.push(...rows);
  return out;
}

const marked = (marks: Uint8Array): number[] => [...marks.keys()].filter((i) => marks[i]);

/** Small deterministic patterns of marks: none, each node alone, all, and pseudo-random ones. */
function premarks(n: number): Uint8Array[] {
  const out = [new Uint8Array(n), new Uint8Array(n).fill(1)];
  for (let i = 0; i < n; i++) {
    const one = new Uint8Array(n);
    one[i] = 1;
    out.push(one);
  }
  let seed = 7;
  for (let k = 0; k < 30; k++) {
    const m = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      m[i] = seed % 3 === 0 ? 1 : 0;
    }
    out.push(m);
  }
  return out;
}

test('a transition plan is what the general computation gives in every configuration reached, with anything already marked', () => {
  const wf = buildChart(CHART);
  const table = chartTable(wf);
  const transitions = allTransitions(wf);
  const plans = transitions.map((t) => planOf(table, t));
  // The chart exercises both kinds: transitions to history get no plan; some plans complete parallel regions.
  assert.ok(plans.some((p) => p === null), 'a transition to a history node has no plan');
  assert.ok(plans.some((p) => p?.fillsRegions === true));
  assert.ok(plans.some((p) => p?.fillsRegions === false));
  const snapshots = reached(wf);
  assert.ok(snapshots.some((s) => s.history.length > 0), 'the events record history');
  for (const snapshot of snapshots) {
    const rs = new RunState(table, snapshot, { now: 0 });
    transitions.forEach((t, k) => {
      const plan = plans[k];
      if (!plan) return;
      const where = `${t.label} from ${rs.node(t.source).id} in [${snapshot.configuration.join(', ')}]`;
      assert.equal(plan.domain, transitionDomain(rs, t), `domain of ${where}`);
      const fresh = new Uint8Array(rs.nodes.length);
      addEntrySet(rs, t, fresh);
      assert.deepEqual([...plan.entry], marked(fresh), `entry set of ${where}`);
      if (plan.fillsRegions) return;
      // A plan that completes no regions never looks at the marks: its set adds to whatever is marked.
      for (const before of premarks(rs.nodes.length)) {
        const general = before.slice();
        addEntrySet(rs, t, general);
        const planned = before.slice();
        for (const s of plan.entry) planned[s] = 1;
        assert.deepEqual(marked(planned), marked(general), `entry set of ${where} after [${marked(before).join(', ')}]`);
      }
    });
  }
});

test('two transitions exit sets overlap exactly when the sets computed in full share a state', () => {
  const wf = buildChart(CHART);
  const table = chartTable(wf);
  const transitions = allTransitions(wf);
  let overlapping = 0;
  let apart = 0;
  for (const snapshot of reached(wf)) {
    const rs = new RunState(table, snapshot, { now: 0 });
    // The plain exit set: the domain's active descendants, and the domain when the transition re-enters its source.
    const exitSet = (t: TransitionRow): Set<number> => {
      const out = new Set<number>();
      if (!t.targets.length) return out;
      const domain = transitionDomain(rs, t);
      if (t.reenter && t.source === domain) out.add(domain);
      for (let i = 0; i < rs.nodes.length; i++) if (rs.active[i] && (domain < 0 || (i > domain && i < rs.node(domain).end))) out.add(i);
      return out;
    };
    for (const a of transitions) {
      for (const b of transitions) {
        const inFull = [...exitSet(a)].some((s) => exitSet(b).has(s));
        assert.equal(exitSetsOverlap(rs, a, b), inFull, `${a.label} from ${rs.node(a.source).id} and ${b.label} from ${rs.node(b.source).id}`);
        if (inFull) overlapping++;
        else apart++;
      }
    }
  }
  assert.ok(overlapping > 0 && apart > 0);
});

/** Freezes `value` and everything in it: a write anywhere then throws (modules run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

test('a snapshot shares what did not change with its input and never changes the input', () => {
  const wf = buildChart({
    context: { n: 0, tags: ['a'] },
    states: {
      a: {
        on: {
          PING: { actions: [{ type: 'emit', event: 'pinged' }] },
          COUNT: { actions: [{ type: 'assign', assign: { n: 'context.n + 1' } }] },
          STAY: 'a',
          GO: 'b',
        },
      },
      b: {},
    },
  });
  const s0 = deepFreeze(startChart(wf, { now: 0 }).snapshot);
  const copy = structuredClone(s0);

  const ping = sendEvent(wf, s0, { type: 'PING' }, { now: 0 });
  assert.equal(ping.transitioned, true);
  assert.equal(ping.snapshot.context, s0.context, 'no assign: the same context object');
  assert.equal(ping.snapshot.configuration, s0.configuration, 'no configuration change: the same array');
  assert.equal(ping.snapshot.entered, s0.entered);

  // A transition to its own source (not reentering) exits and enters nothing either.
  const stay = sendEvent(wf, s0, { type: 'STAY' }, { now: 0 });
  assert.equal(stay.snapshot.configuration, s0.configuration);

  const count = deepFreeze(sendEvent(wf, s0, { type: 'COUNT' }, { now: 0 }).snapshot);
  assert.notEqual(count.context, s0.context);
  assert.deepEqual(count.context, { n: 1, tags: ['a'] });
  assert.equal(count.context.tags, s0.context.tags, 'keys the assign did not write keep their values');

  // A configuration decoding changed (an id the chart no longer has, say after an edit) is written anew, as before.
  const edited = { ...s0, configuration: ['a', 'gone'], entered: [0, 0] };
  assert.deepEqual(sendEvent(wf, edited, { type: 'PING' }, { now: 0 }).snapshot.configuration, ['a']);

  const go = sendEvent(wf, count, { type: 'GO' }, { now: 0 });
  assert.deepEqual(go.snapshot.configuration, ['b']);
  assert.equal(go.snapshot.context, count.context);
  assert.deepEqual(s0, copy, 'the input snapshot is as it was');
});

test('operations interleaved on runs of one chart give what each run gives alone (reused buffers carry nothing over)', () => {
  const sequences = [EVENTS, [...EVENTS].reverse(), EVENTS.filter((_, i) => i % 2 === 0)];
  const alone = sequences.map((events) => {
    const wf = buildChart(CHART);
    let s = startChart(wf, { now: 0 }).snapshot;
    return events.map((type) => (s = sendEvent(wf, s, { type }, { now: 0 }).snapshot));
  });
  const shared = buildChart(CHART);
  const current = sequences.map(() => startChart(shared, { now: 0 }).snapshot);
  for (let step = 0; step < EVENTS.length; step++) {
    sequences.forEach((events, k) => {
      const type = events[step];
      if (type === undefined) return;
      // A snapshot read back from JSON (as from run.json) steps the same as the one in memory.
      const input = step % 3 === 0 ? (JSON.parse(JSON.stringify(current[k])) as ChartSnapshot) : (current[k] as ChartSnapshot);
      current[k] = sendEvent(shared, input, { type }, { now: 0 }).snapshot;
      assert.deepEqual(current[k], alone[k]?.[step], `run ${k}, step ${step} (${type})`);
    });
  }
});
