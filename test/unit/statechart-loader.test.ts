/**
 * The statechart loader: what the IR holds for each construct of the format
 * (node kinds and ids, regions, history, every transition trigger, actions,
 * invocations, meta, registry, services, state rules on any node), that YAML
 * and JSON load into the same IR, that every location is exact (a string's
 * contents without quotes, RFC 6901 pointers), and that broken input becomes
 * diagnostics, never a throw.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { loadStatechart } from '../../src/engine/formats/statechart.js';
import { MAX_NESTING } from '../../src/engine/formats/statechart-nodes.js';
import { loadChartRegistry } from '../../src/engine/formats/statechart-registry.js';
import type { ChartTransition, Diagnostic, StateNode, Workflow } from '../../src/engine/model/index.js';
import { resolveTarget } from '../../src/engine/statechart/targets.js';
import { span } from './support/ranges.js';

const SPEC = path.resolve(__dirname, '..', 'fixtures', 'statecharts', 'spec');

function load(text: string, file = 'x.statechart.yaml'): { workflow: Workflow; diagnostics: Diagnostic[] } {
  const { workflow, diagnostics } = loadStatechart(text, { file });
  assert.ok(workflow, `did not load: ${JSON.stringify(diagnostics)}`);
  return { workflow, diagnostics };
}

function spec(name: string): { text: string; workflow: Workflow } {
  const text = fs.readFileSync(path.join(SPEC, name), 'utf8');
  const { workflow, diagnostics } = load(text, name);
  assert.deepEqual(diagnostics, []);
  return { text, workflow };
}

const node = (wf: Workflow, id: string): StateNode => {
  const n = wf.states.get(id);
  assert.ok(n, `no state ${id}`);
  return n;
};

/** The text a location covers. */
const at = (text: string, loc: { start: number; end: number }) => text.slice(loc.start, loc.end);

/** A transition as the tests compare it: trigger, target names, guard text, action names or types. */
function brief(t: ChartTransition) {
  return {
    trigger: t.trigger.kind === 'after' && typeof t.trigger.delay !== 'number' ? { kind: 'after', delay: t.trigger.delay.text } : { ...t.trigger },
    targets: t.targets.map((r) => r.name),
    ...(t.guard ? { guard: t.guard.text } : {}),
    actions: t.actions.map((a) => (a.kind === 'named' ? a.name.name : `inline:${a.action.type}`)),
    ...(t.reenter ? { reenter: true } : {}),
  };
}

/** The IR without source locations (to compare a YAML and a JSON load). */
function withoutLocs(value: unknown): unknown {
  if (value instanceof Map) return [...value].map(([k, v]) => [k, withoutLocs(v)]);
  if (value instanceof Set) return [...value];
  if (Array.isArray(value)) return value.map(withoutLocs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !/(^loc$|Loc$|^fieldLocs$)/.test(k))
        .map(([k, v]) => [k, withoutLocs(v)]),
    );
  }
  return value;
}

