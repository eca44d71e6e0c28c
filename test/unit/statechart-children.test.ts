// Child statecharts (`invoke: {src: statechart:<id>[@version]}`) in the
// interpreter: started as machines of their own, events to the innermost
// child first, timers across the tree, onDone/onError, cancellation on exit,
// the depth limit, and snapshots that survive JSON (run.json) unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorkflowText } from '../../src/engine/formats/index.js';
import type { Workflow } from '../../src/engine/model/index.js';
import {
  completeInvocation,
  fireDueTimers,
  nextDue,
  sendEvent,
  startChart,
  stateValue,
  type ChartEffect,
  type ChartResult,
  type ChartSnapshot,
  type ChildCharts,
  type StepOptions,
} from '../../src/engine/statechart/index.js';

function load(text: string): Workflow {
  const r = loadWorkflowText(text);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(errors, [], 'the chart loads');
  return r.workflow as Workflow;
}

/** Child charts by `id` (and `id@version`) from texts; without a version the last registered wins. */
function children(texts: string[], maxDepth?: number): ChildCharts {
  const byRef = new Map<string, { workflow: Workflow; text: string }>();
  for (const text of texts) {
    const workflow = load(text);
    byRef.set(workflow.id, { workflow, text });
    if (workflow.version !== undefined) byRef.set(`${workflow.id}@${workflow.version}`, { workflow, text });
  }
  return {
    resolve(src) {
      const found = byRef.get(src.slice('statechart:'.length));
      return found ?? { problem: `\`${src}\` names no chart: searched the test's map` };
    },
    load: (text) => {
      for (const v of byRef.values()) if (v.text === text) return v.workflow;
      return undefined;
    },
    ...(maxDepth === undefined ? {} : { maxDepth }),
  };
}

const CHILD = `
statechart:
  id: review
  version: "1.0.0"
  initial: reading
  context: {ticket: none, verdict: pending, seen: 0}
  meta: {failure_states: [rejected, timed_out]}
  states:
    reading:
      entry:
        - {type: assign, context_updates: {seen: "context.seen + 1"}}
        - {type: emit, event: started, data: {ticket: context.ticket}}
      after: {1000: timed_out}
      on: {READ: commenting}
    commenting:
      on:
        APPROVE: {target: approved, actions: [{type: assign, context_updates: {verdict: "'approved'"}}]}
        REJECT: rejected
        PING: {actions: [{type: assign, context_updates: {seen: "context.seen + 10"}}]}
    approved: {type: final}
    rejected: {type: final}
    timed_out: {type: final}
`;

const PARENT = `
statechart:
  id: release
  initial: planning
  context: {ticket: T-1, review: null, why: null}
  states:
    planning:
      on: {PLANNED: reviewing}
    reviewing:
      invoke:
        id: rev
        src: statechart:review
        input: {ticket: context.ticket}
        onDone: {target: shipping, actions: [{type: assign, context_updates: {review: event.data.output}}]}
        onError: {target: blocked, actions: [{type: assign, context_updates: {why: event.data.error}}]}
      on:
        CANCEL: cancelled
        NUDGE: {actions: [{type: send, target: rev, event: PING}]}
    shipping: {on: {SHIPPED: shipped}}
    shipped: {type: final}
    blocked: {type: final}
    cancelled: {type: final}
`;

const parent = load(PARENT);

function opts(now = 0, more: Partial<StepOptions> = {}): StepOptions {
  return { now, children: children([CHILD]), ...more };
}

function child(s: ChartSnapshot, id = 'rev'): ChartSnapshot {
  const inv = s.invocations.find((i) => i.id === id);
  assert.ok(inv?.child, `invocation ${id} runs a child`);
  return inv.child.snapshot;
}

function flat(effects: readonly ChartEffect[], depth = 0): string[] {
  return effects.flatMap((e) => (e.type === 'child' ? flat(e.effects, depth + 1) : [`${depth}:${e.type}${'state' in e && e.type !== 'invoke-started' ? ` ${e.state}` : ''}`]));
}

function reviewing(now = 0): ChartResult {
  return sendEvent(parent, startChart(parent, opts(now)).snapshot, { type: 'PLANNED' }, opts(now));
}

test('entering the invoking state starts the child: its defaults overlaid with the input, its entry actions, its timers on the run clock', () => {
  const r = reviewing(500);
  const inv = r.snapshot.invocations[0];
  assert.equal(inv?.status, 'running');
  assert.equal(inv?.child?.id, 'review');
  assert.equal(inv?.child?.version, '1.0.0');
  assert.equal(inv?.child?.text, CHILD, 'the definition text is kept with the child');
  const c = child(r.snapshot);
  assert.deepEqual(c.configuration, ['reading']);
  assert.deepEqual(c.context, { ticket: 'T-1', verdict: 'pending', seen: 1 });
  assert.deepEqual(c.timers, [{ state: 'reading', transition: 0, due: 1500 }]);
  assert.equal(nextDue(r.snapshot), 1500, "the parent's next due time includes the child's timers");
  // The child's effects are journaled inside one `child` effect, its emit included.
  const childEffect = r.effects.find((e) => e.type === 'child');
  assert.ok(childEffect && childEffect.type === 'child');
  assert.ok(childEffect.effects.some((e) => e.type === 'emit' && e.event === 'started' && e.data?.ticket === 'T-1'));
});

