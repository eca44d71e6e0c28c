/** A statechart document for the language service's tests: the e2e fixture chart in YAML, or the same chart as JSON. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { checkWorkflowFile } from '../../../src/engine/check/check-file.js';
import type { ChartDocument } from '../../../src/engine/language/index.js';

const DIR = path.join(__dirname, '..', '..', 'e2e', 'fixtures', 'statechart-authoring', 'workspace');

export function chartDoc(text: string, file: string): ChartDocument {
  const workflow = checkWorkflowFile(text, file, { resolveSrc: false }).workflow;
  return workflow ? { text, file, workflow } : { text, file };
}

/** `feature.statechart.yaml` (nested, parallel, actions, context), as written or as JSON. */
export function featureChart(form: 'yaml' | 'json' = 'yaml'): ChartDocument {
  const yaml = fs.readFileSync(path.join(DIR, 'feature.statechart.yaml'), 'utf8');
  return form === 'yaml' ? chartDoc(yaml, 'feature.statechart.yaml') : chartDoc(JSON.stringify(parse(yaml), null, 2), 'feature.statechart.json');
}

/** The offset of the `nth` occurrence of `needle`, plus `delta`. */
export function at(text: string, needle: string, delta = 0, nth = 0): number {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`${needle} (#${nth}) not in the text`);
  }
  return i + delta;
}
