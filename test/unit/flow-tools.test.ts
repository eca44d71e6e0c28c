/**
 * The runner's own tools and the effects it hands to the host: switch,
 * pause and resume across two runner invocations, ask-user (answers by state
 * name first, else the host; headless fails naming the state), the model and
 * gh effects, parallel (started together, exit = first non-zero in task
 * order), and sub-flows (`<state>::<var>`, `<state>/<child>` paths, resumed
 * inside at the nested path).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flowStatus, resumeFlow, startFlow, FlowError } from '../../src/engine/index.js';
import { bash, flowWorkspace } from './helpers/flow-workspace.js';
import { testHost } from './helpers/flow-host.js';

describe('switch', { concurrency: true }, () => {
  const flow = {
    'start-at': 'sw',
    variables: { env: 'prod' },
    states: {
      sw: { tool: 'switch', arguments: { value: '{{ env }}' }, goto: { prod: 'p', '1': 'one', _: 'other' } },
      p: bash('echo p', { output: 'var(went)' }),
      one: bash('echo one', { output: 'var(went)' }),
      other: bash('echo other', { output: 'var(went)' }),
    },
  };
  for (const [env, went] of [
    ['prod', 'p'],
    ['1', 'one'],
    ['staging', 'other'],
    ['', 'other'],
  ]) {
    it(`${JSON.stringify(env)} -> ${went}`, async (t) => {
      const ws = flowWorkspace(t, { 's.flow.yaml': flow });
      const s = await startFlow(testHost(ws), { file: 's.flow.yaml', vars: { env: env as string } });
      assert.equal(s.variables.went, went);
      assert.deepEqual(flowStatus(ws, s.instance).log[0], { ...flowStatus(ws, s.instance).log[0], state: 'sw', exit_code: 0, bytes: 0 });
    });
  }
  it('no match and no default fails, naming the value', async (t) => {
    const ws = flowWorkspace(t, { 's.flow.yaml': { 'start-at': 'sw', states: { sw: { tool: 'switch', arguments: { value: 'x{{ v }}' }, goto: { a: 'a' } }, a: bash('true') } } });
    const s = await startFlow(testHost(ws), { file: 's.flow.yaml', vars: { v: 'y' } });
    assert.equal(s.status, 'failed');
    assert.equal(s.exit_code, 1);
    assert.match(s.message ?? '', /switch value `xy` matches no `goto` key \(`a`\)/);
  });
});

describe('pause and resume', () => {
  it('pauses at a pause state; a second runner continues at its next with the variables kept', async (t) => {
    const ws = flowWorkspace(t, {
      'p.flow.yaml': {
        'start-at': 'a',
        states: { a: bash('echo one', { output: 'var(first)', next: 'wait' }), wait: { tool: 'pause', arguments: { reason: 'check {{ first }}' }, next: 'b' }, b: bash('echo "{{ first }} two"', { output: 'var(second)' }) },
      },
    });
    const paused = await startFlow(testHost(ws), { file: 'p.flow.yaml', name: 'p1' });
    assert.deepEqual({ status: paused.status, state: paused.state, exit_code: paused.exit_code, message: paused.message }, { status: 'paused', state: 'wait', exit_code: 0, message: 'check one' });
    assert.equal(flowStatus(ws, 'p1').status, 'paused');
    const done = await resumeFlow(testHost(ws), 'p1');
    assert.deepEqual({ status: done.status, state: done.state, exit_code: done.exit_code }, { status: 'completed', state: 'b', exit_code: 0 });
    assert.deepEqual(done.variables, { first: 'one', second: 'one two' });
    assert.equal(done.message, undefined);
    assert.deepEqual(flowStatus(ws, 'p1').log.map((e) => e.state), ['a', 'wait', 'b']);
    await assert.rejects(resumeFlow(testHost(ws), 'p1'), (err: unknown) => err instanceof FlowError && err.code === 'not_resumable' && /completed/.test(err.message));
  });

  it('a pause without next: resuming ends the flow completed', async (t) => {
    const ws = flowWorkspace(t, { 'p.flow.yaml': { 'start-at': 'wait', states: { wait: { tool: 'pause', arguments: { reason: 'r' } } } } });
    const paused = await startFlow(testHost(ws), { file: 'p.flow.yaml', name: 'p2' });
    assert.equal(paused.status, 'paused');
    const done = await resumeFlow(testHost(ws), 'p2');
    assert.deepEqual({ status: done.status, state: done.state, exit_code: done.exit_code }, { status: 'completed', state: 'wait', exit_code: 0 });
  });
});

describe('ask-user', () => {
  const flow = {
    'start-at': 'ask',
    states: { ask: { tool: 'ask-user', arguments: { question: 'Deploy {{ what }}?' }, output: 'var(answer)', next: 'echo', 'on-error': { _: 'nobody' } }, echo: bash('echo "said {{ answer }}"', { output: 'var(said)' }), nobody: bash('exit 9') },
    variables: { what: 'app' },
  };
  it('--answers keyed by the state name answer without asking', async (t) => {
    const ws = flowWorkspace(t, { 'a.flow.yaml': flow });
    const host = testHost(ws, { ask: () => 'from host' });
    const s = await startFlow(host, { file: 'a.flow.yaml', answers: { ask: 'yes' } });
    assert.equal(s.variables.said, 'said yes');
    assert.deepEqual(host.asked, []);
  });
  it('else the host asks, with the question templated', async (t) => {
    const ws = flowWorkspace(t, { 'a.flow.yaml': flow });
    const host = testHost(ws, { ask: () => 'ok' });
    const s = await startFlow(host, { file: 'a.flow.yaml', answers: { other: 'x' } });
    assert.equal(s.variables.said, 'said ok');
    assert.deepEqual(host.asked.map((a) => [a.state, a.question]), [['ask', 'Deploy app?']]);
  });
  it('headless with no answer: the host exit code is routed; unhandled, the flow fails naming the state', async (t) => {
    const ws = flowWorkspace(t, { 'a.flow.yaml': flow, 'b.flow.yaml': { ...flow, states: { ...flow.states, ask: { ...flow.states.ask, 'on-error': {} } } } });
    const handled = await startFlow(testHost(ws), { file: 'a.flow.yaml' });
    assert.deepEqual([handled.status, handled.state, handled.exit_code], ['failed', 'nobody', 9]);
    const unhandled = await startFlow(testHost(ws), { file: 'b.flow.yaml' });
    assert.deepEqual([unhandled.status, unhandled.state, unhandled.exit_code], ['failed', 'ask', 1]);
    assert.match(unhandled.message ?? '', /`ask`.*--answers/);
  });
});

describe('model and GitHub effects', () => {
  it('prompt, claude-code and get-gh-issue reach the host templated; their answer is the output', async (t) => {
    const ws = flowWorkspace(t, {
      'm.flow.yaml': {
        'start-at': 'issue',
        variables: { n: 7 },
        states: {
          issue: { tool: 'get-gh-issue', arguments: { 'issue-number': '{{ n }}', repo: 'o/r' }, output: 'var(issue)', next: 'plan' },
          plan: { tool: 'gemini', arguments: { prompt: 'plan for {{ issue }}', model: 'g-1' }, output: 'var(plan)', next: 'code' },
          code: { tool: 'claude-code', arguments: { prompt: 'do {{ plan }}' }, output: 'file(out/code.txt)' },
        },
      },
    });
    const host = testHost(ws, {
      issue: (r) => ({ exitCode: 0, stdout: `{"number":${r.issueNumber},"repo":"${r.repo}"}\n` }),
      prompt: (r) => ({ exitCode: 0, stdout: `${r.vendor}:${r.model ?? '-'}:${r.prompt}\n` }),
    });
    const s = await startFlow(host, { file: 'm.flow.yaml' });
    assert.equal(s.status, 'completed');
    assert.equal(s.variables.issue, '{"number":7,"repo":"o/r"}');
    assert.equal(s.variables.plan, 'gemini:g-1:plan for {"number":7,"repo":"o/r"}');
    assert.equal(fs.readFileSync(path.join(ws, 'out/code.txt'), 'utf8'), `claude:-:do ${s.variables.plan}\n`);
  });
  it('a missing vendor CLI fails with the host message', async (t) => {
    const ws = flowWorkspace(t, { 'm.flow.yaml': { 'start-at': 'plan', states: { plan: { tool: 'codex', arguments: { prompt: 'p' } } } } });
    const s = await startFlow(testHost(ws), { file: 'm.flow.yaml' });
    assert.deepEqual([s.status, s.exit_code, s.message], ['failed', 1, 'no codex here']);
  });
});

describe('parallel', { concurrency: true }, () => {
  for (const [codes, exit] of [
    [[0, 0, 0], 0],
    [[0, 3, 0], 3],
    [[4, 3, 0], 4],
    [[0, 0, 5], 5],
  ] as const) {
    it(`tasks exiting ${codes.join(',')} -> ${exit}`, async (t) => {
      const tasks = codes.map((c, i) => ({ tool: 'bash', arguments: { command: `echo t${i}; exit ${c}` }, output: `var(t${i})` }));
      const ws = flowWorkspace(t, { 'p.flow.yaml': { 'start-at': 'par', states: { par: { tool: 'parallel', arguments: { tasks }, 'on-error': { _: 'h' } }, h: bash('exit {{ code }}') } } });
      const s = await startFlow(testHost(ws), { file: 'p.flow.yaml', vars: { code: String(exit) } });
      assert.equal(s.exit_code, exit);
      assert.deepEqual([s.variables.t0, s.variables.t1, s.variables.t2], ['t0', 't1', 't2']);
      assert.deepEqual(flowStatus(ws, s.instance).log.map((e) => e.state), exit === 0 ? ['par'] : ['par', 'h']);
    });
  }
  it('tasks start together (each waits for the other), state-name tasks and templated arguments', async (t) => {
    const ws = flowWorkspace(t, {
      'p.flow.yaml': {
        'start-at': 'par',
        variables: { tag: 'T' },
        states: {
          par: {
            tool: 'parallel',
            arguments: {
              tasks: [
                { tool: 'bash', arguments: { command: 'touch a.ready; for i in $(seq 200); do [ -f b.ready ] && break; sleep 0.05; done; [ -f b.ready ] && echo "a {{ tag }}"' }, output: 'var(a)' },
                'b',
              ],
            },
            output: 'var(all)',
          },
          b: bash('touch b.ready; for i in $(seq 200); do [ -f a.ready ] && break; sleep 0.05; done; [ -f a.ready ] && echo "b {{ tag }}"', { output: 'file(b.txt)' }),
        },
      },
    });
    const s = await startFlow(testHost(ws), { file: 'p.flow.yaml' });
    assert.equal(s.status, 'completed', s.message);
    assert.equal(s.variables.a, 'a T');
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'b T\n');
    assert.equal(s.variables.all, 'a T\nb T');
    assert.equal(flowStatus(ws, s.instance).log[0]?.bytes, 8);
  });
});

describe('parallel state tasks', () => {
  it('an ask-user state task is answered by its own name; a switch value that is a number matches as text', async (t) => {
    const ws = flowWorkspace(t, {
      'p.flow.yaml': {
        'start-at': 'par',
        states: {
          par: { tool: 'parallel', arguments: { tasks: ['q', { tool: 'ask-user', arguments: { question: 'inline?' }, output: 'var(inline)' }] }, next: 'sw' },
          q: { tool: 'ask-user', arguments: { question: 'q?' }, output: 'var(q)' },
          sw: { tool: 'switch', arguments: { value: 2 }, goto: { '2': 'two' } },
          two: bash('echo two', { output: 'var(two)' }),
        },
      },
    });
    const host = testHost(ws, { ask: (r) => `host ${r.state}` });
    const s = await startFlow(host, { file: 'p.flow.yaml', answers: { q: 'from answers' } });
    assert.equal(s.status, 'completed', s.message);
    assert.deepEqual([s.variables.q, s.variables.inline, s.variables.two], ['from answers', 'host par', 'two']);
  });
});

describe('sub-flow', () => {
  const child = {
    'start-at': 'c1',
    variables: { greeting: 'hi' },
    states: {
      c1: bash('echo "{{ greeting }} {{ who }}"', { output: 'var(result)', next: 'wait' }),
      wait: { tool: 'pause', arguments: { reason: 'look at {{ result }}' }, next: 'c2' },
      c2: bash('echo late', { output: 'var(late)' }),
    },
  };
  const parent = {
    'start-at': 'prep',
    states: {
      prep: bash('echo bob', { output: 'var(x)', next: 'sub' }),
      sub: { tool: 'sub-flow', arguments: { workflow: 'child.flow.yaml', who: '{{ x }}' }, next: 'after' },
      after: bash('echo "{{ sub::result }} / {{ sub::late }}"', { output: 'var(final)' }),
    },
  };
  it('runs as <state>/<child>, pauses and resumes inside at the nested path; its variables come back as <state>::<var>', async (t) => {
    const ws = flowWorkspace(t, { 'flows/parent.flow.yaml': parent, 'flows/child.flow.yaml': child });
    const paused = await startFlow(testHost(ws), { file: 'flows/parent.flow.yaml', name: 'nest' });
    assert.deepEqual([paused.status, paused.state, paused.message], ['paused', 'sub/wait', 'look at hi bob']);
    assert.deepEqual(paused.variables, { x: 'bob' });
    const host = testHost(ws);
    const done = await resumeFlow(host, 'nest');
    assert.equal(done.status, 'completed', done.message);
    assert.equal(done.state, 'after');
    assert.deepEqual(done.variables, { x: 'bob', 'sub::greeting': 'hi', 'sub::who': 'bob', 'sub::result': 'hi bob', 'sub::late': 'late', final: 'hi bob / late' });
    assert.deepEqual(flowStatus(ws, 'nest').log.map((e) => e.state), ['prep', 'sub/c1', 'sub/wait', 'sub/c2', 'sub', 'after']);
    assert.ok(host.lines.includes('▶ sub/c2 (bash)'), host.lines.join('\n'));
  });
  it("a sub-flow's unhandled failure is the sub-flow state's exit code, routed by the parent", async (t) => {
    const ws = flowWorkspace(t, {
      'p.flow.yaml': { 'start-at': 'sub', states: { sub: { tool: 'sub-flow', arguments: { workflow: 'c.flow.yaml' }, 'on-error': { 6: 'six' } }, six: bash('echo handled', { output: 'var(h)' }) } },
      'c.flow.yaml': { 'start-at': 'x', states: { x: bash('exit 6') } },
    });
    const s = await startFlow(testHost(ws), { file: 'p.flow.yaml' });
    assert.deepEqual([s.status, s.state, s.variables.h], ['completed', 'six', 'handled']);
  });
  it('an invalid sub-flow named by a plain path refuses the whole run before anything runs', async (t) => {
    const ws = flowWorkspace(t, {
      'p.flow.yaml': { 'start-at': 'a', states: { a: bash('touch ran', { next: 'sub' }), sub: { tool: 'sub-flow', arguments: { workflow: 'c.flow.yaml' } } } },
      'c.flow.yaml': { 'start-at': 'x', states: { x: { tool: 'bsh', arguments: { command: 'true' } } } },
    });
    await assert.rejects(startFlow(testHost(ws), { file: 'p.flow.yaml' }), (err: unknown) => err instanceof FlowError && err.code === 'invalid_flow' && /c\.flow\.yaml.*Unknown tool `bsh`/.test(err.message));
    assert.equal(fs.existsSync(path.join(ws, 'ran')), false);
    assert.equal(fs.existsSync(path.join(ws, '.stategate')), false);
  });
});