test('an event goes to the innermost running child first; one the child does not handle goes to the parent', () => {
  let r = reviewing();
  r = sendEvent(parent, r.snapshot, { type: 'READ' }, opts());
  assert.equal(r.transitioned, true);
  assert.equal(stateValue(parent, r.snapshot), 'reviewing');
  assert.deepEqual(child(r.snapshot).configuration, ['commenting']);
  const nobody = sendEvent(parent, r.snapshot, { type: 'NOBODY' }, opts());
  assert.equal(nobody.transitioned, false);
  assert.equal(nobody.snapshot, r.snapshot);
  // CANCEL is the parent's: it exits the invoking state, which cancels the child (journaled).
  const cancelled = sendEvent(parent, r.snapshot, { type: 'CANCEL' }, opts());
  assert.equal(stateValue(parent, cancelled.snapshot), 'cancelled');
  assert.deepEqual(cancelled.snapshot.invocations, []);
  assert.ok(cancelled.effects.some((e) => e.type === 'invoke-cancelled' && e.id === 'rev'));
});

test('cancelling a child on exit cancels its timers and its own children, journaled', () => {
  const r = reviewing();
  const cancelled = sendEvent(parent, r.snapshot, { type: 'CANCEL' }, opts());
  assert.deepEqual(flat(cancelled.effects).filter((e) => /^\d:[a-z]+-cancelled/.test(e)), ['1:timer-cancelled reading', '0:invoke-cancelled reviewing']);
  assert.equal(nextDue(cancelled.snapshot), undefined);
  assert.equal(fireDueTimers(parent, cancelled.snapshot, 10_000, { children: children([CHILD]) }).transitioned, false);
});

test("the child reaching its root final state fires the parent's onDone with event.data.output = the child's context", () => {
  let r = reviewing();
  r = sendEvent(parent, r.snapshot, { type: 'READ' }, opts());
  r = sendEvent(parent, r.snapshot, { type: 'APPROVE' }, opts());
  assert.equal(stateValue(parent, r.snapshot), 'shipping');
  assert.deepEqual(r.snapshot.context.review, { ticket: 'T-1', verdict: 'approved', seen: 1 });
  assert.ok(r.effects.some((e) => e.type === 'invoke-completed' && e.id === 'rev' && e.ok));
});

test('a child ending in one of its meta.failure_states fires onError with data saying why', () => {
  let r = reviewing();
  r = sendEvent(parent, r.snapshot, { type: 'READ' }, opts());
  r = sendEvent(parent, r.snapshot, { type: 'REJECT' }, opts());
  assert.equal(stateValue(parent, r.snapshot), 'blocked');
  assert.match(String(r.snapshot.context.why), /child statechart review ended in "rejected", one of its meta.failure_states/);
});

test("the child's timers fire with the parent's, in due order, and a timeout that ends the child moves the parent", () => {
  const r = reviewing(0);
  assert.equal(fireDueTimers(parent, r.snapshot, 999, { children: children([CHILD]) }).transitioned, false);
  const fired = fireDueTimers(parent, r.snapshot, 1000, { children: children([CHILD]) });
  assert.equal(fired.transitioned, true);
  assert.equal(stateValue(parent, fired.snapshot), 'blocked', 'timed_out is a failure state of the child');
  assert.match(String(fired.snapshot.context.why), /ended in "timed_out"/);
});

test('a send action with to: <invoke-id> delivers the event to that child', () => {
  let r = reviewing();
  r = sendEvent(parent, r.snapshot, { type: 'READ' }, opts());
  r = sendEvent(parent, r.snapshot, { type: 'NUDGE' }, opts());
  assert.equal(child(r.snapshot).context.seen, 11);
});

test('a child that loops without rest fails, and the parent gets onError', () => {
  const looping = `
statechart:
  id: review
  initial: a
  context: {n: 0}
  states:
    a: {always: {target: b, actions: [{type: assign, context_updates: {n: "context.n + 1"}}]}}
    b: {always: a}
`;
  const r = sendEvent(parent, startChart(parent, opts()).snapshot, { type: 'PLANNED' }, { now: 0, children: children([looping]), maxMicrosteps: 50 });
  assert.equal(stateValue(parent, r.snapshot), 'blocked');
  assert.match(String(r.snapshot.context.why), /child statechart review failed: more than 50 microsteps/);
});

