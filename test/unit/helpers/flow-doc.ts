/** A flow document for the language service's tests: the e2e fixture flow in YAML, or the same flow as JSON. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { checkWorkflowFile } from '../../../src/engine/check/check-file.js';
import type { FlowDocument } from '../../../src/engine/language/index.js';

export const FLOW_WORKSPACE = path.join(__dirname, '..', '..', 'e2e', 'fixtures', 'flow-authoring', 'workspace');

export function flowDoc(text: string, file: string): FlowDocument {
  const workflow = checkWorkflowFile(text, file).workflow;
  return workflow ? { text, file, workflow } : { text, file };
}

/** `release.flow.yaml` (variables, parallel, sub-flow, switch, templates), as written or as JSON. */
export function releaseFlow(form: 'yaml' | 'json' = 'yaml'): FlowDocument {
  const yaml = fs.readFileSync(path.join(FLOW_WORKSPACE, 'release.flow.yaml'), 'utf8');
  const file = path.join(FLOW_WORKSPACE, `release.flow.${form}`);
  return form === 'yaml' ? flowDoc(yaml, file) : flowDoc(JSON.stringify(parse(yaml), null, 2), file);
}
