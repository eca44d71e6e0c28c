/**
 * One call for "is this workflow file right?": parse + schema + semantic rules,
 * diagnostics sorted by position. The CLI's `validate` and the editor use it.
 */
import { loadWorkflowText } from './formats/index.js';
import type { Diagnostic, InvokeResolver, Workflow, WorkflowFormat } from './model.js';
import { WorkflowRegistry } from './registry.js';
import { validateWorkflow } from './validate.js';

export interface CheckResult {
  readonly format: WorkflowFormat;
  readonly workflow?: Workflow;
  readonly diagnostics: Diagnostic[];
}

export interface CheckOptions {
  /**
   * How invokes are resolved. Default: the workflows beside `file` and in
   * `.stategate/workflows/` (read from disk). `false`: invokes are not checked.
   */
  readonly resolveInvoke?: InvokeResolver | false;
}

/** Shared so repeated checks (an editor on every keystroke) reuse parsed sibling files. */
const defaultRegistry = new WorkflowRegistry();

export function checkWorkflowFile(text: string, file: string, opts: CheckOptions = {}): CheckResult {
  const loaded = loadWorkflowText(text, file);
  const diagnostics = [...loaded.diagnostics];
  if (loaded.workflow) {
    const resolveInvoke = opts.resolveInvoke === undefined ? defaultRegistry.resolverFor(file) : opts.resolveInvoke;
    diagnostics.push(...validateWorkflow(loaded.workflow, { file, ...(resolveInvoke ? { resolveInvoke } : {}) }));
  }
  const sorted = sortDiagnostics(diagnostics);
  return loaded.workflow ? { format: loaded.format, workflow: loaded.workflow, diagnostics: sorted } : { format: loaded.format, diagnostics: sorted };
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => a.loc.start - b.loc.start || a.loc.end - b.loc.end || a.code.localeCompare(b.code));
}
