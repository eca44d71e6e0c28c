/**
 * One call for "is this file right?": parse + schema + semantic rules,
 * diagnostics sorted by position. The CLI's `validate` and the editor use it
 * (`checkFile`, for workflows and registry manifests alike).
 */
import { ChartRegistry } from '../formats/chart-registry.js';
import { detectFormat, loadWorkflowText, type FileFormat } from '../formats/index.js';
import { loadRegistryManifest } from '../formats/registry-manifest.js';
import { findFlowToolRegistry, isFlowToolRegistryFile, loadFlowToolRegistry, type RegistryLookup } from '../formats/flow-tool-registry.js';
import type { ChartSrcResolver, Diagnostic, InvokeResolver, Workflow } from '../model/index.js';
import { WorkflowRegistry } from '../formats/registry.js';
import { schemaDiagnostics } from '../schema/index.js';
import flowValidator from '../schema/flow-validator.generated.js';
import statechartValidator from '../schema/statechart-validator.generated.js';
import { validateChart } from './chart.js';
import { validateFlow } from './flow-rules.js';
import { validateWorkflow } from './rules.js';
import { manifestRules } from './manifest-rules.js';

export interface CheckResult {
  readonly format: FileFormat;
  readonly workflow?: Workflow;
  readonly diagnostics: Diagnostic[];
}

export interface CheckOptions {
  /**
   * How invokes are resolved. Default: the workflows beside `file` and in
   * `.stategate/workflows/` (read from disk). `false`: invokes are not checked.
   */
  readonly resolveInvoke?: InvokeResolver | false;
  /**
   * Statecharts: how `statechart:` and service `src` names are looked up beyond
   * the chart. Default: `.stategate/registry.yaml` and the charts beside `file`
   * and in `.stategate/workflows/`. `false`: only the chart's own registry and services.
   */
  readonly resolveSrc?: ChartSrcResolver | false;
  /** Flows: the custom tools they may name. Default: the nearest `.stategate/flow-tools.yaml` above `file`. */
  readonly flowTools?: RegistryLookup;
}

/** Shared so repeated checks (an editor on every keystroke) reuse parsed sibling files. */
const defaultRegistry = new WorkflowRegistry();
const defaultChartRegistry = new ChartRegistry();

/** A workflow or a registry manifest, each checked as what it is. */
export function checkFile(text: string, file: string, opts: CheckOptions = {}): CheckResult {
  if (isFlowToolRegistryFile(file)) return { format: 'registry', diagnostics: sortDiagnostics(loadFlowToolRegistry(text).diagnostics) };
  return detectFormat(text, file) === 'registry' ? checkRegistryManifest(text, file) : checkWorkflowFile(text, file, opts);
}

/** A workflow file (a registry manifest given here is reported as not a workflow). */
export function checkWorkflowFile(text: string, file: string, opts: CheckOptions = {}): CheckResult {
  const loaded = loadWorkflowText(text, file);
  const diagnostics = [...loaded.diagnostics];
  if (loaded.workflow?.format === 'flow') {
    diagnostics.push(...validateFlow(loaded.workflow, { text, tools: opts.flowTools ?? findFlowToolRegistry(file) }));
  } else if (loaded.workflow?.format === 'statechart') {
    const resolveSrc = opts.resolveSrc === undefined ? defaultChartRegistry.resolverFor(file) : opts.resolveSrc;
    diagnostics.push(...validateChart(loaded.workflow, { file, ...(resolveSrc ? { resolveSrc } : {}) }));
  } else if (loaded.workflow) {
    const resolveInvoke = opts.resolveInvoke === undefined ? defaultRegistry.resolverFor(file) : opts.resolveInvoke;
    diagnostics.push(...validateWorkflow(loaded.workflow, { file, ...(resolveInvoke ? { resolveInvoke } : {}) }));
  }
  diagnostics.push(...schemaFindings(loaded.format, loaded.root, diagnostics));
  const sorted = sortDiagnostics(diagnostics);
  return loaded.workflow ? { format: loaded.format, workflow: loaded.workflow, diagnostics: sorted } : { format: loaded.format, diagnostics: sorted };
}

/** A registry manifest: its shape, then what its entries point at (manifest-rules.ts). */
export function checkRegistryManifest(text: string, file: string): CheckResult {
  const loaded = loadRegistryManifest(text);
  const diagnostics = [...loaded.diagnostics];
  if (loaded.manifest) diagnostics.push(...manifestRules(loaded.manifest, file, { registry: defaultRegistry, checkWorkflow: (t, f) => checkWorkflowFile(t, f) }));
  return { format: 'registry', diagnostics: sortDiagnostics(diagnostics) };
}

/**
 * Schema findings the loader and the rules have not already reported. They
 * report most type and shape problems themselves (with better messages), at the
 * same JSON pointer, so a schema finding at a pointer already diagnosed is a
 * duplicate. With syntax errors the tree is partial and the schema would only
 * add noise about values that are not there.
 */
function schemaFindings(format: FileFormat, root: CheckRoot, others: readonly Diagnostic[]): Diagnostic[] {
  if (format === 'registry' || !root) return [];
  if (others.some((d) => d.code === 'json-syntax' || (d.code === 'yaml-syntax' && d.severity === 'error'))) return [];
  const diagnosed = new Set(others.map((d) => d.loc.pointer));
  const found = schemaDiagnostics(root, format === 'statechart' ? statechartValidator : format === 'flow' ? flowValidator : undefined);
  return found.filter((d) => !diagnosed.has(d.loc.pointer));
}

type CheckRoot = Parameters<typeof schemaDiagnostics>[0] | undefined;

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => a.loc.start - b.loc.start || a.loc.end - b.loc.end || a.code.localeCompare(b.code));
}
