/**
 * The Statewright loader: IR shapes for every field and transition pattern,
 * exact source ranges, diagnostics for bad input (which never throws), format
 * dispatch, and offset -> line/character conversion.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { propertyRuns } from './support/property-runs';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { STATE_FIELDS, WORKFLOW_FIELDS } from '../../src/engine/formats/statewright-fields.js';
import { loadWorkflowText } from '../../src/engine/formats/index.js';
import { loadStatewright } from '../../src/engine/formats/statewright.js';
import type { StateNode, Transition, Workflow } from '../../src/engine/model/index.js';
import { LineIndex, offsetToPosition } from '../../src/engine/formats/text-position.js';
import { validateWorkflow } from '../../src/engine/check/rules.js';
import { lit, span, withCode } from './support/ranges.js';

type Obj = Record<string, unknown>;

function load(text: string): Workflow {
  const { workflow, diagnostics } = loadStatewright(text);
  assert.deepEqual(diagnostics, [], 'fixture should load cleanly');
  assert.ok(workflow);
  return workflow;
}

function state(wf: Workflow, id: string): StateNode {
  const s = wf.states.get(id);
  assert.ok(s, `no state ${id}`);
  return s;
}

function transition(wf: Workflow, stateId: string, event: string): Transition {
  const t = state(wf, stateId).on.find((x) => x.event === event);
  assert.ok(t, `no transition ${event}`);
  return t;
}

const doc = (states: Obj, extra: Obj = {}) => JSON.stringify({ id: 'w', initial: 'start', ...extra, states });
const DONE = { done: { type: 'final' } };

describe('loadStatewright: transition patterns', () => {
  it('reads a simple transition with the target range inside the quotes', () => {
    const text = doc({ start: { on: { GO: 'done' } }, ...DONE });
    const t = transition(load(text), 'start', 'GO');
    assert.equal(t.kind, 'simple');
    assert.ok(t.kind === 'simple');
    assert.deepEqual({ name: t.target.name, start: t.target.loc.start, end: t.target.loc.end }, { name: 'done', ...lit(text, 'done') });
    assert.deepEqual({ start: t.eventLoc.start, end: t.eventLoc.end }, lit(text, 'GO'));
    assert.equal(t.target.loc.pointer, '/states/start/on/GO');
  });

  it('reads a guarded transition: guard then guards, approval and its message', () => {
    const text = doc({ start: { on: { GO: { target: 'done', guard: 'a', guards: ['b', 'c'], requires_approval: true, approval_message: 'ok?' } } }, ...DONE });
    const t = transition(loadStatewright(text).workflow!, 'start', 'GO');
    assert.ok(t.kind === 'guarded');
    assert.deepEqual(t.guards.map((g) => g.name), ['a', 'b', 'c']);
    assert.equal(t.requiresApproval, true);
    assert.equal(t.approvalMessage, 'ok?');
  });

  it('reads a branched transition in order, with each branch guard', () => {
    const text = doc({ start: { on: { GO: [{ target: 'done', guard: 'a' }, { target: 'done' }] } }, ...DONE });
    const t = transition(loadStatewright(text).workflow!, 'start', 'GO');
    assert.ok(t.kind === 'branched');
    assert.deepEqual(t.branches.map((b) => b.guards.map((g) => g.name)), [['a'], []]);
    assert.deepEqual({ start: t.branches[1]!.loc.start, end: t.branches[1]!.loc.end }, span(text, '{"target":"done"}'));
  });

  it('records requires_approval written on a branch', () => {
    const text = doc({ start: { on: { GO: [{ target: 'done', requires_approval: true }] } }, ...DONE });
    const t = transition(loadStatewright(text).workflow!, 'start', 'GO');
    assert.ok(t.kind === 'branched');
    const at = t.branches[0]!.requiresApprovalLoc;
    assert.deepEqual(at && { start: at.start, end: at.end }, lit(text, 'requires_approval'));
  });

  it('reads an invoke with input, on_complete and on_fail', () => {
    const text = doc({ start: { on: { GO: { invoke: 'child', input: { n: 1 }, on_complete: 'done', on_fail: 'failed' } } }, ...DONE, failed: { type: 'final' } });
    const t = transition(load(text), 'start', 'GO');
    assert.ok(t.kind === 'invoke');
    assert.deepEqual([t.workflow.name, t.input, t.onComplete.name, t.onFail?.name], ['child', { n: 1 }, 'done', 'failed']);
    assert.deepEqual({ start: t.workflow.loc.start, end: t.workflow.loc.end }, lit(text, 'child'));
  });

  it('reads a fork: branches in name order, join and mode defaults', () => {
    const text = doc({
      start: { on: { GO: { fork: { branches: { zeta: { initial: 'z1', terminal: 'z2' }, alpha: { initial: 'a1', terminal: 'a2' } }, on_complete: 'done' } } } },
      z1: { on: { N: 'z2' } }, z2: { type: 'final' }, a1: { on: { N: 'a2' } }, a2: { type: 'final' }, ...DONE,
    });
    const t = transition(load(text), 'start', 'GO');
    assert.ok(t.kind === 'fork');
    assert.deepEqual(t.branches.map((b) => b.name), ['alpha', 'zeta']);
    assert.deepEqual([t.join, t.mode, t.onComplete.name, t.onFail], ['all', 'sequential', 'done', undefined]);
  });

  it('accepts on_complete, on_fail and mode beside `fork`', () => {
    const text = doc({
      start: { on: { GO: { fork: { branches: { a: { initial: 'a1', terminal: 'a2' } }, join: 'any' }, on_complete: 'done', on_fail: 'done', mode: 'parallel' } } },
      a1: { on: { N: 'a2' } }, a2: { type: 'final' }, ...DONE,
    });
    const t = transition(load(text), 'start', 'GO');
    assert.ok(t.kind === 'fork');
    assert.deepEqual([t.join, t.mode, t.onComplete.name, t.onFail?.name], ['any', 'parallel', 'done', 'done']);
  });
});

describe('loadStatewright: states, guards, interrupts, meta', () => {
  it('reads every state rule, with the aliases deny_env and env', () => {
    const text = doc({
      start: {
        instructions: 'work', allowed_tools: ['Read'], disallowed_tools: ['Write'], allowed_commands: ['npm test'], allowed_commands_tool: 'Bash',
        deny_env: ['SECRET'], env: { CI: '1' }, max_iterations: 5, max_edit_lines: 50, max_files_per_state: 2, context_budget_bytes: 1000,
        model: 'm', thinking_level: 'high', model_ladder: [{ model: 'a', thinking_level: 'low', health_url: 'http://h', requires_provider_switch: true }],
        completion_tool: 'finish', completion_schema: { type: 'object' }, turn_cap: 4, on: { GO: 'done' },
      },
      ...DONE,
    });
    const s = state(load(text), 'start');
    assert.deepEqual(s.rules, {
      instructions: 'work', allowedTools: ['Read'], disallowedTools: ['Write'], allowedCommands: ['npm test'], allowedCommandsTool: 'Bash',
      blockedEnv: ['SECRET'], envOverrides: { CI: '1' }, maxIterations: 5, maxEditLines: 50, maxFilesPerState: 2, contextBudgetBytes: 1000,
      model: 'm', thinkingLevel: 'high', modelLadder: [{ model: 'a', thinkingLevel: 'low', healthUrl: 'http://h', requiresProviderSwitch: true }],
    });
    assert.deepEqual([s.completionTool, s.completionSchema, s.turnCap], ['finish', { type: 'object' }, 4]);
  });

  it('prefers blocked_env / env_overrides over their aliases when both are written', () => {
    const text = doc({ start: { blocked_env: ['A'], deny_env: ['B'], env_overrides: { X: '1' }, env: { Y: '2' }, on: { GO: 'done' } }, ...DONE });
    const s = state(load(text), 'start');
    assert.deepEqual([s.rules.blockedEnv, s.rules.envOverrides], [['A'], { X: '1' }]);
  });

  it('defaults: allowed_tools absent means undefined, lists empty, no limits', () => {
    const s = state(load(doc({ start: { on: { GO: 'done' } }, ...DONE })), 'start');
    assert.deepEqual(s.rules, { disallowedTools: [], blockedEnv: [], envOverrides: {} });
  });

  it('reads "final" as final and "normal" / "atomic" / no type as atomic', () => {
    const wf = load(doc({ start: { type: 'normal', on: { GO: 'b' } }, b: { type: 'atomic', on: { GO: 'c' } }, c: { on: { GO: 'done' } }, ...DONE }));
    assert.deepEqual([...wf.states.values()].map((s) => s.kind), ['atomic', 'atomic', 'atomic', 'final']);
  });

  it('reports "parallel" as reserved for statecharts and reads the state as atomic', () => {
    const text = doc({ start: { type: 'parallel', on: { GO: 'done' } }, ...DONE });
    const { workflow, diagnostics } = loadStatewright(text);
    assert.deepEqual(withCode(diagnostics, 'unsupported-state-type'), [{ code: 'unsupported-state-type', ...lit(text, 'parallel') }]);
    assert.equal(workflow?.states.get('start')?.kind, 'atomic');
  });

  it('keeps the location of every state field value', () => {
    const text = doc({ start: { max_iterations: 7, on: { GO: 'done' } }, ...DONE });
    const at = state(load(text), 'start').fieldLocs?.max_iterations;
    assert.deepEqual(at && { pointer: at.pointer, start: at.start, end: at.end }, { pointer: '/states/start/max_iterations', ...span(text, '7') });
  });

  it('reads guards with and without a value', () => {
    const text = doc({ start: { on: { GO: 'done' } }, ...DONE }, { guards: { ok: { field: 'tests', op: 'eq', value: true }, has: { field: 'plan', op: 'exists' } } });
    const wf = load(text);
    assert.deepEqual([...wf.guards.values()].map((g) => [g.name, g.field, g.op, g.value]), [['ok', 'tests', 'eq', true], ['has', 'plan', 'exists', undefined]]);
    const ok = wf.guards.get('ok')!;
    assert.deepEqual({ start: ok.keyLoc.start, end: ok.keyLoc.end }, lit(text, 'ok'));
  });

  it('reads interrupts in definition order with pattern and target ranges', () => {
    const text = doc({ start: { on: { GO: 'done' } }, h: { on: { OK: '$return' } }, ...DONE }, {
      interrupts: { second: { trigger: { file_pattern: '**/*.env*' }, target: 'h' }, first: { trigger: { file_pattern: 'src/**' }, target: 'h' } },
    });
    const wf = load(text);
    assert.deepEqual(wf.interrupts.map((i) => [i.name, i.filePattern, i.target.name]), [['second', '**/*.env*', 'h'], ['first', 'src/**', 'h']]);
    const p = wf.interrupts[0]!.filePatternLoc;
    assert.deepEqual({ start: p.start, end: p.end }, lit(text, '**/*.env*'));
  });

  it('reads known meta keys, keeps every key in raw, and passes unknown meta keys silently', () => {
    const meta = { task_type: 'bug_fix', estimated_steps: 4, danger_level: 'moderate', requires_human_approval: false, capture_output: true, approval_mode: 'none', debug: true, failure_states: ['failed'], default_model: 'm', immutable: true, anything: { x: 1 } };
    const wf = load(doc({ start: { on: { GO: 'done' } }, ...DONE }, { meta }));
    assert.deepEqual(wf.meta, {
      taskType: 'bug_fix', estimatedSteps: 4, dangerLevel: 'moderate', requiresHumanApproval: false, captureOutput: true,
      approvalMode: 'none', debug: true, failureStates: ['failed'], defaultModel: 'm', raw: meta,
    });
  });

  it('defaults meta: approvals asked, no debug, no output capture', () => {
    const wf = load(doc({ start: { on: { GO: 'done' } }, ...DONE }));
    assert.deepEqual(wf.meta, { approvalMode: 'ask', captureOutput: false, debug: false, raw: {} });
  });

  it('reads id, name, description, version, context and the initial range', () => {
    const text = JSON.stringify({ id: 'w', name: 'W', description: 'd', version: 2, initial: 'start', context: { n: 1 }, states: { start: { on: { GO: 'done' } }, ...DONE } });
    const wf = load(text);
    assert.deepEqual([wf.id, wf.name, wf.description, wf.version, wf.context, wf.topLevel], ['w', 'W', 'd', 2, { n: 1 }, ['start', 'done']]);
    assert.deepEqual({ start: wf.initial.loc.start, end: wf.initial.loc.end }, lit(text, 'start'));
    assert.deepEqual(wf.idLoc && { start: wf.idLoc.start, end: wf.idLoc.end }, lit(text, 'w'));
  });
});

