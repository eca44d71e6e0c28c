// The interpreter's surface (src/engine/statechart/index.ts): pure
// operations on a JSON snapshot, what they return, the effects they journal,
// invocations, and refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildChart, type PlainChart } from './helpers/chart-builder.js';
import { trace } from './helpers/chart-scenario.js';
import {
  completeInvocation,
  configurationPaths,
  fireDueTimers,
  nextDue,
  sendEvent,
  startChart,
  stateValue,
  type ChartEffect,
  type ChartResult,
  type ChartSnapshot,
} from '../../src/engine/statechart/index.js';

const at = { now: 1_000 };

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const review: PlainChart = {
  id: 'review',
  context: { trace: '', attempts: 0 },
  initial: 'work',
  states: {
    work: {
      initial: 'draft',
      states: {
        h: { type: 'history', history: 'deep' },
        draft: { on: { SUBMIT: 'checks' } },
        checks: {
          type: 'parallel',
          states: {
            tests: { initial: 'run', states: { run: { after: { 500: 'ok' } }, ok: { type: 'final' } } },
            lint: { initial: 'run', states: { run: { on: { LINTED: 'ok' } }, ok: { type: 'final' } } },
          },
          onDone: 'approved',
        },
        approved: { type: 'final' },
      },
      on: { PAUSE: '#paused' },
      onDone: 'shipped',
    },
    paused: { on: { RESUME: 'work.h' } },
    shipped: { type: 'final' },
  },
};

test('an event no active state handles changes nothing: same snapshot, transitioned false, no error', () => {
  const wf = buildChart(review);
  const started = startChart(wf, at);
  const result = sendEvent(wf, started.snapshot, { type: 'NOBODY' }, at);
  assert.equal(result.snapshot, started.snapshot);
  assert.equal(result.transitioned, false);
  assert.equal(result.error, undefined);
  assert.deepEqual(result.effects, []);
});

test('operations never change the snapshot they are given, and a snapshot survives JSON as run.json stores it', () => {
  const wf = buildChart(review);
  const steps: ((s: ChartSnapshot) => ChartResult)[] = [
    (s) => sendEvent(wf, s, { type: 'SUBMIT' }, at),
    (s) => sendEvent(wf, s, { type: 'PAUSE' }, at),
    (s) => sendEvent(wf, s, { type: 'RESUME' }, { now: 1_200 }),
    (s) => fireDueTimers(wf, s, 1_800),
    (s) => sendEvent(wf, s, { type: 'LINTED' }, { now: 1_900 }),
  ];
  let direct = startChart(wf, at).snapshot;
  let stored = JSON.parse(JSON.stringify(direct)) as ChartSnapshot;
  for (const step of steps) {
    const before = JSON.stringify(direct);
    const next = step(deepFreeze(direct)).snapshot;
    assert.equal(JSON.stringify(direct), before, 'the input snapshot is unchanged');
    stored = JSON.parse(JSON.stringify(step(stored).snapshot)) as ChartSnapshot;
    assert.deepEqual(stored, JSON.parse(JSON.stringify(next)));
    direct = next;
  }
  assert.equal(direct.status, 'done');
  assert.deepEqual(stateValue(wf, direct), 'shipped');
});

test('the snapshot: configuration in document order, history records, timers with their due time', () => {
  const wf = buildChart(review);
  let r = startChart(wf, at);
  r = sendEvent(wf, r.snapshot, { type: 'SUBMIT' }, at);
  assert.deepEqual(r.snapshot.configuration, ['work', 'work.checks', 'work.checks.tests', 'work.checks.tests.run', 'work.checks.lint', 'work.checks.lint.run']);
  assert.deepEqual(configurationPaths(wf, r.snapshot), ['work.checks.tests.run', 'work.checks.lint.run']);
  assert.deepEqual(stateValue(wf, r.snapshot), { work: { checks: { tests: 'run', lint: 'run' } } });
  assert.deepEqual(r.snapshot.timers, [{ state: 'work.checks.tests.run', transition: 0, due: 1_500 }]);
  assert.equal(nextDue(r.snapshot), 1_500);
  r = sendEvent(wf, r.snapshot, { type: 'PAUSE' }, at);
  assert.deepEqual(r.snapshot.timers, [], 'exiting the state cancelled its timer');
  assert.deepEqual(r.snapshot.history, [{ history: 'work.h', states: ['work.checks.tests.run', 'work.checks.lint.run'] }]);
  assert.equal(nextDue(r.snapshot), undefined);
  assert.deepEqual(fireDueTimers(wf, r.snapshot, 10_000).transitioned, false);
});