describe('statechart loader: the tree', () => {
  it('reads node kinds, dotted ids, document order (parents first) and initials', () => {
    const { workflow: wf } = spec('compound.statechart.yaml');
    assert.equal(wf.format, 'statechart');
    assert.equal(wf.initial.name, 'processing');
    assert.deepEqual(wf.topLevel, ['processing']);
    assert.deepEqual([...wf.states.keys()], ['processing', 'processing.validating', 'processing.executing', 'processing.failed', 'processing.done']);
    const p = node(wf, 'processing');
    assert.equal(p.kind, 'compound');
    assert.equal(p.initial?.name, 'validating');
    assert.deepEqual(p.children, ['processing.validating', 'processing.executing', 'processing.failed', 'processing.done']);
    assert.equal(node(wf, 'processing.validating').parent, 'processing');
    assert.equal(node(wf, 'processing.validating').key, 'validating');
    assert.equal(node(wf, 'processing.done').kind, 'final');
    for (const s of wf.states.values()) assert.deepEqual(s.on, [], 'a statechart node keeps its transitions in chart.transitions');
  });

  it('a parallel state’s regions become its children keyed by region id (compound, marked as regions)', () => {
    const { workflow: wf } = spec('parallel.statechart.yaml');
    const analysis = node(wf, 'analysis');
    assert.equal(analysis.kind, 'parallel');
    assert.deepEqual(analysis.children, ['analysis.code_review', 'analysis.security_scan']);
    const region = node(wf, 'analysis.security_scan');
    assert.equal(region.kind, 'compound');
    assert.equal(region.chart?.region, true);
    assert.equal(region.initial?.name, 'pending');
    assert.deepEqual(region.children, ['analysis.security_scan.pending', 'analysis.security_scan.scanning', 'analysis.security_scan.complete']);
    assert.deepEqual(analysis.chart?.transitions.map(brief), [{ trigger: { kind: 'done' }, targets: ['merged'], actions: [] }]);
  });

  it('accepts XState’s form of a parallel state (its `states` are its regions) and defaults the kinds', () => {
    const { workflow: wf } = load(`statechart:
  initial: p
  states:
    p:
      type: parallel
      states:
        a: {initial: x, states: {x: {}}}
        b: {initial: y, states: {y: {}}}
    q:
      regions:
        - {id: r1, initial: z, states: {z: {}}}
        - {id: r2, initial: z, states: {z: {}}}
    leaf:
    done: {type: final}
`);
    assert.equal(node(wf, 'p').kind, 'parallel');
    assert.equal(node(wf, 'p.a').chart?.region, true);
    assert.equal(node(wf, 'p.a').kind, 'compound');
    assert.equal(node(wf, 'q').kind, 'parallel', 'regions make a parallel state');
    assert.equal(node(wf, 'leaf').kind, 'atomic', 'an empty YAML value is an empty atomic state');
    assert.equal(node(wf, 'p.a.x').kind, 'atomic');
  });

  it('reads history states: variant (default shallow) and the default target', () => {
    const { workflow: wf } = spec('history.statechart.yaml');
    const h = node(wf, 'workflow.history_node');
    assert.equal(h.kind, 'history');
    assert.equal(h.chart?.history, 'deep');
    const { workflow: shallow } = load('statechart:\n  initial: a\n  states:\n    a: {}\n    h: {type: history, target: a}\n');
    assert.equal(node(shallow, 'h').chart?.history, 'shallow');
    assert.equal(node(shallow, 'h').chart?.historyDefault?.name, 'a');
  });
});

