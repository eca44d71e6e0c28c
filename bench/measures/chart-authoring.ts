/**
 * What the editor does on a statechart after a keystroke (issue 14), against
 * the YAML parse alone in the same run:
 * - diagnostics: the whole check (`checkFile`, load + the ten rules + schema,
 *   with the default lookup of sibling charts) of a generated 1,000-node YAML
 *   chart, each sample on a text one character away from the previous one, as
 *   each debounced update sees it. Target: ≤ 30 ms.
 * - informative: the language service's calls for the new text (outline,
 *   lenses, a completion at a target, a hover on it) on the loaded chart.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { checkFile } from '../../src/engine/check/check-file.js';
import { chartCompletions, chartHover, chartLenses, chartOutline } from '../../src/engine/language/index.js';
import { generateChartText } from '../generate-statechart.js';
import { ratioRow, type Row } from '../row.js';
import { interleave, summarise } from '../stats.js';

export interface ChartAuthoringOptions {
  readonly nodes: number;
  readonly runs: number;
}

export async function measureChartAuthoring(opts: ChartAuthoringOptions): Promise<Row[]> {
  const generated = generateChartText(opts.nodes);
  // Not created: the lookup of sibling charts finds none, as for a chart alone in its folder.
  const file = path.join(os.tmpdir(), 'stategate-bench-authoring', 'generated.statechart.yaml');
  // Two versions one keystroke apart (the chart's id), used in turn so no sample sees the text of the one before.
  const texts = [generated.text, generated.text.replace(/^(\s*id: \S+)/m, '$1x')];
  if (texts[0] === texts[1]) throw new Error('the generated chart has no id to edit');
  for (const t of texts) {
    const r = checkFile(t, file);
    if (!r.workflow || r.diagnostics.some((d) => d.severity === 'error')) throw new Error(`the generated chart does not check cleanly: ${r.diagnostics[0]?.message}`);
  }
  let turn = 0;
  const next = (): string => texts[turn++ % 2] as string;
  const parseOnly = (): number => {
    const t = next();
    const t0 = performance.now();
    parseDocument(t);
    return performance.now() - t0;
  };
  const diagnostics = (): number => {
    const t = next();
    const t0 = performance.now();
    checkFile(t, file);
    return performance.now() - t0;
  };
  const target = generated.text.indexOf('target: ') + 'target: '.length;
  const services = (): number => {
    const text = next();
    const workflow = checkFile(text, file).workflow;
    const doc = workflow ? { text, file, workflow } : { text, file };
    const t0 = performance.now();
    chartOutline(doc);
    chartLenses(doc);
    chartCompletions(doc, target);
    chartHover(doc, target + 1);
    return performance.now() - t0;
  };
  const rows: Row[] = [];
  const measure = async (name: string, subject: () => number, pass: (p50: number) => boolean | undefined, targetText: string): Promise<void> => {
    await interleave(Math.max(3, Math.floor(opts.runs / 5)), subject, parseOnly);
    const [ours, theirs] = await interleave(opts.runs, subject, parseOnly);
    const s = summarise(ours);
    const b = summarise(theirs);
    const passed = pass(s.p50);
    rows.push(
      ratioRow({
        measure: `${name} on a ${generated.nodes}-node chart after a keystroke, YAML (${Math.round(generated.text.length / 1024)} KB)`,
        stat: 'p50',
        unit: 'ms',
        value: s.p50,
        baseline: b.p50,
        baselineName: 'yaml parseDocument alone',
        target: targetText,
        ...(passed === undefined ? {} : { pass: passed }),
        note: `${opts.runs} runs each, interleaved; p95 ${s.p95.toFixed(1)} ms`,
      }),
    );
  };
  await measure('diagnostics', diagnostics, (p50) => p50 <= 30, '≤ 30 ms');
  await measure('outline + lenses + completion + hover', services, () => undefined, 'informative');
  return rows;
}
