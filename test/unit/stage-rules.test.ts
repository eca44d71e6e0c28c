/**
 * The stage pipeline rules (check/stage-*.ts): for each, failing fixtures
 * (the code and the exact range asserted, computed from the fixture text) and
 * a passing one (no diagnostics at all: loader, schema and rules together), in
 * a Statewright workflow and in a statechart (YAML as written, and JSON).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import type { Diagnostic } from '../../src/engine/model/index.js';
import { parsePromptTemplate, renderPromptTemplate } from '../../src/engine/stage/prompt-template.js';
import { lit, span, withCode, type Range } from './support/ranges.js';

type Obj = Record<string, unknown>;

function checkWorkflow(text: string): Diagnostic[] {
  return checkWorkflowFile(text, '/fixtures/p.workflow.json', { resolveInvoke: false }).diagnostics;
}

function checkChart(text: string, syntax: 'yaml' | 'json'): Diagnostic[] {
  return checkWorkflowFile(text, `/fixtures/p.statechart.${syntax}`, { resolveSrc: false }).diagnostics;
}

const SCHEMA = { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' } } }, required: ['steps'] };

/** A clean Plan -> Review pipeline; `plan` and `review` take overrides, `extra` adds states. */
function pipeline(plan: Obj = {}, review: Obj = {}, extra: Obj = {}): string {
  return JSON.stringify({
    id: 'p',
    initial: 'plan',
    context: { repo: 'stategate' },
    states: {
      plan: { prompt: 'Plan this: {{ input.task }}', completion_tool: 'submit_plan', completion_schema: SCHEMA, turn_cap: 20, on: { submit_plan: 'review' }, ...plan },
      review: { prompt: 'Review {{ upstream.plan.steps }} in {{ context.repo }}', completion_tool: 'submit_review', turn_cap: 10, on: { submit_review: 'done' }, ...review },
      done: { type: 'final' },
      ...extra,
    },
  });
}

/** The contents of the string in the prompt at `needle` (prompts are written without escapes here). */
const inPrompt = (needle: string, inner = needle) => (t: string): Range => {
  const r = span(t, needle);
  const at = needle.indexOf(inner);
  return { start: r.start + at, end: r.start + at + inner.length };
};

interface Row {
  readonly name: string;
  readonly code: string;
  readonly bad: string;
  readonly at: (text: string) => Range;
}

const rows: Row[] = [
  {
    name: 'a stage needs a transition on its completion tool',
    code: 'stage-no-exit',
    bad: pipeline({ on: { NEXT: 'review' } }),
    at: (t) => lit(t, 'submit_plan'),
  },
  {
    name: 'a final state is no stage',
    code: 'stage-no-exit',
    bad: pipeline({}, {}, { done: { type: 'final', completion_tool: 'finish' } }),
    at: (t) => lit(t, 'finish'),
  },
  {
    name: 'a transition on a near miss of a completion tool',
    code: 'unknown-completion-tool',
    bad: pipeline({ on: { submit_plan: 'review' } }, { on: { submit_review: 'done', submit_reveiw: 'done' } }),
    at: (t) => lit(t, 'submit_reveiw'),
  },
  {
    name: "a transition on another stage's completion tool",
    code: 'unknown-completion-tool',
    bad: pipeline({}, { on: { submit_review: 'done', submit_plan: 'plan' } }),
    at: (t) => lit(t, 'submit_plan', 2),
  },
  {
    name: 'completion_schema: an unknown type inside it',
    code: 'invalid-completion-schema',
    bad: pipeline({ completion_schema: { type: 'object', properties: { steps: { type: 'aray' } } } }),
    at: (t) => lit(t, 'aray'),
  },
  {
    name: 'completion_schema: a keyword of the wrong type',
    code: 'invalid-completion-schema',
    bad: pipeline({ completion_schema: { type: 'object', required: 'steps' } }),
    at: (t) => lit(t, 'steps', 0),
  },
  {
    name: 'completion_schema: a pattern that is no regular expression',
    code: 'invalid-completion-schema',
    bad: pipeline({ completion_schema: { type: 'object', properties: { id: { type: 'string', pattern: '[a-z' } } } }),
    at: (t) => lit(t, '[a-z'),
  },
  {
    name: 'completion_schema: the root is an object schema',
    code: 'invalid-completion-schema',
    bad: pipeline({ completion_schema: { type: 'array' } }),
    at: (t) => lit(t, 'array'),
  },
  {
    name: 'prompt: an unknown binding',
    code: 'unknown-prompt-binding',
    bad: pipeline({ prompt: 'Plan this: {{ inptu.task }}' }),
    at: inPrompt('inptu'),
  },
  {
    name: 'prompt: upstream names no state',
    code: 'unknown-prompt-binding',
    bad: pipeline({}, { prompt: 'Review {{ upstream.plna.steps }}' }),
    at: inPrompt('upstream.plna', 'plna'),
  },
  {
    name: 'prompt: upstream names a state that is not a stage',
    code: 'unknown-prompt-binding',
    bad: pipeline({}, { prompt: 'Review {{ upstream.done }}' }),
    at: inPrompt('upstream.done', 'done'),
  },
  {
    name: 'prompt: a placeholder never closed',
    code: 'invalid-prompt-template',
    bad: pipeline({ prompt: 'Plan this: {{ input.task' }),
    at: inPrompt('{{ input.task', '{{'),
  },
  {
    name: 'prompt: a placeholder that is not a path',
    code: 'invalid-prompt-template',
    bad: pipeline({ prompt: 'Plan this: {{ input.task + 1 }}' }),
    at: inPrompt('{{ input.task + 1 }}'),
  },
  ...['0', '-1', '1.5'].map(
    (raw): Row => ({
      name: `turn_cap of ${raw}`,
      code: 'invalid-turn-cap',
      bad: pipeline({ turn_cap: Number(raw) }),
      at: (t) => {
        const r = span(t, `"turn_cap":${raw}`);
        return { start: r.end - raw.length, end: r.end };
      },
    }),
  ),
];

