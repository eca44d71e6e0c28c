/**
 * What a file is, and the loader for a workflow file: Statewright JSON,
 * AGENT-33 statecharts and FlowState flows (YAML or JSON) load, and registry
 * manifests (`manifest.json`) are recognised so they are checked as what they
 * are (check.ts) instead of as workflows missing their states.
 */
import * as path from 'node:path';
import type { Diagnostic, Workflow, WorkflowFormat } from '../model/index.js';
import type { JsonNode } from './jsonc.js';
import { MANIFEST_FILE, registryShape } from './registry-manifest.js';
import { loadFlow } from './flow.js';
import { loadStatechart } from './statechart.js';
import { loadStatewright } from './statewright.js';

/** A workflow format, or a workflow registry manifest. */
export type FileFormat = WorkflowFormat | 'registry';

export interface LoadedText {
  readonly format: FileFormat;
  readonly workflow?: Workflow;
  readonly diagnostics: Diagnostic[];
  /** The parsed JSON tree, for JSON formats. */
  readonly root?: JsonNode;
}

/** The format a file is in, from its name first and then (for JSON) its top-level keys. */
export function detectFormat(text: string, file?: string): FileFormat {
  const name = (file ?? '').toLowerCase();
  if (/\.statechart\.(ya?ml|json)$/.test(name)) return 'statechart';
  if (/\.flow\.(ya?ml|json)$/.test(name)) return 'flow';
  // A JSON statechart names itself by its top key, whatever the file is called.
  if (/^\s*\{\s*"statechart"\s*:/.test(text)) return 'statechart';
  // So does a YAML one read without its file name (a run re-reads its definition text); one line per repetition, no backtracking.
  if (file === undefined && /^\ufeff?(?:[ \t]*(?:#[^\r\n]*)?\r?\n)*(?:---[ \t]*\r?\n)?statechart[ \t]*:/.test(text)) return 'statechart';
  if (isRegistryManifest(text, file)) return 'registry';
  return 'statewright';
}

/**
 * A registry manifest: a file named manifest.json that is not a workflow (so a
 * broken one is still reported as a manifest), or any JSON whose top level has
 * `workflows` and no `states`.
 */
function isRegistryManifest(text: string, file: string | undefined): boolean {
  const named = file !== undefined && path.basename(file) === MANIFEST_FILE;
  if (!named && !text.includes('"workflows"')) return false; // every ordinary workflow stops here, unparsed
  const shape = registryShape(text);
  return shape === 'registry' || (named && shape !== 'workflow');
}

/**
 * Whether an editor shows a document's problems as a registry manifest: named
 * manifest.json and shaped like one. Other tools' manifest.json files (web app
 * and browser extension manifests) have no top-level `workflows` and stay quiet.
 */
export function isRegistryManifestDocument(text: string, file: string): boolean {
  return path.basename(file) === MANIFEST_FILE && registryShape(text) === 'registry';
}

/**
 * Whether invoke resolution reads a folder's manifest.json as a registry:
 * when it is shaped like one, or too broken to tell (then it is reported,
 * never taken as empty). Other tools' manifest.json files (well-formed, with
 * no `workflows`) and workflows called manifest.json register nothing.
 */
export function isInvokeRegistry(text: string): boolean {
  const shape = registryShape(text);
  return shape === 'registry' || shape === 'unparsable';
}

export function loadWorkflowText(text: string, file?: string): LoadedText {
  const format = detectFormat(text, file);
  if (format === 'statewright') return { format, ...loadStatewright(text, file === undefined ? {} : { file }) };
  if (format === 'statechart') return { format, ...loadStatechart(text, file === undefined ? {} : { file }) };
  if (format === 'flow') return { format, ...loadFlow(text, file === undefined ? {} : { file }) };
  return { format, diagnostics: [{ severity: 'error', ...notAWorkflow(format), loc: { pointer: '', start: 0, end: 0 } }] };
}

function notAWorkflow(_format: 'registry'): { code: string; message: string } {
  return {
    code: 'not-a-workflow',
    message: 'This is a workflow registry manifest (`{"workflows": [{"name", "file"}]}`), not a workflow: use one of the workflow files it registers.',
  };
}
