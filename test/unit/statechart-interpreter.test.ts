// The statechart interpreter's semantics, scenario by scenario (docs/statecharts.md;
// XState v5 where it is silent). Each
// scenario asserts the configuration and the trace of actions after every
// step, and that XState v5 agrees (helpers/chart-scenario.ts), except where
// docs/compat.md lists a difference (marked xstate: false, with the reason).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runScenario, trace, type Expect, type Scenario } from './helpers/chart-scenario.js';
import type { PlainState } from './helpers/chart-builder.js';

const T = { trace: '' };
/** A state whose entry and exit append `+key` / `-key` to the trace. */
const traced = (key: string, state: PlainState = {}): PlainState => ({ ...state, entry: [trace(`+${key}`), ...(state.entry ?? [])], exit: [trace(`-${key}`), ...(state.exit ?? [])] });

/** A chart whose GO leads to `steps` eventless microsteps in a row. */
function counting(steps: number, expect: Expect): Scenario {
  return {
    chart: {
      context: { n: 0 },
      states: {
        a: { on: { GO: 'b' } },
        b: { always: { guard: `context.n < ${steps}`, actions: [{ type: 'assign', assign: { n: 'context.n + 1' } }] } },
      },
    },
    start: { value: 'a' },
    steps: [{ send: 'GO', expect }],
  };
}

