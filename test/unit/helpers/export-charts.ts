/**
 * Statecharts for the export tests, built as IR (helpers/chart-ir.ts): every
 * kind of node and trigger, and the shapes that are hard to draw (edges across
 * regions, to and from compound states and regions, from the chart root,
 * captions and guards full of the characters the formats treat specially).
 */
import { chartWorkflow, type ChartSpec } from './chart-ir.js';
import type { Workflow } from '../../../src/engine/model/index.js';

const specs: readonly ChartSpec[] = [
  {
    // The seed's Mermaid example.
    id: 'seed_example',
    initial: 'idle',
    states: {
      idle: { on: { START: 'running' } },
      running: {
        initial: 'executing',
        states: { executing: { on: { INVOKE: 'waiting' } }, waiting: { on: { RESULT: 'executing' } } },
        on: { STEP_COMPLETE: 'evaluating' },
      },
      evaluating: { on: { CONTINUE: { target: 'running', guard: 'context.has_more_steps' }, FINISH: { target: 'complete', guard: 'context.all_steps_done' } } },
      complete: { type: 'final' },
    },
  },
  {
    // The seed's parallel example, with a region's own onDone and an edge across regions.
    id: 'parallel_example',
    initial: 'analysis',
    states: {
      analysis: {
        type: 'parallel',
        regions: {
          code_review: {
            initial: 'pending',
            states: { pending: { on: { START_REVIEW: 'in_progress' } }, in_progress: { on: { REVIEW_DONE: 'complete', ESCALATE: 'security_scan.scanning' } }, complete: { type: 'final' } },
            onDone: 'merged',
          },
          security_scan: {
            initial: 'pending',
            states: { pending: { on: { START_SCAN: 'scanning' } }, scanning: { on: { SCAN_DONE: 'complete', REGION_FAILED: 'failed' } }, complete: { type: 'final' } },
          },
        },
        onDone: 'merged',
      },
      merged: { type: 'final' },
      failed: { type: 'final', meta: { color: '#c0392b' } },
    },
  },
  {
    // History, shallow and deep, with and without a default target; an edge into a compound state.
    id: 'history_example',
    initial: 'workflow',
    states: {
      workflow: {
        initial: 'drafting',
        states: {
          drafting: { on: { SUBMIT: 'review', INTERRUPT: 'interrupted' } },
          review: { initial: 'reading', states: { reading: { on: { NEXT: 'commenting' } }, commenting: {} }, on: { REVISE: 'drafting', INTERRUPT: 'interrupted' } },
          interrupted: { on: { RESUME: 'history_node', RESUME_SHALLOW: 'shallow_node' } },
          history_node: { type: 'history', variant: 'deep' },
          shallow_node: { type: 'history', target: 'review' },
        },
        on: { PUBLISH: 'published', RESTART: 'workflow' },
      },
      published: { type: 'final' },
    },
  },
  {
    // Every trigger, root transitions, colours of every form, four levels of nesting.
    id: 'triggers_and_colours',
    initial: 'phase',
    on: { CANCEL: 'cancelled' },
    meta: { label: 'The whole machine' },
    states: {
      phase: {
        initial: 'plan',
        meta: { color: '#4A90D9', label: 'Phase one' },
        states: {
          plan: { always: [{ target: 'build', guard: 'len(context.tasks) > 0' }, 'idle'], meta: { color: '#abc' } },
          idle: { after: { '86400000': 'timeout', 'context.delay_ms * 2': 'plan' }, meta: { color: 'lightgreen' } },
          build: {
            initial: 'deep',
            states: { deep: { initial: 'deeper', states: { deeper: { initial: 'deepest', states: { deepest: { on: { UP: 'build' } } } } } } },
            invoke: { id: 'compile', src: 'agent:compiler', onDone: 'done_here', onError: 'timeout' },
            meta: { color: 'rgb(1, 2, 3)' },
          },
          done_here: { type: 'final' },
          timeout: { on: { '*': 'plan' }, invoke: { src: 'agent:notifier', onDone: 'plan' } },
        },
        onDone: 'finished',
      },
      finished: { type: 'final', meta: { color: '#000000' } },
      cancelled: { type: 'final' },
    },
  },
  {
    // Captions and guards with the characters the formats treat specially.
    id: 'awkward-text',
    initial: 'a',
    states: {
      a: {
        meta: { label: 'Say "hi": {braces}; semi %% not a comment # nor this --> arrow' },
        on: { 'GO-ON': { target: 'b', guard: 'context.x == "y:z"; and\n  context.n >= 2 --> {ok}' }, 'TO:B': 'b' },
      },
      b: { meta: { label: '“curly” quotes and \\ backslash' }, on: { BACK: { target: 'a', guard: "event.data.s != '}'" } } },
    },
  },
];

export const EXPORT_CHARTS: readonly Workflow[] = specs.map(chartWorkflow);