describe('stage rules on a Statewright workflow', () => {
  it('the passing pipeline is clean', () => {
    assert.deepEqual(checkWorkflow(pipeline()), []);
  });
  for (const row of rows) {
    it(`${row.code}: ${row.name} (failing case, exact range)`, () => {
      const found = checkWorkflow(row.bad);
      assert.deepEqual(withCode(found, row.code), [{ code: row.code, ...row.at(row.bad) }], JSON.stringify(found, null, 1));
      assert.equal(found.find((d) => d.code === row.code)?.severity, 'error');
    });
  }
  it('turn_cap is no longer reported as invalid-limit, and the schema does not repeat it', () => {
    const found = checkWorkflow(pipeline({ turn_cap: 0 }));
    assert.deepEqual(found.map((d) => d.code), ['invalid-turn-cap']);
  });
  it('a workflow without stage fields may name events like anything', () => {
    const text = JSON.stringify({ id: 'w', initial: 'a', states: { a: { on: { submit_plan: 'done', submit_pln: 'done' } }, done: { type: 'final' } } });
    assert.deepEqual(checkWorkflow(text), []);
  });
  it('a schema problem names the place inside the schema', () => {
    const d = checkWorkflow(pipeline({ completion_schema: { type: 'object', properties: { steps: { type: 'aray' } } } })).find((x) => x.code === 'invalid-completion-schema');
    assert.match(d?.message ?? '', /`\/properties\/steps\/type` must be one of "array"/);
    assert.deepEqual(d?.data, { pointer: '/properties/steps/type' });
  });
  it('suggests the completion tool for a near miss and the stage for a misspelt upstream', () => {
    const near = checkWorkflow(rows[2]!.bad).find((x) => x.code === 'unknown-completion-tool');
    assert.deepEqual(near?.data, { closest: 'submit_review' });
    const up = checkWorkflow(rows[9]!.bad).find((x) => x.code === 'unknown-prompt-binding');
    assert.deepEqual(up?.data, { closest: 'plan' });
  });
});

/** A clean Plan -> Review chart; `plan` lines replace the plan state's body. */
function chart(plan?: string, review?: string): string {
  return `statechart:
  id: p
  initial: work
  context:
    repo: stategate
  states:
    work:
      initial: plan
      on:
        submit_review: done
      states:
        plan:
${plan ?? `          prompt: "Plan this: {{ input.task }}"
          completion_tool: submit_plan
          completion_schema:
            type: object
            properties:
              steps: {type: array, items: {type: string}}
          turn_cap: 20
          on:
            submit_plan: review`}
        review:
${review ?? `          prompt: "Review {{ upstream.plan.steps }} in {{ context.repo }}"
          completion_tool: submit_review`}
    done:
      type: final
`;
}