describe('statechart loader: transitions', () => {
  it('reads `on` as a target, an object, or guarded candidates in order (the three SUBMIT candidates)', () => {
    const { workflow: wf, text } = spec('guarded-submit.statechart.yaml');
    const submit = node(wf, 'drafting').chart!.transitions;
    assert.deepEqual(submit.map(brief), [
      { trigger: { kind: 'event', event: 'SUBMIT' }, targets: ['auto_approved'], guard: "context.risk_level == 'low' and context.score >= 90", actions: ['log_auto_approve'] },
      { trigger: { kind: 'event', event: 'SUBMIT' }, targets: ['manual_review'], guard: "context.risk_level == 'medium'", actions: ['assign_reviewer'] },
      { trigger: { kind: 'event', event: 'SUBMIT' }, targets: ['escalation'], guard: "context.risk_level == 'high'", actions: ['notify_admin', 'assign_senior_reviewer'] },
    ]);
    const guard = submit[1]!.guard!;
    assert.equal(at(text, guard.loc), "context.risk_level == 'medium'", 'a guard’s location is its contents, without quotes');
    assert.equal(guard.loc.pointer, '/statechart/states/drafting/on/SUBMIT/1/guard');
  });

  it('reads `always`, the wildcard, `after` (milliseconds and expressions) and done transitions', () => {
    assert.deepEqual(node(spec('always.statechart.yaml').workflow, 'checking').chart!.transitions.map(brief), [
      { trigger: { kind: 'always' }, targets: ['approved'], guard: 'context.all_checks_passed', actions: [] },
      { trigger: { kind: 'always' }, targets: ['rejected'], guard: 'context.has_critical_failure', actions: [] },
      { trigger: { kind: 'event', event: 'RECHECK' }, targets: ['collecting'], actions: [] },
    ]);
    assert.deepEqual(node(spec('wildcard.statechart.yaml').workflow, 'listening').chart!.transitions.map(brief)[1], {
      trigger: { kind: 'event', event: '*' },
      targets: [],
      actions: ['log_unhandled_event'],
    });
    const { workflow: wf, text } = spec('after.statechart.yaml');
    const after = node(wf, 'waiting_for_approval').chart!.transitions.filter((t) => t.trigger.kind === 'after');
    assert.deepEqual(after.map(brief), [
      { trigger: { kind: 'after', delay: 86400000 }, targets: ['auto_rejected'], actions: ['notify_timeout'] },
      { trigger: { kind: 'after', delay: 'context.sla_deadline_ms' }, targets: ['sla_breach'], actions: ['escalate_sla'] },
    ]);
    const named = after[1]!.trigger;
    assert.ok(named.kind === 'after' && typeof named.delay !== 'number');
    assert.deepEqual({ ...named.delay.loc }, { pointer: '/statechart/states/waiting_for_approval/after/context.sla_deadline_ms', ...span(text, 'context.sla_deadline_ms') });
  });

  it('reads `reenter`, target lists, a single action not in a list, and inline actions', () => {
    const { workflow: wf } = load(`statechart:
  initial: a
  context: {n: 0}
  states:
    a:
      entry: hello
      exit: {type: log, message: bye}
      on:
        AGAIN: {target: a, reenter: true, actions: {type: raise, event: PING}}
        BOTH: {target: [a, b]}
    b: {}
  actions:
    hello: {type: log}
`);
    const a = node(wf, 'a').chart!;
    assert.deepEqual(a.entry.map((r) => (r.kind === 'named' ? r.name.name : r.action.type)), ['hello']);
    assert.deepEqual(a.exit.map((r) => (r.kind === 'inline' ? r.action : undefined)), [{ type: 'log', message: 'bye', loc: (a.exit[0] as { action: { loc: object } }).action.loc }]);
    assert.deepEqual(a.transitions.map(brief), [
      { trigger: { kind: 'event', event: 'AGAIN' }, targets: ['a'], actions: ['inline:raise'], reenter: true },
      { trigger: { kind: 'event', event: 'BOTH' }, targets: ['a', 'b'], actions: [] },
    ]);
  });

  it('reads invocations (one or a list) with onDone / onError as invoke-done / invoke-error transitions', () => {
    const { workflow: wf } = spec('invoke-service.statechart.yaml');
    const running = node(wf, 'running_agent').chart!;
    assert.deepEqual(
      running.invoke.map((i) => ({ id: i.id, src: i.src.name, input: i.input })),
      [{ id: 'agent_task', src: 'agent_executor', input: { agent: 'context.assigned_agent', task: 'context.current_task', tools: 'context.allowed_tools' } }],
    );
    assert.deepEqual(running.transitions.map(brief), [
      { trigger: { kind: 'invoke-done', invokeId: 'agent_task' }, targets: ['evaluating_result'], actions: ['inline:assign'] },
      { trigger: { kind: 'invoke-error', invokeId: 'agent_task' }, targets: ['handling_failure'], actions: ['inline:assign'] },
    ]);
    const assign = running.transitions[1]!.actions[0]!;
    assert.ok(assign.kind === 'inline' && assign.action.type === 'assign');
    assert.deepEqual(assign.action.updates.map((u) => [u.key, u.expr.text]), [
      ['error', 'event.data.message'],
      ['retry_count', 'context.retry_count + 1'],
    ]);
    // An invocation without `id` is named after its state (the pipeline's builder and linter).
    const pipeline = spec('pipeline.statechart.yaml').workflow;
    assert.deepEqual(node(pipeline, 'pipeline.build.compiling').chart!.invoke.map((i) => [i.id, i.src.name]), [['pipeline.build.compiling:invoke:0', 'agent:builder']]);
    assert.deepEqual({ ...node(pipeline, 'pipeline.build.compiling').chart!.transitions[0]!.trigger }, { kind: 'invoke-done', invokeId: 'pipeline.build.compiling:invoke:0' });
  });
});