describe('loadStatewright: files as written', () => {
  it('tolerates comments and trailing commas', () => {
    const text = '// a workflow\n{\n  "id": "w", /* the id */\n  "initial": "start",\n  "states": {\n    "start": { "on": { "GO": "done", }, },\n    "done": { "type": "final" },\n  },\n}\n';
    assert.equal(load(text).states.size, 2);
  });

  it('unwraps a gateway config and keeps the /definition prefix in pointers', () => {
    const text = JSON.stringify({ definition: { id: 'w', initial: 'start', states: { start: { on: { GO: 'done' } }, ...DONE } }, upstream_servers: [] });
    const wf = load(text);
    assert.equal(wf.loc.pointer, '/definition');
    assert.equal(state(wf, 'start').keyLoc.pointer, '/definition/states/start');
    assert.deepEqual({ start: wf.loc.start, end: wf.loc.end }, span(text, text.slice(text.indexOf('{', 1), text.indexOf(',"upstream_servers"'))));
  });

  it('escapes / and ~ in pointers (RFC 6901)', () => {
    const wf = load(doc({ start: { on: { 'a/b~c': 'done' } }, ...DONE }));
    assert.equal(state(wf, 'start').on[0]!.eventLoc.pointer, '/states/start/on/a~1b~0c');
  });

  const syntax: Array<{ name: string; text: string; at: (t: string) => { start: number; end: number } }> = [
    { name: 'a missing comma', text: '{"id": "w" "initial": "a", "states": {}}', at: (t) => span(t, '"initial"') },
    { name: 'an unterminated comment', text: '{"id": "w", "states": {} /* x', at: (t) => span(t, '/* x') },
  ];
  for (const row of syntax) {
    it(`reports ${row.name} as json-syntax at its exact range`, () => {
      const first = loadStatewright(row.text).diagnostics.find((d) => d.code === 'json-syntax');
      assert.deepEqual(first && { start: first.loc.start, end: first.loc.end }, row.at(row.text));
    });
  }

  it('reports an empty file', () => {
    assert.deepEqual(loadStatewright('').diagnostics.map((d) => d.code), ['json-syntax']);
  });
});

