/**
 * Validating a 1,000-state workflow (parse + schema + semantic rules, what
 * the editor does on each debounced update) against vscode-json-languageservice
 * validating the same text against the same JSON Schema (what VS Code's JSON
 * support alone would do). Target: ≤ 20 ms and ≥ 2× faster than the baseline.
 *
 * The file sits in a folder of its own with the child workflow its invokes
 * name, so invoke resolution reads the disk as it does in a workspace.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { childWorkflow, generateWorkflow } from '../generate.js';
import { ratioRow, type Row } from '../row.js';
import { interleave, summarise } from '../stats.js';

export interface ValidateOptions {
  /** The repository root (schemas/workflow-schema.json is read from there). */
  readonly root: string;
  readonly states: number;
  readonly runs: number;
  /** Report p50 only, without a target (the scaling rows). */
  readonly informative?: boolean;
}

export async function measureValidate(opts: ValidateOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'stategate-bench-validate-'));
  try {
    mkdirSync(dir, { recursive: true });
    const generated = generateWorkflow(opts.states);
    const file = join(dir, 'big.workflow.json');
    writeFileSync(file, generated.text);
    writeFileSync(join(dir, 'child.json'), childWorkflow());

    const first = checkWorkflowFile(generated.text, file);
    const errors = first.diagnostics.filter((d) => d.severity !== 'info');
    if (errors.length) throw new Error(`generated workflow does not validate cleanly: ${errors[0]?.code} ${errors[0]?.message}`);

    const schema = JSON.parse(readFileSync(resolve(opts.root, 'schemas', 'workflow-schema.json'), 'utf8')) as object;
    const ls = getLanguageService({});
    ls.configure({ validate: true, allowComments: false, schemas: [{ uri: 'file:///bench/workflow-schema.json', fileMatch: ['*.json'], schema }] });
    let version = 0;
    const baseline = async (): Promise<number> => {
      // A new document version each time, as after an edit: nothing cached per document.
      const doc = TextDocument.create(`file:///bench/big.workflow.json`, 'json', ++version, generated.text);
      const t0 = performance.now();
      const parsed = ls.parseJSONDocument(doc);
      await ls.doValidation(doc, parsed, { schemaValidation: 'error' }, schema);
      return performance.now() - t0;
    };
    const subject = (): number => {
      const t0 = performance.now();
      checkWorkflowFile(generated.text, file);
      return performance.now() - t0;
    };
    // Warm both (JIT, schema compilation, the registry's parse of the child).
    await interleave(Math.max(5, Math.floor(opts.runs / 5)), subject, baseline);
    const [ours, theirs] = await interleave(opts.runs, subject, baseline);
    const s = summarise(ours);
    const b = summarise(theirs);
    const measure = `validate ${generated.states}-state workflow (${Math.round(generated.text.length / 1024)} KB)`;
    const baselineName = 'vscode-json-languageservice, same schema';
    if (opts.informative) {
      return [ratioRow({ measure, stat: 'p50', unit: 'ms', value: s.p50, baseline: b.p50, baselineName, target: '(informative)', note: `${opts.runs} runs each, interleaved` })];
    }
    return [
      ratioRow({ measure, stat: 'p50', unit: 'ms', value: s.p50, baseline: b.p50, baselineName, target: '≤ 20 ms and ≤ 0.5× (2× faster)', pass: s.p50 <= 20 && s.p50 <= 0.5 * b.p50 }),
      ratioRow({ measure, stat: 'p95', unit: 'ms', value: s.p95, baseline: b.p95, baselineName, target: '(informative)', note: `${opts.runs} runs each, interleaved` }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
