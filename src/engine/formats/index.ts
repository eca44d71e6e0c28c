/**
 * What a file is, and the loader for a workflow file: Statewright JSON,
 * AGENT-33 statecharts and FlowState flows (YAML or JSON) load, and registry
 * manifests (`manifest.json`) are recognised so they are checked as what they
 * are (check/check-file.ts) instead of as workflows missing their states.
 */
import * as path from 'node:path';
import type { Diagnostic, Workflow, WorkflowFormat } from '../model/index.js';
import type { JsonNode } from './jsonc.js';
import { MANIFEST_FILE, registryShape } from './registry-manifest.js';
import { loadFlow } from './flow.js';
import { loadStatechart } from './statechart.js';
import { loadStatewright } from './statewright.js';
import { looksLikeJson, sniffFormat } from './format-sniff.js';
import { fileKind } from './file-kinds.js';
import { yamlSizeError } from './yaml-size.js';

export { sniffFormat } from './format-sniff.js';
export { findFlowToolRegistry, FLOW_TOOLS_FILE, isFlowToolRegistryFile, loadFlowToolRegistry, type CustomFlowTool, type FlowToolRegistry, type RegistryLookup } from './flow-tool-registry.js';

/** A workflow format, or a workflow registry manifest. */
export type FileFormat = WorkflowFormat | 'registry';

export interface LoadedText {
  readonly format: FileFormat;
  readonly workflow?: Workflow;
  readonly diagnostics: Diagnostic[];
  /** The parsed JSON tree, for JSON formats. */
  readonly root?: JsonNode;
}

/**
 * The format a file is in. A typed name (`*.statechart.*`, `*.flow.*`) says
 * it; otherwise the content does (format-sniff.ts): a plain `review.yaml` with
 * a `statechart:` root is a statechart. JSON that names no format stays a
 * Statewright workflow, as the reference names its workflows freely (so a
 * broken one still gets the workflow diagnostics); loadWorkflowText reports a
 * YAML file that is none of ours, and a typed name whose content is another format.
 */
export function detectFormat(text: string, file?: string): FileFormat {
  const typed = fileKind(file);
  if (typed === 'statechart' || typed === 'flow') return typed;
  // A JSON statechart names itself by its top key, whatever the file is called.
  if (/^\s*\{\s*"statechart"\s*:/.test(text)) return 'statechart';
  // So does a YAML one read without its file name (a run re-reads its definition text); one line per repetition, no backtracking.
  if (file === undefined && /^\ufeff?(?:[ \t]*(?:#[^\r\n]*)?\r?\n)*(?:---[ \t]*\r?\n)?statechart[ \t]*:/.test(text)) return 'statechart';
  if (isRegistryManifest(text, file)) return 'registry';
  if (typed === 'statewright') return typed;
  // JSON is sniffed only when a key of another format appears (a run's definition, re-read on every hook call, is not parsed twice).
  if (looksLikeJson(text, file) && !/"(statechart|start-at)"\s*:/.test(text)) return 'statewright';
  return sniffFormat(text, file) ?? 'statewright';
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
  if (format === 'registry') return { format, diagnostics: [{ severity: 'error', ...notAWorkflow(format), loc: { pointer: '', start: 0, end: 0 } }] };
  // A YAML text too long to read (yaml-size.ts) is that one error, not also "not a workflow" for want of a tree.
  const tooLong = looksLikeJson(text, file) ? undefined : yamlSizeError(text);
  if (tooLong) return { format, diagnostics: [tooLong] };
  const problem = formatProblem(format, text, file);
  if (problem) return { format, diagnostics: [{ severity: 'error', ...problem, loc: { pointer: '', start: 0, end: 0 } }] };
  if (format === 'statewright') return { format, ...loadStatewright(text, file === undefined ? {} : { file }) };
  if (format === 'statechart') return { format, ...loadStatechart(text, file === undefined ? {} : { file }) };
  return { format, ...loadFlow(text, file === undefined ? {} : { file }) };
}

const FORMAT_NAMES: Record<WorkflowFormat, string> = {
  statechart: 'a statechart (a `statechart:` root)',
  flow: 'a flow (`start-at` and states with `tool`)',
  statewright: 'a Statewright workflow (`initial` and `states`)',
};

/**
 * A file whose name and content disagree, or a YAML file that is no workflow:
 * said plainly, instead of the loader's many findings about fields the file
 * was never meant to have.
 */
function formatProblem(format: WorkflowFormat, text: string, file: string | undefined): { code: string; message: string } | undefined {
  if (file === undefined) return undefined;
  const typed = fileKind(file);
  const content = typed !== undefined || !looksLikeJson(text, file) ? sniffFormat(text, file) : format;
  if (typed !== undefined && content !== undefined && content !== typed) {
    return {
      code: 'format-mismatch',
      message: `This file is named as ${FORMAT_NAMES[typed]}, but its content is ${FORMAT_NAMES[content]}: rename it (a plain \`.yaml\`, \`.yml\` or \`.json\` name is read by its content).`,
    };
  }
  if (typed === undefined && content === undefined && !/^\s*$/.test(text)) {
    return {
      code: 'not-a-workflow',
      message: `This file is not a workflow stategate reads: by its content a file is ${Object.values(FORMAT_NAMES).join(', or ')}; a name such as \`*.statechart.yaml\`, \`*.flow.yaml\` or \`*.workflow.json\` says so too.`,
    };
  }
  return undefined;
}

function notAWorkflow(_format: 'registry'): { code: string; message: string } {
  return {
    code: 'not-a-workflow',
    message: 'This is a workflow registry manifest (`{"workflows": [{"name", "file"}]}`), not a workflow: use one of the workflow files it registers.',
  };
}
