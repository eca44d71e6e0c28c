/**
 * One call for "is this workflow file right?": parse + schema + semantic rules,
 * diagnostics sorted by position. The CLI's `validate` and the editor use it.
 */
import { loadWorkflowText } from './formats/index.js';
import type { Diagnostic, Workflow, WorkflowFormat } from './model.js';

export interface CheckResult {
  readonly format: WorkflowFormat;
  readonly workflow?: Workflow;
  readonly diagnostics: Diagnostic[];
}

export function checkWorkflowFile(text: string, file: string): CheckResult {
  const loaded = loadWorkflowText(text, file);
  const diagnostics = sortDiagnostics([...loaded.diagnostics]);
  return loaded.workflow ? { format: loaded.format, workflow: loaded.workflow, diagnostics } : { format: loaded.format, diagnostics };
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => a.loc.start - b.loc.start || a.loc.end - b.loc.end || a.code.localeCompare(b.code));
}