const scenarios: Record<string, Scenario> = {
  'exit innermost first, then the transition actions, then entry outermost first': {
    chart: {
      context: T,
      states: {
        a: traced('a', { initial: 'a1', states: { a1: traced('a1', { on: { GO: { target: 'b.b2', actions: [trace('!')] } } }) } }),
        b: traced('b', { initial: 'b1', states: { b1: traced('b1'), b2: traced('b2') } }),
      },
    },
    start: { value: { a: 'a1' }, trace: '+a+a1' },
    steps: [{ send: 'GO', expect: { value: { b: 'b2' }, trace: '+a+a1-a1-a!+b+b2' } }],
  },
  'a self transition does not exit its source; with reenter it does': {
    chart: {
      context: T,
      states: {
        p: traced('p', {
          initial: 'x',
          states: { x: traced('x', { on: { NEXT: 'y' } }), y: traced('y') },
          on: { SELF: 'p', AGAIN: { target: 'p', reenter: true } },
        }),
      },
    },
    start: { value: { p: 'x' }, trace: '+p+x' },
    steps: [
      { send: 'NEXT', expect: { value: { p: 'y' }, trace: '+p+x-x+y' } },
      // The children go back to the initial state; p itself stays.
      { send: 'SELF', expect: { value: { p: 'x' }, trace: '+p+x-x+y-y+x' } },
      { send: 'AGAIN', expect: { value: { p: 'x' }, trace: '+p+x-x+y-y+x-x-p+p+x' } },
    ],
  },
  'a target that is an ancestor of the source is exited and entered again (XState), reenter or not': {
    chart: { context: T, states: { a: traced('a', { initial: 'b', states: { b: traced('b', { on: { UP: 'a' } }) } }) } },
    start: { trace: '+a+b' },
    steps: [{ send: 'UP', expect: { value: { a: 'b' }, trace: '+a+b-b-a+a+b' } }],
  },
  'the innermost state that handles an event wins; exact names before wildcards': {
    chart: {
      context: T,
      states: {
        a: {
          initial: 'b',
          on: { E: { actions: [trace('outer')] }, F: { actions: [trace('outer-F')] } },
          states: { b: { on: { '*': { actions: [trace('*')] }, E: { actions: [trace('E')] } } } },
        },
      },
    },
    start: { value: { a: 'b' } },
    steps: [
      { send: 'E', expect: { trace: 'E' } },
      // The wildcard of the inner state catches F before the outer state's exact F.
      { send: 'F', expect: { trace: 'E*' } },
    ],
  },
  'guarded candidates are tried in order; a failing guard passes the event up': {
    chart: {
      context: { trace: '', n: 2 },
      states: {
        a: {
          initial: 'b',
          on: { E: { target: 'z' } },
          states: {
            b: {
              on: {
                E: [
                  { guard: 'context.n > 5', target: 'x' },
                  { guard: 'context.n > 1', target: 'y' },
                ],
                F: { guard: 'context.n > 5', target: 'x' },
              },
            },
            x: {},
            y: {},
          },
        },
        z: {},
      },
    },
    start: { value: { a: 'b' } },
    steps: [
      { send: 'F', expect: { value: { a: 'b' } } },
      { send: 'E', expect: { value: { a: 'y' } } },
    ],
  },
  'parallel regions: each takes its transition, in document order; the parallel state only if no region did': {
    chart: {
      context: T,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          on: { E: { actions: [trace('p')] }, F: { actions: [trace('pF')] } },
          states: {
            r1: { initial: 'a', states: { a: { on: { E: { target: 'b', actions: [trace('1')] } } }, b: {} } },
            r2: { initial: 'a', states: { a: { on: { E: { target: 'b', actions: [trace('2')] } } }, b: {} } },
          },
        },
      },
    },
    start: { value: { p: { r1: 'a', r2: 'a' } } },
    steps: [
      { send: 'E', expect: { value: { p: { r1: 'b', r2: 'b' } }, trace: '12' } },
      { send: 'E', expect: { trace: '12p' } },
      { send: 'F', expect: { trace: '12ppF' } },
    ],
  },
  'conflicting transitions: the first region to leave the parallel state wins': {
    chart: {
      context: T,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: {
            r1: { initial: 'a', states: { a: { on: { GO: { target: 'x', actions: [trace('1')] } } } } },
            r2: { initial: 'a', states: { a: { on: { GO: { target: 'y', actions: [trace('2')] } } } } },
          },
        },
        x: {},
        y: {},
      },
    },
    start: {},
    steps: [{ send: 'GO', expect: { value: 'x', trace: '1' } }],
  },
  'eventless transitions run after each microstep, raised events after them, in order': {
    chart: {
      context: T,
      states: {
        a: { on: { GO: { target: 'b', actions: [{ type: 'raise', event: 'R1' }, { type: 'raise', event: 'R2' }] } } },
        b: { entry: [trace('+b')], always: { target: 'c', actions: [trace('always')] } },
        c: { on: { R1: { target: 'd', actions: [trace('R1')] } } },
        d: { on: { R2: { target: 'e', actions: [trace('R2')] } } },
        e: {},
      },
    },
    start: { value: 'a' },
    steps: [{ send: 'GO', expect: { value: 'e', trace: '+balwaysR1R2' } }],
  },
  'an eventless transition that changes nothing is not looked for again until the next event (XState)': {
    chart: {
      context: { trace: '', n: 0 },
      states: {
        a: {
          always: [{ guard: 'context.n == 0' }],
          on: { GO: { actions: [{ type: 'assign', assign: { n: 'context.n + 1' } }] } },
        },
      },
    },
    start: { status: 'running', value: 'a' },
    steps: [{ send: 'GO', expect: { status: 'running', context: { trace: '', n: 1 } } }],
  },
  'an eventless loop fails the run after the limit, keeping the configuration and context from before the event': {
    chart: {
      context: { trace: '', n: 0 },
      states: {
        a: { on: { GO: { target: 'b', actions: [trace('go')] } } },
        b: { always: { guard: 'context.n >= 0', actions: [{ type: 'assign', assign: { n: 'context.n + 1' } }] } },
      },
    },
    start: { value: 'a' },
    steps: [{ send: 'GO', expect: { status: 'failed', value: 'a', context: { trace: '', n: 0 } } }],
  },
  'the limit is 1,000 rounds counted as XState counts them: 999 eventless microsteps pass': counting(999, { status: 'running', context: { n: 999 } }),
  'the limit is 1,000 rounds counted as XState counts them: 1,000 eventless microsteps fail': counting(1000, { status: 'failed', context: { n: 0 } }),
  'a start that loops fails in the initial configuration with the initial context (XState)': {
    chart: { context: { n: 0 }, states: { a: { always: { actions: [{ type: 'assign', assign: { n: 'context.n + 1' } }] } } } },
    start: { status: 'failed', value: 'a', context: { n: 0 } },
  },
  'assign evaluates every update against the context before it, then writes them all': {
    chart: {
      context: { a: 1, b: 2 },
      states: { s: { on: { SWAP: { actions: [{ type: 'assign', assign: { a: 'context.b', b: 'context.a' } }] } } } },
    },
    start: {},
    steps: [{ send: 'SWAP', expect: { context: { a: 2, b: 1 } } }],
  },
  'shallow history restores the child; deep history the atomic descendants; no record: the initial state': {
    chart: {
      context: T,
      states: {
        work: {
          initial: 'one',
          states: {
            hs: { type: 'history', history: 'shallow' },
            hd: { type: 'history', history: 'deep' },
            one: { on: { NEXT: 'two' } },
            two: { initial: 'x', states: { x: { on: { NEXT: 'y' } }, y: {} } },
          },
          on: { PAUSE: 'paused' },
        },
        paused: { on: { SHALLOW: 'work.hs', DEEP: 'work.hd' } },
      },
    },
    start: { value: { work: 'one' } },
    steps: [
      { send: 'PAUSE', expect: { value: 'paused' } },
      { send: 'DEEP', expect: { value: { work: 'one' } } },
      { send: 'NEXT', expect: { value: { work: { two: 'x' } } } },
      { send: 'NEXT', expect: { value: { work: { two: 'y' } } } },
      { send: 'PAUSE', expect: { value: 'paused' } },
      { send: 'SHALLOW', expect: { value: { work: { two: 'x' } } } },
      { send: 'NEXT', expect: { value: { work: { two: 'y' } } } },
      { send: 'PAUSE', expect: { value: 'paused' } },
      { send: 'DEEP', expect: { value: { work: { two: 'y' } } } },
    ],
  },
  "a history node's default target is used while it has no record": {
    chart: {
      states: {
        work: { initial: 'one', states: { h: { type: 'history', target: 'two' }, one: {}, two: {} } },
        idle: { on: { RESUME: 'work.h' } },
      },
      initial: 'idle',
    },
    start: { value: 'idle' },
    steps: [{ send: 'RESUME', expect: { value: { work: 'two' } } }],
  },
  'a history transition whose default is its own source changes nothing and does not loop (XState)': {
    // The default of h is a, the source: nothing is exited; a is "entered" again (its entry actions run) but the
    // configuration does not change, so XState stops looking for eventless transitions.
    chart: { states: { b: { initial: 'a', states: { h: { type: 'history' }, a: { entry: [{ type: 'log', message: 'a' }], always: { target: 'h' } } } } } },
    start: { status: 'running', value: { b: 'a' } },
  },
  '... but if those entry actions assign, that is a change, and it loops as in XState': {
    chart: {
      context: { n: 0 },
      states: { b: { initial: 'a', states: { h: { type: 'history' }, a: { entry: [{ type: 'assign', assign: { n: 'context.n + 1' } }], always: { target: 'h' } } } } },
    },
    start: { status: 'failed' },
  },
  'a compound state is done when it enters a final child (onDone)': {
    chart: {
      context: T,
      states: {
        job: { initial: 'run', states: { run: { on: { FINISH: 'end' } }, end: { type: 'final' } }, onDone: { target: 'next', actions: [trace('done')] } },
        next: {},
      },
    },
    start: { value: { job: 'run' } },
    steps: [{ send: 'FINISH', expect: { value: 'next', trace: 'done' } }],
  },
  'a parallel state is done when every region is final (onAllDone)': {
    chart: {
      context: T,
      initial: 'checks',
      states: {
        checks: {
          type: 'parallel',
          onDone: { target: 'merged', actions: [trace('all')] },
          states: {
            build: { initial: 'run', states: { run: { on: { BUILT: 'ok' } }, ok: { type: 'final' } }, onDone: { actions: [trace('build')] } },
            lint: { initial: 'run', states: { run: { on: { LINTED: 'ok' } }, ok: { type: 'final' } } },
          },
        },
        merged: {},
      },
    },
    start: { value: { checks: { build: 'run', lint: 'run' } } },
    steps: [
      { send: 'BUILT', expect: { value: { checks: { build: 'ok', lint: 'run' } }, trace: 'build' } },
      { send: 'LINTED', expect: { value: 'merged', trace: 'buildall' } },
    ],
  },
  'a final state of the root completes the run; every active state exits, innermost first (XState)': {
    chart: {
      context: T,
      exit: [trace('-root')],
      states: { a: traced('a', { initial: 'b', states: { b: traced('b', { on: { END: '#end' } }) } }), end: traced('end', { type: 'final' }) },
    },
    start: { trace: '+a+b' },
    steps: [
      { send: 'END', expect: { status: 'done', value: 'end', trace: '+a+b-b-a+end-end-root' } },
      { send: 'END', expect: { status: 'done' } },
    ],
  },
  // A valid chart check/chart-always.ts refused before (docs/statecharts-validation.md, rule 9): each region's
  // eventless transition stays inside its region, so neither re-enters the other.
  'always: sibling regions of a parallel state each move on by their own eventless transitions': {
    chart: {
      context: T,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: {
            r1: { initial: 'a', states: { a: { always: { target: 'b', actions: [trace('1')] } }, b: { always: { target: 'e', actions: [trace('1b')] } }, e: { type: 'final' } } },
            r2: { initial: 'c', states: { c: { always: { target: 'd', actions: [trace('2')] } }, d: { type: 'final' } } },
          },
          onDone: 'done',
        },
        done: { type: 'final' },
      },
    },
    start: { status: 'done', value: 'done', trace: '121b' },
  },
  'after: scheduled on entry, cancelled on exit, fired in due order': {
    chart: {
      context: T,
      states: {
        a: { after: { 1000: { target: 'b', actions: [trace('a1000')] } }, on: { SKIP: 'c' } },
        b: { after: { 500: { target: 'c', actions: [trace('b500')] } } },
        c: { after: { 100: { target: 'a', actions: [trace('c100')] } }, on: { STOP: 'd' } },
        d: {},
      },
    },
    start: { value: 'a' },
    steps: [
      { tick: 999, expect: { value: 'a', trace: '' } },
      // 1,599 ms late: a's timer fires at 1,000; b's counts from then (due 1,500), c's from 1,500 (due 1,600),
      // and a, entered again at 1,600, waits until 2,600: where a run watched the whole time would be.
      { tick: 1600, expect: { value: 'a', trace: 'a1000b500c100' } },
      { tick: 1, expect: { value: 'b', trace: 'a1000b500c100a1000' } },
      { tick: 500, expect: { value: 'c', trace: 'a1000b500c100a1000b500' } },
      { send: 'STOP', expect: { value: 'd' } },
      { tick: 5000, expect: { value: 'd', trace: 'a1000b500c100a1000b500' } },
    ],
  },
  'after: timers due at the same time fire in the order they were scheduled; a 0 ms timer fires in the same call': {
    chart: {
      context: T,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: {
            r1: { initial: 'a', states: { a: { after: { 100: { target: 'b', actions: [trace('1')] } } }, b: { after: { 0: { actions: [trace('1z')] } } } } },
            r2: { initial: 'a', states: { a: { after: { 100: { target: 'b', actions: [trace('2')] } } }, b: {} } },
          },
        },
      },
    },
    start: {},
    steps: [{ tick: 100, expect: { value: { p: { r1: 'b', r2: 'b' } }, trace: '121z' } }],
  },
  'after: a delay given by an expression, evaluated on entry': {
    chart: {
      context: { trace: '', wait: 300 },
      states: { a: { after: { 'context.wait * 2': { target: 'b' } } }, b: {} },
    },
    start: { value: 'a' },
    steps: [
      { tick: 599, expect: { value: 'a' } },
      { tick: 1, expect: { value: 'b' } },
    ],
  },
  "eventless transitions of parallel regions run in the order their states were entered, not document order (XState)": {
    chart: {
      context: { trace: '', flag: false },
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: {
            r1: {
              initial: 'a',
              states: {
                a: { on: { MOVE: 'b' } },
                b: { always: { guard: 'context.flag', actions: [trace('1'), { type: 'assign', assign: { flag: 'false' } }] } },
              },
            },
            r2: {
              initial: 'a',
              states: { a: { always: { guard: 'context.flag', actions: [trace('2'), { type: 'assign', assign: { flag: 'false' } }] } } },
            },
          },
          on: { FLAG: { actions: [{ type: 'assign', assign: { flag: 'true' } }] } },
        },
      },
    },
    start: {},
    steps: [
      { send: 'MOVE', expect: { value: { p: { r1: 'b', r2: 'a' } } } },
      // r1.b was entered after r2.a: its eventless transition comes second.
      { send: 'FLAG', expect: { trace: '21' } },
    ],
  },
  'a state entered without its parent (an XState corner): the value and event selection still see the parent': {
    chart: {
      context: T,
      states: {
        a: {
          type: 'parallel',
          states: {
            a: {
              initial: 'a',
              states: {
                a: { type: 'parallel', states: { c: { initial: 'b', on: { C: { actions: [trace('c')] } }, states: { h: { type: 'history' }, b: { on: { A: 'h' } } } } } },
              },
            },
            b: { initial: 'a', states: { a: { initial: 'b', states: { a: {}, b: {} } } }, on: { '*': 'a.a' } },
          },
        },
      },
    },
    start: { value: { a: { a: { a: { c: 'b' } }, b: { a: 'b' } } } },
    steps: [
      // c.b goes to its history (default: itself, nothing exited) while b's wildcard re-enters region a: c.b is
      // entered again but c is not, and XState still reports (and walks) c.
      { send: 'A', expect: { value: { a: { a: { a: { c: 'b' } }, b: { a: 'b' } } } } },
      { send: 'C', expect: { trace: 'c' } },
    ],
  },
  'a root transition with reenter exits and enters the root itself (XState)': {
    chart: { context: T, entry: [trace('+root')], exit: [trace('-root')], on: { RESET: { target: 'a', reenter: true } }, states: { a: traced('a') } },
    start: { trace: '+root+a' },
    steps: [{ send: 'RESET', expect: { trace: '+root+a-a-root+root+a' } }],
  },
  'a target resolves to the nearest state with that name: a region state targets a state beside the parallel state': {
    chart: {
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: { r1: { initial: 'done', states: { done: { on: { GO: 'done' } } } }, r2: { initial: 'x', states: { x: {} } } },
        },
        done: {},
      },
    },
    start: {},
    // "done" from r1.done is r1.done itself (siblings first), not the top-level done.
    steps: [{ send: 'GO', expect: { value: { p: { r1: 'done', r2: 'x' } } } }],
  },
  'docs/compat.md: a wildcard matches sent and raised events only, never done or timer events': {
    // XState's `*` would also take xstate.done.state.* and xstate.after.* events.
    xstate: false,
    chart: {
      context: T,
      states: {
        job: {
          initial: 'run',
          on: { '*': { actions: [trace('*')] } },
          after: { 100: { actions: [trace('timer')] } },
          onDone: { actions: [trace('done')] },
          states: { run: { on: { END: 'end' } }, end: { type: 'final' } },
        },
      },
    },
    start: {},
    steps: [
      { tick: 100, expect: { trace: 'timer' } },
      { send: 'OTHER', expect: { trace: 'timer*' } },
      { send: 'END', expect: { trace: 'timer*done' } },
    ],
  },
  'docs/compat.md: a guard that fails to evaluate is false (XState would stop the actor with an error)': {
    xstate: false,
    chart: { context: T, states: { a: { on: { GO: [{ guard: 'context.missing.deep > 1', target: 'b' }, { target: 'c' }] } }, b: {}, c: {} } },
    start: {},
    steps: [{ send: 'GO', expect: { value: 'c', status: 'running' } }],
  },
};

for (const [name, scenario] of Object.entries(scenarios)) {
  test(name, () => {
    runScenario(scenario);
  });
}

test('a guard that fails to evaluate is journaled', () => {
  const [, sent] = runScenario(scenarios['docs/compat.md: a guard that fails to evaluate is false (XState would stop the actor with an error)'] as Scenario);
  const failure = sent?.effects.find((e) => e.type === 'guard-error');
  assert.ok(failure && failure.type === 'guard-error');
  assert.equal(failure.source, 'a');
  assert.equal(failure.guard, 'context.missing.deep > 1');
  assert.match(failure.message, /./);
});

test('the microstep limit names the event and the active states', () => {
  const results = runScenario(scenarios['an eventless loop fails the run after the limit, keeping the configuration and context from before the event'] as Scenario);
  const failed = results[1];
  assert.ok(failed);
  assert.match(failed.error ?? '', /more than 1000 microsteps for the event "GO"/);
  assert.match(failed.error ?? '', /active when stopped: b/);
  assert.equal(failed.snapshot.error, failed.error);
  assert.ok(failed.effects.some((e) => e.type === 'run-failed'));
});