describe('loadStatewright: problems become diagnostics', () => {
  it('warns about an unknown field with "did you mean" and the closest name as data', () => {
    const text = doc({ start: { alowed_tools: ['Read'], on: { GO: 'done' } }, ...DONE });
    const d = loadStatewright(text).diagnostics;
    assert.deepEqual(withCode(d, 'unknown-field'), [{ code: 'unknown-field', ...lit(text, 'alowed_tools') }]);
    assert.equal(d[0]?.severity, 'warning');
    assert.match(d[0]?.message ?? '', /did you mean `allowed_tools`\?/i);
    assert.deepEqual(d[0]?.data, { closest: 'allowed_tools' });
  });

  it('warns about unknown fields at every level except meta', () => {
    const text = doc(
      { start: { on: { GO: { target: 'done', x1: 1 }, B: [{ target: 'done', x2: 1 }], I: { invoke: 'c', on_complete: 'done', x3: 1 } } }, ...DONE },
      { x0: 1, meta: { free: 1 }, guards: { g: { field: 'f', op: 'exists', x4: 1 } }, interrupts: { i: { trigger: { file_pattern: '*', x5: 1 }, target: 'start', x6: 1 } } },
    );
    const names = loadStatewright(text).diagnostics.filter((d) => d.code === 'unknown-field').map((d) => text.slice(d.loc.start, d.loc.end));
    assert.deepEqual(names.sort(), ['x0', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6']);
  });

  it('reports a wrong type, skips the value and still returns the workflow', () => {
    const text = doc({ start: { max_iterations: 'three', allowed_tools: 'Read', on: { GO: 'done' } }, ...DONE });
    const { workflow, diagnostics } = loadStatewright(text);
    const byPosition = withCode(diagnostics, 'invalid-type').sort((a, b) => a.start - b.start);
    assert.deepEqual(byPosition, [
      { code: 'invalid-type', ...lit(text, 'three') },
      { code: 'invalid-type', ...lit(text, 'Read') },
    ]);
    assert.deepEqual(workflow?.states.get('start')?.rules.maxIterations, undefined);
  });

  it('reports an invalid enum value with the allowed values and a suggestion', () => {
    const text = doc({ start: { on: { GO: 'done' } }, ...DONE }, { guards: { g: { field: 'f', op: 'equals' } } });
    const d = loadStatewright(text).diagnostics.find((x) => x.code === 'invalid-value');
    assert.deepEqual(d && { start: d.loc.start, end: d.loc.end }, lit(text, 'equals'));
    assert.match(d?.message ?? '', /"eq", "neq", "gt"/);
  });

  it('reports an `in` guard whose value is not an array', () => {
    const text = doc({ start: { on: { GO: 'done' } }, ...DONE }, { guards: { g: { field: 'env', op: 'in', value: 'dev' } } });
    assert.deepEqual(withCode(loadStatewright(text).diagnostics, 'invalid-value'), [{ code: 'invalid-value', ...lit(text, 'dev') }]);
  });

  it('reports a missing required field at the key that owns the object', () => {
    const text = doc({ start: { on: { GO: { guard: 'g' } } }, ...DONE });
    const d = loadStatewright(text).diagnostics;
    assert.deepEqual(withCode(d, 'missing-field'), [{ code: 'missing-field', ...lit(text, 'GO') }]);
  });

  it('reports a state defined twice at the second key, related to the first; the last one counts', () => {
    const text = '{"id":"w","initial":"start","states":{"start":{"on":{"GO":"done"}},"done":{"type":"final"},"start":{"on":{"GO2":"done"}}}}';
    const { workflow, diagnostics } = loadStatewright(text);
    const d = diagnostics.find((x) => x.code === 'duplicate-state');
    assert.deepEqual(d && { start: d.loc.start, end: d.loc.end }, lit(text, 'start', 2));
    assert.deepEqual(d?.related?.map((r) => ({ start: r.loc.start, end: r.loc.end })), [lit(text, 'start', 1)]);
    assert.deepEqual(workflow?.states.get('start')?.on.map((t) => t.event), ['GO2']);
  });

  it('reports a duplicate event key', () => {
    const text = '{"id":"w","initial":"start","states":{"start":{"on":{"GO":"done","GO":"done"}},"done":{"type":"final"}}}';
    assert.deepEqual(withCode(loadStatewright(text).diagnostics, 'duplicate-key'), [{ code: 'duplicate-key', ...lit(text, 'GO', 1) }]);
  });

  it('returns no workflow without an object with states', () => {
    for (const text of ['[]', '"x"', '{"id": "w"}', '{"definition": 3}', '{"id":"w","states":[]}']) {
      const r = loadStatewright(text);
      assert.equal(r.workflow, undefined, text);
      assert.ok(r.diagnostics.length > 0, text);
    }
  });

  const stateField = fc.constantFrom(...STATE_FIELDS, 'unknown');
  const anyState = fc.dictionary(stateField, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
  const anyWorkflow = fc.record({
    id: fc.jsonValue({ maxDepth: 1 }),
    initial: fc.oneof(fc.constantFrom('a', 'b', '$return'), fc.jsonValue({ maxDepth: 1 })),
    states: fc.dictionary(fc.constantFrom('a', 'b', 'done', 'failed'), fc.oneof(anyState, fc.jsonValue({ maxDepth: 2 }))),
    guards: fc.jsonValue({ maxDepth: 3 }),
    interrupts: fc.jsonValue({ maxDepth: 3 }),
    meta: fc.jsonValue({ maxDepth: 2 }),
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => void checkWorkflowFile(text, 'x.json', { resolveInvoke: false })), propertyRuns(300));
  });

  it('never throws on arbitrary values in every field (load, validate and schema)', () => {
    fc.assert(
      fc.property(anyWorkflow, fc.constantFrom(...WORKFLOW_FIELDS), (wf, _field) => {
        const text = JSON.stringify(wf);
        const { workflow } = loadStatewright(text);
        if (workflow) validateWorkflow(workflow, { resolveInvoke: () => undefined });
        checkWorkflowFile(text, 'x.json', { resolveInvoke: false });
      }),
      propertyRuns(500),
    );
  });
});

describe('the IR carries hierarchy', () => {
  it('builds an IR with a nested state processing.validating', () => {
    const loc = { pointer: '', start: 0, end: 0 };
    const node = (id: string, extra: Partial<StateNode>): StateNode => ({
      key: id.split('.').pop()!, id, kind: 'atomic', children: [], rules: { disallowedTools: [], blockedEnv: [], envOverrides: {} }, on: [], keyLoc: loc, loc, ...extra,
    });
    const go = (target: string): Transition => ({ kind: 'simple', event: 'NEXT', eventLoc: loc, loc, target: { name: target, loc }, guards: [], requiresApproval: false });
    const states = new Map<string, StateNode>([
      ['processing', node('processing', { kind: 'compound', children: ['processing.validating', 'processing.saving'], initial: { name: 'processing.validating', loc } })],
      ['processing.validating', node('processing.validating', { parent: 'processing', on: [go('processing.saving')] })],
      ['processing.saving', node('processing.saving', { parent: 'processing', on: [go('done')] })],
      ['done', node('done', { kind: 'final' })],
    ]);
    const wf: Workflow = {
      format: 'statechart', id: 'nested', initial: { name: 'processing', loc }, context: {},
      meta: { approvalMode: 'ask', captureOutput: false, debug: false, raw: {} },
      states, topLevel: ['processing', 'done'], guards: new Map(), interrupts: [], loc,
    };
    const validating = wf.states.get('processing.validating');
    assert.equal(validating?.parent, 'processing');
    assert.equal(validating?.key, 'validating');
    assert.deepEqual(wf.states.get('processing')?.children, ['processing.validating', 'processing.saving']);
    // Reachability follows the compound's initial child: nothing is reported unreachable.
    assert.deepEqual(validateWorkflow(wf), []);
  });
});

describe('loadWorkflowText: format dispatch', () => {
  // Flows load (test/unit/flow-check.test.ts has the format itself).
  for (const file of ['a.flow.yaml', 'a.flow.yml', 'a.flow.json']) {
    it(`reads ${file} as a flow`, () => {
      const text = file.endsWith('.json') ? '{"start-at": "a", "states": {"a": {"tool": "bash", "arguments": {"command": "true"}}}}' : 'start-at: a\nstates:\n  a:\n    tool: bash\n    arguments: {command: "true"}\n';
      const r = loadWorkflowText(text, file);
      assert.equal(r.format, 'flow');
      assert.deepEqual(r.diagnostics, []);
      assert.equal(r.workflow?.initial.name, 'a');
      assert.equal(r.workflow?.states.get('a')?.flow?.tool, 'bash');
    });
  }

  // Statecharts load (test/unit/statechart-loader.test.ts has the format itself).
  const charts = [
    { file: 'a.statechart.yaml', text: 'statechart:\n  initial: a\n  states: {a: {}}\n' },
    { file: 'a.statechart.yml', text: 'statechart:\n  initial: a\n  states: {a: {}}\n' },
    { file: 'a.statechart.json', text: '{"statechart": {"initial": "a", "states": {"a": {}}}}' },
    { file: 'x.json', text: '{"statechart": {"initial": "a", "states": {"a": {}}}}' },
    { file: undefined, text: '# a chart read without its file name\nstatechart:\n  initial: a\n  states: {a: {}}\n' },
  ];
  for (const row of charts) {
    it(`loads ${row.file ?? 'a YAML text without a file name'} as a statechart`, () => {
      const r = loadWorkflowText(row.text, row.file);
      assert.equal(r.format, 'statechart');
      assert.deepEqual(r.diagnostics, []);
      assert.deepEqual([...r.workflow!.states.keys()], ['a']);
    });
  }

  it('loads Statewright JSON', () => {
    const r = loadWorkflowText(doc({ start: { on: { GO: 'done' } }, ...DONE }), 'w.workflow.json');
    assert.equal(r.format, 'statewright');
    assert.equal(r.workflow?.id, 'w');
  });
});

describe('text positions', () => {
  const rows = [
    { name: 'LF', text: 'ab\ncd', offset: 4, line: 1, character: 1 },
    { name: 'CRLF counts as one break', text: 'ab\r\ncd', offset: 5, line: 1, character: 1 },
    { name: 'a lone CR', text: 'ab\rcd', offset: 3, line: 1, character: 0 },
    { name: 'start of text', text: 'ab', offset: 0, line: 0, character: 0 },
    { name: 'past the end clamps', text: 'ab\n', offset: 99, line: 1, character: 0 },
  ];
  for (const row of rows) {
    it(`offsetToPosition: ${row.name}`, () => {
      assert.deepEqual(offsetToPosition(row.text, row.offset), { line: row.line, character: row.character });
    });
  }

  it('LineIndex.offsetAt inverts positionAt on every offset', () => {
    const text = 'one\r\ntwo\nthree\rfour';
    const index = new LineIndex(text);
    for (let i = 0; i <= text.length; i++) {
      if (text[i - 1] === '\r' && text[i] === '\n') continue; // between \r and \n is not a position of its own
      assert.equal(index.offsetAt(index.positionAt(i)), i, `offset ${i}`);
    }
  });
});