describe('statechart loader: the chart', () => {
  it('reads named actions, context, meta, the machine registry and services', () => {
    const { workflow: wf } = spec('guarded-submit.statechart.yaml');
    assert.deepEqual([...wf.chart!.actions.keys()], ['assign_reviewer', 'assign_senior_reviewer', 'log_auto_approve', 'notify_admin']);
    const notify = wf.chart!.actions.get('notify_admin')!.action;
    assert.ok(notify.type === 'send');
    assert.deepEqual([notify.to, notify.event, notify.data], ['admin_channel', 'ESCALATION_REQUIRED', { workflow_id: 'context.id', risk_level: 'context.risk_level' }]);
    assert.equal(wf.context.max_retries, 3);
    assert.equal(wf.version, '1.2.0');
    assert.deepEqual(node(spec('meta.statechart.yaml').workflow, 'review').chart!.meta, { label: 'Code Review', description: 'Agent reviews code changes', color: '#4A90D9', position: { x: 200, y: 100 } });
    assert.deepEqual(
      spec('machine-registry.statechart.yaml').workflow.chart!.machineRegistry.map((e) => [e.id, e.version, e.src]),
      [
        ['code_review_workflow', '1.2.0', 'statecharts/code_review.yaml'],
        ['deploy_workflow', '2.0.0', 'statecharts/deploy.yaml'],
      ],
    );
    assert.deepEqual(spec('invoke-service.statechart.yaml').workflow.chart!.services?.map((s) => s.name), ['agent_executor']);
  });

  it("reads Statewright's state rules on any node, with the Statewright loader's own reader, and interrupts at the root", () => {
    const { workflow: wf } = load(`statechart:
  initial: work
  interrupts:
    secrets: {trigger: {file_pattern: "**/*.env"}, target: work}
  states:
    work:
      instructions: Work on it.
      allowed_tools: [Read, Edit]
      initial: edit
      states:
        edit:
          allowed_commands: [npm test]
          deny_env: [TOKEN]
          env: {CI: "1"}
          max_iterations: 5
          allowed_paths: ["src/**"]
          model: fast
`);
    assert.deepEqual(node(wf, 'work').rules, { disallowedTools: [], blockedEnv: [], envOverrides: {}, instructions: 'Work on it.', allowedTools: ['Read', 'Edit'] });
    assert.deepEqual(node(wf, 'work.edit').rules, {
      disallowedTools: [],
      blockedEnv: ['TOKEN'],
      envOverrides: { CI: '1' },
      allowedCommands: ['npm test'],
      maxIterations: 5,
      allowedPaths: ['src/**'],
      model: 'fast',
    });
    assert.deepEqual(wf.interrupts.map((i) => [i.name, i.filePattern, i.target.name]), [['secrets', '**/*.env', 'work']]);
  });

  it('loads the same IR from YAML and from JSON (every seed example)', () => {
    for (const name of fs.readdirSync(SPEC).filter((f) => f.endsWith('.yaml'))) {
      const yamlText = fs.readFileSync(path.join(SPEC, name), 'utf8');
      const jsonText = JSON.stringify(parseDocument(yamlText).toJS(), null, 2);
      const fromYaml = load(yamlText, name);
      const fromJson = load(jsonText, name.replace(/\.yaml$/, '.json'));
      assert.deepEqual(fromJson.diagnostics, []);
      assert.deepEqual(withoutLocs(fromJson.workflow), withoutLocs(fromYaml.workflow), name);
      // Same pointers everywhere.
      const pointers = (wf: Workflow) => [...wf.states.values()].map((s) => [s.loc.pointer, s.keyLoc.pointer]);
      assert.deepEqual(pointers(fromJson.workflow), pointers(fromYaml.workflow), name);
    }
  });
});

describe('statechart loader: locations', () => {
  it('a string’s location is its contents in plain, single- and double-quoted YAML scalars and in JSON', () => {
    const text = `statechart:
  initial: plain
  states:
    plain: {on: {A: 'single', B: "double", C: plain}}
    single: {}
    double: {}
`;
    const { workflow: wf } = load(text);
    const targets = node(wf, 'plain').chart!.transitions.map((t) => t.targets[0]!);
    assert.deepEqual(targets.map((r) => at(text, r.loc)), ['single', 'double', 'plain']);
    assert.equal(at(text, wf.initial.loc), 'plain');
    assert.equal(at(text, node(wf, 'double').keyLoc), 'double');
    assert.equal(node(wf, 'plain').keyLoc.pointer, '/statechart/states/plain');
    const json = '{"statechart": {"initial": "a", "states": {"a": {"on": {"GO": "a"}}}}}';
    const a = node(load(json, 'x.statechart.json').workflow, 'a').chart!.transitions[0]!.targets[0]!;
    assert.deepEqual([at(json, a.loc), a.loc.pointer], ['a', '/statechart/states/a/on/GO']);
  });

  it('the first key of a file (offset 0) and keys that need escaping in a pointer', () => {
    const text = 'statechart:\n  initial: a\n  states:\n    a: {on: {"x/y~z": a}}\n';
    const { workflow: wf } = load(text);
    const t = node(wf, 'a').chart!.transitions[0]!;
    assert.equal(t.trigger.kind === 'event' && t.trigger.event, 'x/y~z');
    assert.equal(t.loc.pointer, '/statechart/states/a/on/x~1y~0z');
    const missing = loadStatechart('statechart:\n  initial: a\n', { file: 'x.statechart.yaml' }).diagnostics;
    assert.deepEqual(missing.map((d) => [d.code, at('statechart:\n  initial: a\n', d.loc)]), [['missing-field', 'statechart']]);
  });
});