test('effects journal what happened, in order', () => {
  const wf = buildChart({
    id: 'fx',
    context: { trace: '', who: 'ann' },
    actions: { greet: { type: 'log', message: "'hello ' + context.who", data: { literal: 'as written', n: 'len(context.who)' } } },
    states: {
      a: {
        exit: [trace('-a')],
        on: {
          GO: {
            target: 'b',
            actions: [
              'greet',
              { type: 'emit', event: 'progress', data: { step: 'event.data.step' } },
              { type: 'send', to: 'child', event: 'PING' },
              { type: 'invoke', handler: 'notify', params: { to: 'context.who' } },
              { type: 'raise', event: 'NEXT' },
            ],
          },
        },
      },
      b: { entry: [trace('+b')], on: { NEXT: { target: 'c', guard: "context.trace == '-a+b'" } } },
      c: {},
    },
  });
  const r = sendEvent(wf, startChart(wf, at).snapshot, { type: 'GO', data: { step: 3 } }, at);
  const kinds = r.effects.map((e) => (e.type === 'enter' || e.type === 'exit' ? `${e.type} ${e.state}` : e.type));
  assert.deepEqual(kinds, ['transition', 'exit a', 'assign', 'log', 'emit', 'send', 'call', 'raise', 'enter b', 'assign', 'transition', 'exit b', 'enter c']);
  const find = <K extends ChartEffect['type']>(type: K): Extract<ChartEffect, { type: K }> => r.effects.find((e) => e.type === type) as Extract<ChartEffect, { type: K }>;
  assert.deepEqual(find('log'), { type: 'log', message: 'hello ann', data: { literal: 'as written', n: 3 } });
  assert.deepEqual(find('emit'), { type: 'emit', event: 'progress', data: { step: 3 } });
  assert.deepEqual(find('send'), { type: 'send', to: 'child', event: 'PING' });
  assert.deepEqual(find('call'), { type: 'call', handler: 'notify', params: { to: 'ann' } });
  assert.deepEqual(find('transition'), { type: 'transition', source: 'a', index: 0, trigger: 'GO', event: 'GO', targets: ['b'] });
  assert.deepEqual(stateValue(wf, r.snapshot), 'c');
});

test('actions that cannot run are journaled and skipped; an assign with a failing update writes nothing', () => {
  const wf = buildChart({
    context: { a: 1, b: 2 },
    states: {
      s: {
        on: {
          GO: { actions: ['nowhere', { type: 'assign', assign: { a: '10', b: "context.a - 'x'" } }, { type: 'assign', assign: { b: 'context.b + 1' } }] },
        },
      },
    },
  });
  const r = sendEvent(wf, startChart(wf, at).snapshot, { type: 'GO' }, at);
  assert.deepEqual(r.snapshot.context, { a: 1, b: 3 });
  const errors = r.effects.filter((e) => e.type === 'action-error');
  assert.equal(errors.length, 2);
  assert.match(errors[0]?.type === 'action-error' ? errors[0].message : '', /no action named "nowhere"/);
  assert.match(errors[1]?.type === 'action-error' ? errors[1].message : '', /^b = context\.a - 'x': /);
});

test('a delay expression that gives no number is journaled and schedules nothing', () => {
  const wf = buildChart({ context: { wait: 'soon' }, states: { a: { after: { 'context.wait': 'b' } }, b: {} } });
  const r = startChart(wf, at);
  assert.deepEqual(r.snapshot.timers, []);
  const error = r.effects.find((e) => e.type === 'action-error');
  assert.ok(error && error.type === 'action-error' && /not a number of milliseconds/.test(error.message));
});

test('startChart overlays the given context on the chart’s defaults', () => {
  const wf = buildChart({ context: { a: 1, b: 2 }, states: { s: {} } });
  assert.deepEqual(startChart(wf, { ...at, context: { b: 3, c: 4 } }).snapshot.context, { a: 1, b: 3, c: 4 });
});

test('a run that is done or failed refuses events with a message that says so; so does the wildcard as an event', () => {
  const wf = buildChart({ states: { a: { on: { END: 'z' } }, z: { type: 'final' } } });
  const started = startChart(wf, at);
  const wildcard = sendEvent(wf, started.snapshot, { type: '*' }, at);
  assert.match(wildcard.error ?? '', /wildcard/);
  assert.equal(wildcard.snapshot, started.snapshot);
  const done = sendEvent(wf, started.snapshot, { type: 'END' }, at);
  assert.equal(done.snapshot.status, 'done');
  assert.deepEqual(done.snapshot.output, {});
  assert.ok(done.effects.some((e) => e.type === 'run-done'));
  const again = sendEvent(wf, done.snapshot, { type: 'END' }, at);
  assert.match(again.error ?? '', /the run is done/);
  const failed: ChartSnapshot = { ...started.snapshot, status: 'failed', error: 'a loop' };
  assert.match(sendEvent(wf, failed, { type: 'END' }, at).error ?? '', /the run failed: a loop/);
  assert.match(completeInvocation(wf, failed, { id: 'x', ok: true }, at).error ?? '', /the run failed/);
});

