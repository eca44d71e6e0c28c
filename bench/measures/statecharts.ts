/**
 * Statechart rows (issue 13), each against a baseline measured in the same run:
 * - transitions per second on a 3-level chart with 2 parallel regions: the
 *   interpreter's pure `sendEvent` (a new snapshot and its effects per call)
 *   against XState v5's `createActor(machine).send` on the same machine
 *   (bench/generate-statechart.ts writes both), the same endless sequence of
 *   NEXT on both sides; one NEXT is one microstep taking a transition in each
 *   region. Timed per event. Target: ≥ 3× XState's rate.
 * - validating a generated 1,000-node chart (load + the ten rules, what the
 *   editor does on each debounced update), in YAML against the `yaml`
 *   package's parse alone (validation reads YAML through the package, so
 *   this is its floor) and in JSON against JSON.parse alone. No target: the
 *   ≤ 20 ms one was retired with the hand-written YAML reader (issue 31).
 */
import { parse, parseDocument } from 'yaml';
import { createActor, createMachine } from 'xstate';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { loadWorkflowText } from '../../src/engine/formats/index.js';
import { sendEvent, startChart, stateValue, type ChartSnapshot } from '../../src/engine/statechart/index.js';
import { generateChartText, transitionChartText, transitionChartXState } from '../generate-statechart.js';
import { ratioRow, type Row } from '../row.js';
import { interleave, summarise } from '../stats.js';
import { againstXState } from './transitions.js';

export interface StatechartOptions {
  readonly batchMs: number;
  readonly rounds: number;
  readonly nodes: number;
  readonly runs: number;
}

export async function measureStatecharts(opts: StatechartOptions): Promise<Row[]> {
  return [await measureParallelTransitions(opts), ...(await measureChartValidate(opts))];
}

async function measureParallelTransitions(opts: StatechartOptions): Promise<Row> {
  const wf = loadWorkflowText(transitionChartText(), 'bench.statechart.json').workflow;
  if (!wf) throw new Error('the transitions chart does not load');
  const now = Date.now();
  let snapshot: ChartSnapshot = startChart(wf, { now }).snapshot;
  const ourStep = (): void => {
    const r = sendEvent(wf, snapshot, { type: 'NEXT' }, { now });
    if (!r.transitioned) throw new Error(`NEXT did not transition: ${r.error}`);
    snapshot = r.snapshot;
  };
  const actor = createActor(createMachine(transitionChartXState() as Parameters<typeof createMachine>[0])).start();
  const xstateStep = (): void => void actor.send({ type: 'NEXT' });
  // The same machine on both sides: after the same steps, the same state value.
  for (let i = 0; i < 5; i++) {
    ourStep();
    xstateStep();
    const ourValue = JSON.stringify(stateValue(wf, snapshot));
    const theirValue = JSON.stringify(actor.getSnapshot().value);
    if (ourValue !== theirValue) throw new Error(`the two machines disagree: ${ourValue} vs ${theirValue}`);
  }
  return againstXState('statechart transitions, 3 levels, 2 parallel regions', ourStep, xstateStep, () => actor.getSnapshot().status, opts, {
    stat: 'per event (NEXT: a transition in each region; p50 of batches)',
    what: 'events',
  });
}

async function measureChartValidate(opts: StatechartOptions): Promise<Row[]> {
  const generated = generateChartText(opts.nodes);
  const forms = [
    { ext: 'yaml', text: generated.text, baselineName: 'yaml parseDocument alone', baseline: (t: string) => parseDocument(t) },
    { ext: 'json', text: JSON.stringify(parse(generated.text)), baselineName: 'JSON.parse alone', baseline: (t: string) => JSON.parse(t) as unknown },
  ];
  const rows: Row[] = [];
  for (const form of forms) {
    const file = `generated.statechart.${form.ext}`;
    const first = checkWorkflowFile(form.text, file, { resolveSrc: false });
    if (!first.workflow || first.diagnostics.length) throw new Error(`the generated chart does not validate cleanly: ${first.diagnostics[0]?.code} ${first.diagnostics[0]?.message}`);
    // Each YAML check reads a text of its own (a comment with the run's number appended), as each debounced
    // edit does: formats/yaml-tree.ts keeps the last text's parse, and the same text again would measure that.
    let run = 0;
    const fresh = (): string => (form.ext === 'yaml' ? `${form.text}# ${run++}\n` : form.text);
    const subject = (): number => {
      const text = fresh();
      const t0 = performance.now();
      checkWorkflowFile(text, file, { resolveSrc: false });
      return performance.now() - t0;
    };
    const baseline = (): number => {
      const text = fresh();
      const t0 = performance.now();
      form.baseline(text);
      return performance.now() - t0;
    };
    await interleave(Math.max(3, Math.floor(opts.runs / 5)), subject, baseline);
    const [ours, theirs] = await interleave(opts.runs, subject, baseline);
    const s = summarise(ours);
    const b = summarise(theirs);
    rows.push(
      ratioRow({
        measure: `validate ${generated.nodes}-node statechart, ${form.ext.toUpperCase()} (${Math.round(form.text.length / 1024)} KB)`,
        stat: 'p50',
        unit: 'ms',
        value: s.p50,
        baseline: b.p50,
        baselineName: form.baselineName,
        target: 'none (retired)',
        note: `${opts.runs} runs each, interleaved; p95 ${s.p95.toFixed(1)} ms`,
      }),
    );
  }
  return rows;
}
