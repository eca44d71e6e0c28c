/**
 * A flow file read and checked before any of it runs: a missing file,
 * malformed YAML, a file that is not a flow, any error diagnostic of
 * `stategate validate`, and a `file()` output that leaves the workspace
 * (symlinks included) are refused with a FlowError, nothing written. Sub-flows
 * whose `workflow` is a plain path (no `{{ }}`) are checked the same way up
 * front; a templated one is checked when its state runs.
 *
 * A run started from a person's trust (VS Code's Run Flow, a chart's flow
 * handler: a TrustCheck) loads only what that person trusted: the top flow's
 * text exactly as allowed, and every sub-flow as a person trusted it on its
 * own (trusting a flow records its plainly named sub-flows too:
 * handlers/flow-trust.ts). A sub-flow is a file of the workspace, which the
 * gated agent may write; without this a flow allowed once would run whatever
 * an agent later wrote into a file it names, with the person's permissions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckResult } from '../check/check-file.js';
import { detectFormat } from '../formats/index.js';
import { findFlowToolRegistry, type CustomFlowTool, type RegistryLookup } from '../formats/flow-tool-registry.js';
import { flowTrustText } from '../formats/flow-trust-text.js';
import type { FlowOutput, Workflow } from '../model/index.js';
import { offsetToPosition } from '../formats/text-position.js';
import { refusedOutputs } from './outputs.js';
import { FlowError, type TrustCheck } from './types.js';

/** check-file.ts (ajv's compiled schema and the rules) loads only when a flow is started, as in runs/runner.ts. */
function checkWorkflowFile(text: string, file: string, flowTools: RegistryLookup): CheckResult {
  return (require('../check/check-file.js') as typeof import('../check/check-file.js')).checkWorkflowFile(text, file, { flowTools });
}

export interface LoadedFlow {
  readonly workflow: Workflow;
  /** Absolute. */
  readonly file: string;
  /** The custom tools (.stategate/flow-tools.yaml) its states may name, as validated with it. */
  readonly tools?: ReadonlyMap<string, CustomFlowTool>;
}

/**
 * `file` (absolute, or relative to `base`) read, validated, its outputs checked against `workspace`;
 * with `trust`, refused unless the text read, with the registry read, is what a person trusted
 * (formats/flow-trust-text.ts): exactly `trust.expectedText` when given, else a text `trust.trusts`.
 */
export function loadFlowFile(file: string, base: string, workspace: string, trust?: TrustCheck): LoadedFlow {
  const abs = path.resolve(base, file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FlowError(code === 'ENOENT' ? 'not_found' : 'io', `cannot read flow ${file}${abs === file ? '' : ` (${abs})`}: ${code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message)}`);
  }
  // Read once, so the tools that run are the ones the flow was validated against (and trusted with).
  const registry = findFlowToolRegistry(abs);
  if (trust) {
    const what = registry.kind === 'none' ? file : `${file} or its custom tool registry (${registry.file})`;
    const trustText = flowTrustText(text, registry);
    if (trust.expectedText !== undefined && trustText !== trust.expectedText) {
      throw new FlowError('changed', `${what} changed after it was trusted, so it was not run; a person reads it and trusts it again (\`stategate trust ${file}\`)`);
    }
    if (trust.expectedText === undefined && !trust.trusts(abs, trustText)) {
      throw new FlowError(
        'untrusted',
        `${what} is not trusted as it is now (it changed since a person trusted the flow that runs it, or was never trusted), so it was not run; a person reads it and trusts it (\`stategate trust ${file}\`, or Run Flow in VS Code)`,
      );
    }
  }
  if (detectFormat(text, abs) !== 'flow') {
    throw new FlowError('not_a_flow', `${file} is not a flow: a flow has \`start-at\` and states with \`tool\` (in a *.yaml, *.yml or *.json file; *.flow.yaml names one), and workflows run with \`stategate run start\``);
  }
  const check = checkWorkflowFile(text, abs, registry);
  const errors = check.diagnostics.filter((d) => d.severity === 'error');
  if (!check.workflow || errors.length) {
    const details = errors.map((d) => {
      const at = offsetToPosition(text, d.loc.start);
      return `${file}:${at.line + 1}:${at.character + 1}: ${d.message}`;
    });
    throw new FlowError(
      'invalid_flow',
      `${file} has ${errors.length || 1} error(s), so it was not run; first: ${details[0] ?? 'it is not a flow'} (\`stategate validate ${file}\` lists them)`,
      details,
    );
  }
  const refused = refusedOutputs(workspace, flowOutputs(check.workflow));
  if (refused.length) throw new FlowError('invalid_flow', `${file}: ${refused[0]}; the run is refused and nothing was written`, refused);
  return registry.kind === 'ok' ? { workflow: check.workflow, file: abs, tools: registry.registry.tools } : { workflow: check.workflow, file: abs };
}

/**
 * The flow and every sub-flow it names by a plain path, recursively (each file once). With `trust`, the
 * top flow is checked by it as given, each sub-flow by what a person trusted of it on its own.
 */
export function loadFlowTree(file: string, base: string, workspace: string, seen = new Set<string>(), trust?: TrustCheck): LoadedFlow {
  const loaded = loadFlowFile(file, base, workspace, trust);
  seen.add(loaded.file);
  const childTrust = subFlowTrust(trust);
  for (const childAbs of staticSubFlowFiles(loaded.workflow, loaded.file)) {
    if (!seen.has(childAbs)) loadFlowTree(childAbs, path.dirname(loaded.file), workspace, seen, childTrust);
  }
  return loaded;
}

/** What a sub-flow is checked by in a trusted run: a person's trust of it on its own (never the top flow's exact text). */
export function subFlowTrust(trust: TrustCheck | undefined): TrustCheck | undefined {
  return trust && { trusts: trust.trusts };
}

/** The sub-flows `workflow` (the flow in `file`) names by a plain path (no `{{ }}`), as absolute paths, in state order. */
export function staticSubFlowFiles(workflow: Workflow, file: string): string[] {
  const out: string[] = [];
  for (const s of workflow.states.values()) {
    const child = s.flow?.tool === 'sub-flow' ? s.flow.arguments.workflow : undefined;
    if (typeof child !== 'string' || child.includes('{{')) continue;
    const abs = path.resolve(path.dirname(file), child);
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}

/** Every `output` of the flow, its states' and its inline parallel tasks'. */
function flowOutputs(wf: Workflow): (FlowOutput | undefined)[] {
  const out: (FlowOutput | undefined)[] = [];
  for (const s of wf.states.values()) {
    out.push(s.flow?.output);
    for (const t of s.flow?.tasks ?? []) if (t.kind === 'call') out.push(t.output);
  }
  return out;
}