const invoking: PlainChart = {
  id: 'inv',
  context: { trace: '', topic: 'auth', result: null },
  states: {
    idle: { on: { START: 'asking' } },
    asking: {
      invoke: [
        {
          id: 'reviewer',
          src: 'agent:reviewer',
          input: { topic: 'context.topic', note: 'be brief' },
          onDone: { target: 'done', actions: [{ type: 'assign', assign: { result: 'event.data.verdict' } }] },
          onError: { target: 'idle', actions: [trace('error')] },
        },
      ],
      on: { CANCEL: 'idle' },
    },
    done: {},
  },
};

test('agent invocations: started on entry with the input evaluated, completed with done(), onDone sees event.data', () => {
  const wf = buildChart(invoking);
  let r = sendEvent(wf, startChart(wf, at).snapshot, { type: 'START' }, at);
  assert.deepEqual(r.snapshot.invocations, [{ id: 'reviewer', state: 'asking', src: 'agent:reviewer', status: 'running', input: { topic: 'auth', note: 'be brief' } }]);
  assert.ok(r.effects.some((e) => e.type === 'invoke-started' && e.id === 'reviewer'));
  r = completeInvocation(wf, r.snapshot, { id: 'reviewer', ok: true, data: { verdict: 'approve' } }, at);
  assert.equal(r.transitioned, true);
  assert.deepEqual(stateValue(wf, r.snapshot), 'done');
  assert.equal(r.snapshot.context.result, 'approve');
  assert.deepEqual(r.snapshot.invocations, [], 'exiting the state forgets its invocations');
  assert.deepEqual(
    r.effects.filter((e) => e.type.startsWith('invoke')).map((e) => e.type),
    ['invoke-completed'],
    'a finished invocation is not cancelled on exit',
  );
});

test('agent invocations: fail() goes to onError; an invocation that is not running cannot be completed', () => {
  const wf = buildChart(invoking);
  const asking = sendEvent(wf, startChart(wf, at).snapshot, { type: 'START' }, at).snapshot;
  const failed = completeInvocation(wf, asking, { id: 'reviewer', ok: false, data: { reason: 'timeout' } }, at);
  assert.deepEqual(stateValue(wf, failed.snapshot), 'idle');
  assert.equal(failed.snapshot.context.trace, 'error');
  const unknown = completeInvocation(wf, asking, { id: 'someone', ok: true }, at);
  assert.match(unknown.error ?? '', /no running invocation "someone" \(running: reviewer\)/);
  assert.equal(unknown.snapshot, asking);
  const twice = completeInvocation(wf, failed.snapshot, { id: 'reviewer', ok: true }, at);
  assert.match(twice.error ?? '', /none is running/);
});

test('agent invocations: exiting the state cancels a running invocation', () => {
  const wf = buildChart(invoking);
  const asking = sendEvent(wf, startChart(wf, at).snapshot, { type: 'START' }, at).snapshot;
  const cancelled = sendEvent(wf, asking, { type: 'CANCEL' }, at);
  assert.deepEqual(cancelled.snapshot.invocations, []);
  assert.ok(cancelled.effects.some((e) => e.type === 'invoke-cancelled' && e.id === 'reviewer' && e.state === 'asking'));
});

test('an invocation error no active state handles fails the run (XState)', () => {
  const wf = buildChart({ states: { a: { invoke: [{ id: 'job', src: 'agent:worker' }] } } });
  const started = startChart(wf, at).snapshot;
  const r = completeInvocation(wf, started, { id: 'job', ok: false }, at);
  assert.equal(r.snapshot.status, 'failed');
  assert.match(r.error ?? '', /invocation "job" failed and no active state handles its error/);
  assert.deepEqual(r.snapshot.configuration, started.configuration);
});

test('a state entered again while still active does not hand its task out twice', () => {
  // x goes to its parent's history, whose default is x itself: nothing is exited and x is "entered" again (XState).
  const wf = buildChart({
    states: { a: { initial: 'x', states: { h: { type: 'history' }, x: { invoke: [{ id: 'task', src: 'agent:worker' }], on: { AGAIN: 'h' } } } } },
  });
  const started = startChart(wf, at);
  const again = sendEvent(wf, started.snapshot, { type: 'AGAIN' }, at);
  assert.ok(again.effects.some((e) => e.type === 'enter' && e.state === 'a.x'), 'a.x is entered again');
  assert.ok(!again.effects.some((e) => e.type === 'exit'), 'nothing is exited');
  assert.deepEqual(again.snapshot.invocations, started.snapshot.invocations);
  assert.equal(again.effects.filter((e) => e.type.startsWith('invoke')).length, 0);
});
