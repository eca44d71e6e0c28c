/**
 * Completion and hover for the stage fields (prompt, completion_tool,
 * completion_schema, turn_cap), in Statewright workflows and statecharts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadStatewright } from '../../src/engine/formats/statewright.js';
import { applyEdits, chartCompletions, chartHover, completionsAt, hoverAt } from '../../src/engine/language/index.js';
import { at, chartDoc } from './helpers/chart-doc.js';

const SCHEMAS = path.join(__dirname, '..', '..', 'schemas');
const workflowSchema: unknown = JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'workflow-schema.json'), 'utf8'));
const chartSchema: unknown = JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'statechart-schema.json'), 'utf8'));

const WORKFLOW = JSON.stringify(
  {
    id: 'p',
    initial: 'plan',
    context: { repo: 'stategate', limits: { files: 3 } },
    states: {
      plan: { prompt: 'Plan: {{ in }}', completion_tool: 'submit_plan', turn_cap: 20, on: { submit_plan: 'review' } },
      review: { prompt: 'Review {{ upstream.plan }}', completion_tool: 'submit_review', on: { APPROVE: 'done', REVISE: 'plan' } },
      done: { type: 'final' },
    },
  },
  null,
  2,
);

const labels = (text: string, offset: number): string[] => completionsAt(text, loadStatewright(text).workflow, offset).map((c) => c.label);

describe('stage fields: completion in a Statewright workflow', () => {
  it('in a prompt after `{{`: input, context paths, and the other stages as upstream; the typed path is replaced', () => {
    const offset = at(WORKFLOW, '{{ in }}', 5);
    const items = completionsAt(WORKFLOW, loadStatewright(WORKFLOW).workflow, offset);
    assert.deepEqual(
      items.map((c) => c.label),
      ['input.task', 'input', 'context', 'context.repo', 'context.limits', 'context.limits.files', 'upstream', 'upstream.review'],
    );
    const item = items.find((c) => c.label === 'input.task')!;
    assert.equal(applyEdits(WORKFLOW, [{ ...item.range, newText: item.insertText }]).includes('"Plan: {{ input.task }}"'), true);
  });

  it('nothing outside a placeholder', () => {
    assert.deepEqual(labels(WORKFLOW, at(WORKFLOW, 'Plan: {{', 3)), []);
    assert.deepEqual(labels(WORKFLOW, at(WORKFLOW, '{{ in }}', 8)), [], 'after the closing braces');
  });

  it("completion_tool: the state's events", () => {
    assert.deepEqual(labels(WORKFLOW, at(WORKFLOW, '"submit_review"', 1)), ['APPROVE', 'REVISE']);
  });

  it("a new event key in a stage offers the stage's completion tool first", () => {
    const text = WORKFLOW.replace('"APPROVE": "done"', '"", "APPROVE": "done"');
    const got = labels(text, at(text, '"", "APPROVE"', 1));
    assert.equal(got[0], 'submit_review');
    assert.ok(got.includes('submit_plan'), 'events used elsewhere still follow');
  });

  it('hover on each stage field shows its schema doc', () => {
    const text = JSON.stringify(
      JSON.parse(WORKFLOW.replace('"turn_cap": 20', '"turn_cap": 20, "completion_schema": {"type": "object"}')),
      null,
      2,
    );
    const wf = loadStatewright(text).workflow!;
    const cases: Array<[field: string, doc: RegExp]> = [
      ['prompt', /A template: `\{\{ context\.<field> \}\}`/],
      ['completion_tool', /the tool whose call ends this stage/],
      ['completion_schema', /JSON Schema \(draft-07, as ajv reads it\)/],
      ['turn_cap', /model turns this stage may take/],
    ];
    for (const [field, doc] of cases) {
      const h = hoverAt(text, wf, at(text, `"${field}"`, 2), { schema: workflowSchema });
      assert.ok(h, field);
      assert.match(h.markdown, doc, field);
      assert.ok(h.markdown.startsWith(`**${field}**`), field);
    }
    assert.deepEqual(wf.states.get('plan')?.prompt?.text, 'Plan: {{ in }}', 'the prompt is in the IR');
  });
});

const CHART = `statechart:
  id: p
  initial: plan
  context:
    repo: stategate
  states:
    plan:
      prompt: "Plan: {{ co }}"
      completion_tool: submit_plan
      completion_schema:
        type: object
      turn_cap: 5
      on:
        submit_plan: review
    review:
      prompt: "Review {{ upstream.plan }}"
      completion_tool: submit_review
      on:
        APPROVE: done
        S
    done:
      type: final
`;

describe('stage fields: completion and hover in a statechart', () => {
  const doc = chartDoc(CHART, 'p.statechart.yaml');
  const chartLabels = (offset: number): string[] => chartCompletions(doc, offset).map((c) => c.label);

  it('in a prompt after `{{`: the bindings, context keys and other stages', () => {
    const items = chartCompletions(doc, at(CHART, '{{ co }}', 5));
    assert.deepEqual(items.map((c) => c.label), ['input.task', 'input', 'context', 'context.repo', 'upstream', 'upstream.review']);
    assert.deepEqual(items[0]!.range, { start: at(CHART, '{{ co }}', 3), end: at(CHART, '{{ co }}', 5) });
  });

  it("completion_tool: the node's events", () => {
    assert.deepEqual(chartLabels(at(CHART, 'submit_review', 2)), ['APPROVE']);
  });

  it("a new event key under a stage's `on` offers its completion tool first", () => {
    const got = chartCompletions(doc, at(CHART, '        S\n', 9));
    assert.equal(got[0]?.label, 'submit_review');
    assert.equal(got[0]?.insertText, 'submit_review: ');
  });

  it('the stage fields a state node does not have yet are offered as its field names', () => {
    const text = CHART.replace('      turn_cap: 5\n', '      t\n');
    const got = chartCompletions(chartDoc(text, 'p.statechart.yaml'), at(text, '      t\n', 7)).map((c) => c.label);
    assert.ok(got.includes('turn_cap') && !got.includes('prompt'), got.join());
  });

  it("hover on a stage field shows the workflow schema's doc, through the statechart schema's $ref", () => {
    for (const [field, doc2] of [
      ['prompt', /A template/],
      ['completion_tool', /the tool whose call ends this stage/],
      ['completion_schema', /draft-07/],
      ['turn_cap', /model turns/],
    ] as const) {
      const h = chartHover(doc, at(CHART, `${field}:`, 2), chartSchema, { 'workflow-schema.json': workflowSchema });
      assert.ok(h, field);
      assert.match(h.markdown, doc2, field);
    }
    assert.equal(chartHover(doc, at(CHART, 'turn_cap:', 2), chartSchema), undefined, 'without the workflow schema the $ref leads nowhere');
  });
});
