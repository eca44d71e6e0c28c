/**
 * Routing of the flow runner, table-driven, each case a real run (bash
 * exits with the code): `next` on success, no `next` ends completed with 0,
 * `on-error` by code before `_`, an unhandled non-zero exit fails with that
 * code, a handler that succeeds without `next` ends completed with 0, a
 * handler that fails ends with its own code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { flowStatus, startFlow } from '../../src/engine/index.js';
import { routeExit, routeSwitch } from '../../src/engine/flow/routing.js';
import { loadFlow } from '../../src/engine/formats/flow.js';
import { bash, flowWorkspace } from './helpers/flow-workspace.js';
import { testHost } from './helpers/flow-host.js';

interface Case {
  readonly name: string;
  /** The first state's exit code. */
  readonly exit: number;
  readonly first: Record<string, unknown>;
  readonly status: string;
  readonly exitCode: number;
  /** States run, in order. */
  readonly ran: string[];
}

const handlers = { one: bash('exit 0'), two: bash('exit 0'), other: bash('exit 0'), fatal: bash('exit 7'), after: bash('exit 0') };

const CASES: Case[] = [
  { name: 'success goes to next', exit: 0, first: { next: 'after' }, status: 'completed', exitCode: 0, ran: ['start', 'after'] },
  { name: 'success without next ends completed', exit: 0, first: {}, status: 'completed', exitCode: 0, ran: ['start'] },
  { name: 'success ignores on-error', exit: 0, first: { 'on-error': { _: 'other' } }, status: 'completed', exitCode: 0, ran: ['start'] },
  { name: 'an exit code routes to its own entry', exit: 2, first: { next: 'after', 'on-error': { 1: 'one', 2: 'two', _: 'other' } }, status: 'completed', exitCode: 0, ran: ['start', 'two'] },
  { name: 'a code no entry names goes to _', exit: 5, first: { next: 'after', 'on-error': { 1: 'one', _: 'other' } }, status: 'completed', exitCode: 0, ran: ['start', 'other'] },
  { name: 'an unhandled code fails the flow with it', exit: 4, first: { next: 'after', 'on-error': { 1: 'one' } }, status: 'failed', exitCode: 4, ran: ['start'] },
  { name: 'no on-error at all: the code fails the flow', exit: 3, first: { next: 'after' }, status: 'failed', exitCode: 3, ran: ['start'] },
  { name: 'a terminal handler that fails ends with its own code', exit: 1, first: { 'on-error': { 1: 'fatal' } }, status: 'failed', exitCode: 7, ran: ['start', 'fatal'] },
  { name: 'a handler may rejoin the main path', exit: 1, first: { 'on-error': { 1: 'back' } }, status: 'completed', exitCode: 0, ran: ['start', 'back', 'after'] },
];

describe('flow routing (runs)', { concurrency: true }, () => {
  for (const c of CASES) {
    it(c.name, async (t) => {
      const ws = flowWorkspace(t, {
        'r.flow.yaml': { 'start-at': 'start', states: { start: bash(`exit ${c.exit}`, c.first), back: bash('true', { next: 'after' }), ...handlers } },
      });
      const s = await startFlow(testHost(ws), { file: 'r.flow.yaml' });
      assert.equal(s.status, c.status);
      assert.equal(s.exit_code, c.exitCode);
      assert.deepEqual(flowStatus(ws, s.instance).log.map((e) => e.state), c.ran);
      assert.equal(s.state, c.ran.at(-1));
      if (c.status === 'failed') assert.match(s.message ?? '', new RegExp(`exited with ${c.exitCode}`));
    });
  }
});

describe('routeExit and routeSwitch', () => {
  const wf = loadFlow(
    `start-at: a
states:
  a: {tool: bash, arguments: {command: x}, next: b, on-error: {"1": c, "_": d}}
  b: {tool: switch, arguments: {value: x}, goto: {"yes": c, "1": d, "_": a}}
  c: {tool: switch, arguments: {value: x}, goto: {"yes": d}}
  d: {tool: bash, arguments: {command: x}}
`,
    { file: 'r.flow.yaml' },
  ).workflow!;
  const step = (name: string) => wf.states.get(name)!.flow!;
  const exits: [string, number, unknown][] = [
    ['a', 0, { kind: 'goto', state: 'b' }],
    ['a', 1, { kind: 'goto', state: 'c' }],
    ['a', 255, { kind: 'goto', state: 'd' }],
    ['d', 0, { kind: 'end', status: 'completed', exitCode: 0 }],
    ['d', 9, { kind: 'end', status: 'failed', exitCode: 9 }],
  ];
  for (const [state, code, route] of exits) it(`${state} exit ${code}`, () => assert.deepEqual(routeExit(step(state), code), route));
  const switches: [string, string, string | undefined][] = [
    ['b', 'yes', 'c'],
    ['b', '1', 'd'],
    ['b', 'no', 'a'],
    ['b', 'YES', 'a'],
    ['c', 'yes', 'd'],
    ['c', 'no', undefined],
  ];
  for (const [state, value, target] of switches) it(`switch ${state} on ${JSON.stringify(value)}`, () => assert.equal(routeSwitch(step(state), value), target));
});