test('a src that resolves to nothing fails the invocation with the resolver\'s message', () => {
  const r = sendEvent(parent, startChart(parent, opts()).snapshot, { type: 'PLANNED' }, { now: 0, children: children([]) });
  assert.equal(stateValue(parent, r.snapshot), 'blocked');
  assert.match(String(r.snapshot.context.why), /`statechart:review` names no chart: searched the test's map/);
});

test('a chart that invokes itself stops at the depth limit with a clear error instead of recursing forever', () => {
  const selfish = `
statechart:
  id: review
  initial: again
  context: {why: null}
  states:
    again:
      invoke:
        id: rev
        src: statechart:review
        onError: {target: stopped, actions: [{type: assign, context_updates: {why: event.data.error}}]}
    stopped: {type: final}
`;
  const wf = load(selfish);
  const r = startChart(wf, { now: 0, children: children([selfish], 3) });
  // Three machines below the run start; the fourth is refused: the third's onError takes the error.
  let s: ChartSnapshot = r.snapshot;
  const levels: string[] = [];
  for (;;) {
    const inv = s.invocations[0];
    if (!inv?.child) break;
    s = inv.child.snapshot;
    levels.push(`${s.status} ${String(s.context.why)}`);
  }
  assert.deepEqual(levels, [
    'running null',
    'running null',
    'done statechart:review would run 4 machines deep (the limit is 3): the charts invoke each other without end; the child is not started',
  ]);
  assert.equal(r.snapshot.status, 'running');
});

test('run done|fail on a statechart child is refused; an agent task inside a child is completed there', () => {
  const r = reviewing();
  const refused = completeInvocation(parent, r.snapshot, { id: 'rev', ok: true }, opts());
  assert.equal(refused.snapshot, r.snapshot);
  assert.match(refused.error ?? '', /invocation "rev" runs the child statechart review: it ends when the child reaches its final state/);

  const asking = `
statechart:
  id: review
  initial: asking
  context: {answer: null}
  states:
    asking:
      invoke: {id: expert, src: "agent:expert", onDone: {target: answered, actions: [{type: assign, context_updates: {answer: event.data.answer}}]}}
    answered: {type: final}
`;
  const o = { now: 0, children: children([asking]) };
  const started = sendEvent(parent, startChart(parent, o).snapshot, { type: 'PLANNED' }, o);
  assert.equal(child(started.snapshot).invocations[0]?.id, 'expert');
  const done = completeInvocation(parent, started.snapshot, { id: 'expert', ok: true, data: { answer: 42 } }, o);
  assert.equal(stateValue(parent, done.snapshot), 'shipping');
  assert.deepEqual(done.snapshot.context.review, { answer: 42, ticket: 'T-1' }, "the child's context: its defaults, the input, the answer");
});

test('operations on a snapshot read back from JSON (run.json) give the same snapshots as on the live ones', () => {
  const steps: ((s: ChartSnapshot) => ChartResult)[] = [
    (s) => sendEvent(parent, s, { type: 'PLANNED' }, opts(0)),
    (s) => sendEvent(parent, s, { type: 'READ' }, opts(10)),
    (s) => sendEvent(parent, s, { type: 'NUDGE' }, opts(20)),
    (s) => sendEvent(parent, s, { type: 'APPROVE' }, opts(30)),
    (s) => sendEvent(parent, s, { type: 'SHIPPED' }, opts(40)),
  ];
  let direct = startChart(parent, opts(0)).snapshot;
  let stored = JSON.parse(JSON.stringify(direct)) as ChartSnapshot;
  for (const step of steps) {
    const before = JSON.stringify(direct);
    const next = step(direct).snapshot;
    assert.equal(JSON.stringify(direct), before, 'the input snapshot is unchanged');
    stored = JSON.parse(JSON.stringify(step(stored).snapshot)) as ChartSnapshot;
    assert.deepEqual(stored, JSON.parse(JSON.stringify(next)));
    direct = next;
  }
  assert.equal(direct.status, 'done');
});

test('without options.children a statechart: invocation is handed out as before', () => {
  const r = sendEvent(parent, startChart(parent, { now: 0 }).snapshot, { type: 'PLANNED' }, { now: 0 });
  assert.equal(r.snapshot.invocations[0]?.child, undefined);
  const done = completeInvocation(parent, r.snapshot, { id: 'rev', ok: true, data: { output: { ok: 1 } } }, { now: 0 });
  assert.equal(stateValue(parent, done.snapshot), 'shipping');
});

test('a child of a child: events reach the innermost first, and exiting the outer invoking state cancels the whole tree', () => {
  const middle = `
statechart:
  id: review
  initial: outer
  states:
    outer:
      invoke: {id: inner, src: "statechart:leaf"}
      after: {5000: gone}
    gone: {type: final}
`;
  const leaf = CHILD.replace('id: review', 'id: leaf');
  const o = { now: 0, children: children([middle, leaf]) };
  let r = sendEvent(parent, startChart(parent, o).snapshot, { type: 'PLANNED' }, o);
  r = sendEvent(parent, r.snapshot, { type: 'READ' }, o);
  assert.deepEqual(child(child(r.snapshot), 'inner').configuration, ['commenting']);
  const cancelled = sendEvent(parent, r.snapshot, { type: 'CANCEL' }, o);
  assert.deepEqual(flat(cancelled.effects).filter((e) => /^\d:[a-z]+-cancelled/.test(e)), [
    '1:timer-cancelled outer',
    '1:invoke-cancelled outer',
    '0:invoke-cancelled reviewing',
  ]);
});
