/**
 * Picks the loader for a workflow file. Only the Statewright format loads for
 * now; statecharts and flows are recognised so the user is told plainly that
 * they are not supported yet rather than shown JSON errors.
 */
import type { Diagnostic, Workflow, WorkflowFormat } from '../model.js';
import type { JsonNode } from './jsonc.js';
import { loadStatewright } from './statewright.js';

export interface LoadedText {
  readonly format: WorkflowFormat;
  readonly workflow?: Workflow;
  readonly diagnostics: Diagnostic[];
  /** The parsed JSON tree, for JSON formats. */
  readonly root?: JsonNode;
}

/** The format a file is in, from its name first and then (for JSON) its top-level key. */
export function detectFormat(text: string, file?: string): WorkflowFormat {
  const name = (file ?? '').toLowerCase();
  if (/\.statechart\.(ya?ml|json)$/.test(name)) return 'statechart';
  if (/\.flow\.ya?ml$/.test(name)) return 'flow';
  // A JSON statechart names itself by its top key, whatever the file is called.
  if (/^\s*\{\s*"statechart"\s*:/.test(text)) return 'statechart';
  return 'statewright';
}

export function loadWorkflowText(text: string, file?: string): LoadedText {
  const format = detectFormat(text, file);
  if (format === 'statewright') return { format, ...loadStatewright(text, file === undefined ? {} : { file }) };
  const label = format === 'statechart' ? 'Statechart' : 'Flow';
  return {
    format,
    diagnostics: [
      {
        severity: 'error',
        code: 'unsupported-format',
        message: `${label} files (${format === 'statechart' ? '*.statechart.yaml/json' : '*.flow.yaml'}) are not supported yet; only Statewright workflow JSON loads for now.`,
        loc: { pointer: '', start: 0, end: 0 },
      },
    ],
  };
}