/** The same chart in JSON (keys in the same order). */
const asJson = (yaml: string): string => `${JSON.stringify(parseDocument(yaml).toJS(), null, 2)}\n`;

/** The raw range of a word, in either syntax (JSON adds quotes around keys and strings, not inside them). */
const word = (needle: string, nth = 0) => (t: string): Range => span(t, needle, nth);

interface ChartRow {
  readonly name: string;
  readonly code: string;
  readonly bad: string;
  readonly at: (text: string) => Range;
}

const PLAN_HEAD = `          completion_tool: submit_plan
          on:
            submit_plan: review`;

const chartRows: ChartRow[] = [
  {
    name: 'a stage needs a transition on its completion tool, on it or an ancestor',
    code: 'stage-no-exit',
    bad: chart(undefined, `          completion_tool: submit_reviw`),
    at: word('submit_reviw'),
  },
  {
    name: "a transition on another stage's completion tool",
    code: 'unknown-completion-tool',
    bad: chart(`${PLAN_HEAD}
            submit_review: done`),
    at: word('submit_review', 1),
  },
  {
    name: 'completion_schema: an unknown type inside it',
    code: 'invalid-completion-schema',
    bad: chart(`${PLAN_HEAD}
          completion_schema:
            type: object
            properties:
              steps: {type: aray}`),
    at: word('aray'),
  },
  {
    name: 'prompt: an unknown binding',
    code: 'unknown-prompt-binding',
    bad: chart(`${PLAN_HEAD}
          prompt: "Plan in {{ contxt.repo }}"`),
    at: word('contxt'),
  },
  {
    name: 'prompt: a placeholder never closed',
    code: 'invalid-prompt-template',
    bad: chart(`${PLAN_HEAD}
          prompt: "Plan {{ input.task"`),
    at: (t) => {
      const r = span(t, '{{ input.task"');
      return { start: r.start, end: r.start + 2 };
    },
  },
  {
    name: 'turn_cap of 0',
    code: 'invalid-turn-cap',
    bad: chart(`${PLAN_HEAD}
          turn_cap: 0`),
    at: (t) => {
      const r = span(t, 'turn_cap');
      const value = t.indexOf('0', r.end);
      return { start: value, end: value + 1 };
    },
  },
];

describe('stage rules on a statechart', () => {
  for (const syntax of ['yaml', 'json'] as const) {
    const text = (yaml: string) => (syntax === 'yaml' ? yaml : asJson(yaml));
    it(`the passing chart is clean (${syntax})`, () => {
      assert.deepEqual(checkChart(text(chart()), syntax), []);
    });
    for (const row of chartRows) {
      it(`${row.code}: ${row.name} (${syntax}, failing case, exact range)`, () => {
        const t = text(row.bad);
        const found = checkChart(t, syntax);
        assert.deepEqual(withCode(found, row.code), [{ code: row.code, ...row.at(t) }], JSON.stringify(found, null, 1));
      });
    }
  }
  it('a region or a history node does not take stage fields (unknown field)', () => {
    const yaml = `statechart:
  id: p
  initial: a
  states:
    a:
      type: parallel
      regions:
        - id: r
          completion_tool: x
          initial: s
          states:
            s: {type: final}
`;
    assert.deepEqual(checkChart(yaml, 'yaml').filter((d) => d.code === 'unknown-field').map((d) => yaml.slice(d.loc.start, d.loc.end)), ['completion_tool']);
  });
});

describe('the prompt template', () => {
  it('renders strings as they are, other values as JSON, and reports missing paths', () => {
    const parsed = parsePromptTemplate('Task: {{ input.task }}; steps: {{upstream.plan.steps}}; first: {{ upstream.plan.steps[0] }}; {{ context.none }}; \\{{ literal }}');
    assert.deepEqual(parsed.problems, []);
    const out = renderPromptTemplate(parsed, { context: {}, input: { task: 'fix it' }, upstream: { plan: { steps: ['a', 'b'] } } });
    assert.equal(out.text, 'Task: fix it; steps: [\n  "a",\n  "b"\n]; first: a; ; {{ literal }}');
    assert.deepEqual(out.missing, ['context.none']);
  });
});
