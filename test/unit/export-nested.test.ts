/**
 * What the exports draw, format by format: flat Statewright workflows exactly
 * as before statecharts (files in test/fixtures/exports/ written by the
 * exporter of main before this change), and for statecharts the nesting,
 * regions, history, initial and final states, transition labels for every
 * trigger, `meta.color`, DOT's compound edges and the chart root's own
 * transitions. That each export reads back is export-check.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ELK from 'elkjs/lib/elk.bundled.js';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { exportSvg, exportWorkflow, TEXT_EXPORT_FORMATS, type Workflow } from '../../src/engine/index.js';
import { diagramColor, diagramTree, duration, textColorOn } from '../../src/engine/export/tree.js';
import { EXPORT_CHARTS } from './helpers/export-charts.js';
import { readSvg } from './helpers/svg-check.js';

const REPO = path.resolve(__dirname, '..', '..');
const chart = (id: string): Workflow => EXPORT_CHARTS.find((wf) => wf.id === id)!;
const lines = (text: string): string[] => text.split('\n').map((l) => l.trim());

describe('flat Statewright workflows export exactly as before', () => {
  for (const [name, file] of [
    ['review', 'examples/review.workflow.json'],
    ['fork', 'test/fixtures/workflows/fork.workflow.json'],
    ['interrupts', 'test/fixtures/workflows/interrupts.workflow.json'],
  ] as const) {
    for (const format of TEXT_EXPORT_FORMATS) {
      it(`${name}: ${format}`, () => {
        const { workflow } = checkWorkflowFile(fs.readFileSync(path.join(REPO, file), 'utf8'), file);
        assert.ok(workflow);
        assert.equal(exportWorkflow(workflow, format), fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'exports', `${name}.${format}`), 'utf8'));
      });
    }
  }
});

it('a Statewright workflow whose initial state does not exist still exports in every format, as before', async () => {
  const text = '{"id": "x", "initial": "nowhere", "states": {"a": {"on": {"GO": "b", "LOST": "missing"}}, "b": {"type": "final"}}}';
  const { workflow } = checkWorkflowFile(text, 'x.workflow.json');
  assert.ok(workflow);
  assert.ok(lines(exportWorkflow(workflow, 'mermaid')).includes('[*] --> s_nowhere'));
  assert.ok(lines(exportWorkflow(workflow, 'plantuml')).includes('[*] --> s_nowhere'));
  assert.ok(lines(exportWorkflow(workflow, 'dot')).includes('__start -> s_nowhere;'));
  assert.deepEqual([...readSvg(await exportSvg(workflow, new ELK())).states.keys()], ['a', 'b']);
});

describe('Mermaid', () => {
  it("draws the seed's example as nested state blocks with [*] and guarded labels", () => {
    assert.equal(
      exportWorkflow(chart('seed_example'), 'mermaid'),
      [
        'stateDiagram-v2',
        '  state "idle" as s_idle',
        '  state "running" as s_running',
        '  state s_running {',
        '    state "executing" as s_running_2e_executing',
        '    state "waiting" as s_running_2e_waiting',
        '    [*] --> s_running_2e_executing',
        '    s_running_2e_executing --> s_running_2e_waiting: INVOKE',
        '    s_running_2e_waiting --> s_running_2e_executing: RESULT',
        '  }',
        '  state "evaluating" as s_evaluating',
        '  state "complete" as s_complete',
        '  [*] --> s_idle',
        '  s_idle --> s_running: START',
        '  s_running --> s_evaluating: STEP_COMPLETE',
        '  s_evaluating --> s_running: CONTINUE [context.has_more_steps]',
        '  s_evaluating --> s_complete: FINISH [context.all_steps_done]',
        '  s_complete --> [*]',
        '',
      ].join('\n'),
    );
  });

  it('separates the regions of a parallel state with -- and writes edges across regions outside it', () => {
    const text = lines(exportWorkflow(chart('parallel_example'), 'mermaid'));
    const body = text.slice(text.indexOf('state s_analysis {'), text.indexOf('}', text.lastIndexOf('state s_analysis_2e_security_scan {')) + 2);
    assert.deepEqual(
      body.filter((l) => l === '--' || l.startsWith('state s_')),
      ['state s_analysis {', 'state s_analysis_2e_code_review {', '--', 'state s_analysis_2e_security_scan {'],
    );
    assert.ok(!body.some((l) => l.includes('ESCALATE')), 'the edge across regions is not inside the parallel state');
    assert.ok(text.includes('s_analysis_2e_code_review_2e_in_progress --> s_analysis_2e_security_scan_2e_scanning: ESCALATE'));
    assert.ok(text.includes('s_analysis_2e_code_review_2e_complete --> [*]'), 'a final state ends its region');
  });

  it('captions history states [H] and [H*]', () => {
    const text = lines(exportWorkflow(chart('history_example'), 'mermaid'));
    assert.ok(text.includes('state "[H*]" as s_workflow_2e_history_node'));
    assert.ok(text.includes('state "[H]" as s_workflow_2e_shallow_node'));
    assert.ok(text.includes('s_workflow_2e_shallow_node --> s_workflow_2e_review'), "the shallow history's default, unlabelled");
  });

  it('labels every trigger and draws the chart root when it has transitions of its own', () => {
    const text = lines(exportWorkflow(chart('triggers_and_colours'), 'mermaid'));
    for (const l of [
      's_phase_2e_plan --> s_phase_2e_build: always [len(context.tasks) > 0]',
      's_phase_2e_plan --> s_phase_2e_idle: always',
      's_phase_2e_idle --> s_phase_2e_timeout: after 24h',
      's_phase_2e_idle --> s_phase_2e_plan: after context.delay_ms * 2',
      's_phase_2e_build --> s_phase_2e_done_here: compile done',
      's_phase_2e_build --> s_phase_2e_timeout: compile error',
      's_phase_2e_timeout --> s_phase_2e_plan: *',
      's_phase_2e_timeout --> s_phase_2e_plan: agent notifier done',
      's_phase --> s_finished: done',
      'state "The whole machine" as s_',
      's_ --> s_cancelled: CANCEL',
    ]) {
      assert.ok(text.includes(l), l);
    }
  });

  it('colours states with one classDef per colour, white text on dark fills, and leaves out colours it cannot write', () => {
    const text = lines(exportWorkflow(chart('triggers_and_colours'), 'mermaid'));
    assert.deepEqual(
      text.filter((l) => l.startsWith('class')),
      [
        'classDef color0 fill:#4a90d9,color:#ffffff',
        'class s_phase color0',
        'classDef color1 fill:#aabbcc',
        'class s_phase_2e_plan color1',
        'classDef color2 fill:lightgreen',
        'class s_phase_2e_idle color2',
        'classDef color3 fill:#000000,color:#ffffff',
        'class s_finished color3',
      ],
    );
  });

  it('keeps captions and labels to what Mermaid reads: no double quotes, no colons or semicolons in labels', () => {
    const text = lines(exportWorkflow(chart('awkward-text'), 'mermaid'));
    assert.ok(text.includes(`state "Say 'hi': {braces}; semi %% not a comment # nor this --> arrow" as s_a`));
    assert.ok(text.includes('state "“curly” quotes and \\ backslash" as s_b'), 'curly quotes and a backslash as they are');
    assert.ok(text.includes('s_a --> s_b: GO-ON [context.x == "y z"  and context.n >= 2 --> {ok}]'));
  });
});

describe('PlantUML', () => {
  it('nests blocks, separates regions with || and draws a region-ended edge from its parallel state', () => {
    const text = lines(exportWorkflow(chart('parallel_example'), 'plantuml'));
    assert.ok(text.includes('state "analysis" as s_analysis {'));
    assert.equal(text.filter((l) => l === '||').length, 1);
    assert.ok(text.includes('s_analysis --> s_merged : (code_review) done'));
    assert.ok(text.includes('state "failed" as s_failed #c0392b'));
  });

  it('uses its own history pseudo-states, parent[H] and parent[H*]', () => {
    const text = lines(exportWorkflow(chart('history_example'), 'plantuml'));
    assert.ok(text.includes('s_workflow_2e_interrupted --> s_workflow[H*] : RESUME'));
    assert.ok(text.includes('s_workflow_2e_interrupted --> s_workflow[H] : RESUME_SHALLOW'));
    assert.ok(text.includes('s_workflow[H] --> s_workflow_2e_review'));
    assert.ok(!text.some((l) => l.includes('history_node')), 'history states are not declared as states');
  });
});

describe('DOT', () => {
  const text = lines(exportWorkflow(chart('history_example'), 'dot'));
  it('draws compound states as clusters with a point for [*], and clips edges at their borders', () => {
    assert.ok(text.includes('compound=true;'));
    assert.ok(text.includes('subgraph cluster_s_workflow_2e_review {'));
    assert.ok(text.includes('init_s_workflow_2e_review [shape=point];'));
    assert.ok(text.includes('init_s_workflow_2e_review -> s_workflow_2e_review_2e_reading;'));
    assert.ok(text.includes('s_workflow_2e_drafting -> init_s_workflow_2e_review [label="SUBMIT", lhead=cluster_s_workflow_2e_review];'));
    assert.ok(text.includes('init_s_workflow_2e_review -> s_workflow_2e_drafting [label="REVISE", ltail=cluster_s_workflow_2e_review];'));
    assert.ok(text.includes('s_workflow_2e_history_node [label="H*", shape=circle];'));
  });
  it('dashes region borders and fills states and clusters with meta.color', () => {
    const par = lines(exportWorkflow(chart('parallel_example'), 'dot'));
    assert.equal(par.filter((l) => l === 'style="rounded,dashed";').length, 2);
    assert.ok(par.includes('s_failed [label="failed", peripheries=2, style="rounded,filled", fillcolor="#c0392b", fontcolor="#ffffff"];'));
    const colours = lines(exportWorkflow(chart('triggers_and_colours'), 'dot'));
    assert.ok(colours.includes('fillcolor="#4a90d9";'), 'a cluster filled');
    assert.ok(!colours.some((l) => l.includes('rgb(')), 'a colour DOT cannot read is left out');
  });
});

describe('SVG', () => {
  it('fills states with meta.color, draws regions dashed, and every state once with its caption', async () => {
    const wf = chart('parallel_example');
    const text = await exportSvg(wf, new ELK());
    const svg = readSvg(text);
    assert.deepEqual([...svg.states.keys()].sort(), [...diagramTree(wf).nodes.keys()].sort());
    assert.match(text, /<g class="state final" data-state="failed"><title>failed<\/title><rect [^>]*fill="#c0392b"/);
    // Tooltips say what a person reads (state-names.ts), never the dotted id.
    assert.match(text, /<g class="state region" data-state="analysis.code_review"><title>code_review<\/title><rect [^>]*stroke-dasharray="6 4"/);
    assert.match(text, /data-state="analysis.code_review.pending"><title>code_review › pending<\/title>/);
    assert.doesNotMatch(text, /<title>[^<]*\w\.\w[^<]*<\/title>/);
    assert.match(text, /<text [^>]*fill="#ffffff"[^>]*>failed<\/text>/, 'white text on a dark fill');
  });
});

describe('the pieces', () => {
  it('after delays read as people write them', () => {
    assert.deepEqual([86_400_000, 3_600_000, 90_000, 30_000, 1500, 0].map(duration), ['24h', '1h', '90s', '30s', '1500ms', '0ms']);
  });
  it('colours every format reads, and the text that goes on them', () => {
    assert.deepEqual(['#4A90D9', '#abc', ' red ', 'rgb(1,2,3)', '#12345', 'hsl(0 0% 0%)', 'url(#x)'].map(diagramColor), ['#4a90d9', '#aabbcc', 'red', undefined, undefined, undefined, undefined]);
    assert.deepEqual(['#000000', '#ffffff', '#4a90d9', '#c0392b', 'red'].map(textColorOn), ['#ffffff', undefined, '#ffffff', '#ffffff', undefined]);
  });
});