describe('statechart loader: problems become diagnostics', () => {
  const codes = (text: string, file = 'x.statechart.yaml') => loadStatechart(text, { file }).diagnostics.map((d) => `${d.code} ${at(text, d.loc)}`);

  it('warns about unknown fields with a suggestion, everywhere', () => {
    const text = `statechart:
  initial: a
  intial: a
  states:
    a:
      tpye: final
      on: {GO: {target: a, gaurd: "x"}}
      invoke: {src: "agent:x", onDne: a}
      entry: [{type: log, mesage: hi}]
`;
    const d = loadStatechart(text, { file: 'x.statechart.yaml' }).diagnostics;
    assert.deepEqual(
      d.map((x) => [x.code, at(text, x.loc), x.data?.closest]),
      [
        ['unknown-field', 'intial', 'initial'],
        ['unknown-field', 'tpye', 'type'],
        ['unknown-field', 'gaurd', 'guard'],
        ['unknown-field', 'onDne', 'onDone'],
        ['unknown-field', 'mesage', 'message'],
      ],
    );
  });

  it('reports fields where they have no effect, names that cannot be states, duplicates', () => {
    assert.deepEqual(
      codes(`statechart:
  initial: a
  states:
    a:
      type: atomic
      initial: b
      states: {b: {}}
      onAllDone: a
    f: {type: final, on: {GO: a}}
    "x.y": {}
    "": {}
    p:
      regions:
        - {id: r, initial: s, states: {s: {}}}
        - {id: r, initial: s, states: {s: {}}}
`).sort((a, b) => a.localeCompare(b)),
      [
        'chart-misplaced-field initial',
        'chart-misplaced-field states',
        'chart-misplaced-field onAllDone',
        'chart-misplaced-field on',
        'invalid-state-name x.y',
        'invalid-state-name ',
        'duplicate-state r',
      ].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('YAML syntax errors are `yaml-syntax` at their place; what parsed still loads', () => {
    const text = 'statechart:\n  initial: a\n  states:\n    a: {on: {GO: a}\n    b: {}\n';
    const r = loadStatechart(text, { file: 'x.statechart.yaml' });
    assert.ok(r.diagnostics.some((d) => d.code === 'yaml-syntax' && d.severity === 'error'));
    for (const d of r.diagnostics) assert.ok(d.loc.start >= 0 && d.loc.start <= d.loc.end && d.loc.end <= text.length);
  });

  it('aliases expand, a self-referring alias is null, and an alias bomb stops at a budget', () => {
    const { workflow: wf } = load('statechart:\n  initial: a\n  states:\n    a: &s {on: {GO: b}}\n    b: *s\n');
    assert.deepEqual(node(wf, 'b').chart!.transitions.map(brief), [{ trigger: { kind: 'event', event: 'GO' }, targets: ['b'], actions: [] }]);
    assert.ok(codes('statechart: &c\n  initial: a\n  states: {a: {meta: {x: *c}}}\n').some((c) => c.startsWith('yaml-syntax')));
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const bomb = `statechart:\n  initial: s\n  states: {s: {meta: {b: *a8}}}\n  context:\n${lines.map((l) => `    ${l}`).join('\n')}\n`;
    assert.ok(codes(bomb).some((c) => c.startsWith('yaml-syntax')), 'the expansion is reported, not performed');
  });

  it('not a chart: a scalar, a list, a document without `statechart`, a chart without states', () => {
    assert.deepEqual(codes('just text'), ['invalid-type just text']);
    assert.deepEqual(codes('- a\n- b\n').map((c) => c.split(' ')[0]), ['invalid-type']);
    assert.deepEqual(codes('states: {}\n').map((c) => c.split(' ')[0]), ['unknown-field', 'missing-field']);
    assert.deepEqual(codes('statechart:\n  id: x\n').map((c) => c.split(' ')[0]), ['missing-field']);
    assert.deepEqual(codes('').map((c) => c.split(' ')[0]), ['yaml-syntax']);
  });
});

describe('statechart loader: pathological nesting is reported, never a thrown stack overflow', () => {
  it('JSON nested too deeply for the parser (statecharts and Statewright workflows alike)', () => {
    const deep = `${'['.repeat(20000)}${']'.repeat(20000)}`;
    const rows: Array<[string, string]> = [
      ['x.statechart.json', `{"statechart": {"initial": "a", "states": {"a": {}}, "context": {"x": ${deep}}}}`],
      ['x.workflow.json', `{"id": "x", "initial": "a", "states": {"a": {"type": "final"}}, "meta": {"x": ${deep}}}`],
      ['x.statechart.yaml', `statechart:\n  initial: a\n  states: {a: {}}\n  context: {x: ${deep}}\n`],
    ];
    for (const [file, text] of rows) {
      const d = checkWorkflowFile(text, path.join(SPEC, file), { resolveSrc: false, resolveInvoke: false }).diagnostics;
      assert.ok(d.some((x) => x.severity === 'error' && /syntax/.test(x.code)), `${file}: ${JSON.stringify(d)}`);
    }
  });

  it(`states nested more than ${MAX_NESTING} levels: the deeper ones are reported and left out`, () => {
    let node: Record<string, unknown> = { type: 'final' };
    for (let i = 0; i < MAX_NESTING + 20; i++) node = { initial: `s${i}`, states: { [`s${i}`]: node }, on: { AGAIN: { target: 'top', reenter: true } } };
    const text = JSON.stringify({ statechart: { initial: 'top', states: { top: node } } });
    const r = checkWorkflowFile(text, 'deep.statechart.json', { resolveSrc: false });
    assert.equal(r.workflow?.states.size, MAX_NESTING);
    const limit = r.diagnostics.filter((d) => d.code === 'chart-nesting-limit');
    assert.equal(limit.length, 1);
    assert.equal(limit[0]!.loc.pointer.split('/states/').length - 1, MAX_NESTING + 1, 'at the first state too deep');
    assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'chart-nesting-limit'), []);
  });
});

describe('statechart targets (docs/statecharts.md: siblings first, then each ancestor’s siblings; dots descend)', () => {
  const { workflow: wf } = load(`statechart:
  initial: a
  states:
    a:
      initial: b
      states:
        b:
          initial: c
          states: {c: {}, x: {}}
        x: {}
    x: {}
    p:
      regions:
        - {id: r1, initial: s, states: {s: {}}}
        - {id: r2, initial: s, states: {s: {}}}
`);
  const rows: Array<[string, string, string | undefined]> = [
    ['a.b.c', 'x', 'a.b.x'], // a sibling first
    ['a.b', 'x', 'a.x'], // then the ancestor's siblings
    ['a', 'x', 'x'],
    ['a.b.c', 'p', 'p'],
    ['a.b.c', 'p.r2.s', 'p.r2.s'], // dots descend
    ['p.r1.s', 'r2', 'p.r2'],
    ['p.r1.s', 'a.b', 'a.b'],
    ['a', 'b', undefined], // a child is not a sibling: `a.b`
    ['a', 'a.b', 'a.b'],
    ['', 'a', 'a'], // the root's names are its children
    ['', 'c', undefined],
    ['a.b.c', 'a.nope', undefined],
    ['missing', 'a', undefined],
    ['a.b.c', '', undefined],
  ];
  for (const [source, ref, expected] of rows) {
    it(`from \`${source || '(root)'}\`, \`${ref}\` is ${expected ?? 'not found'}`, () => assert.equal(resolveTarget(wf, source, ref), expected));
  }
});

describe('the workspace registry file (.stategate/registry.yaml)', () => {
  it('reads machine_registry and services; an empty file registers nothing', () => {
    const r = loadChartRegistry('machine_registry:\n  - {id: a, version: "1.0.0", src: a.statechart.yaml}\nservices: [svc]\n');
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.machineRegistry.map((e) => [e.id, e.version, e.src]), [['a', '1.0.0', 'a.statechart.yaml']]);
    assert.deepEqual(r.services.map((s) => s.name), ['svc']);
    assert.deepEqual(loadChartRegistry('').diagnostics, []);
    assert.deepEqual(loadChartRegistry('machine_registry:\n  - {id: a, version: 1.10, src: a}\n').diagnostics.map((d) => d.code), ['invalid-type']);
  });
});
