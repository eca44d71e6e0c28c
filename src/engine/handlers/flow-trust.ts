/**
 * Whether a person trusts a flow as it is now, and recording that they do.
 *
 * What is trusted of a flow file is its text with the custom tool registry it
 * sees (formats/flow-trust-text.ts). A flow also runs the sub-flows it names,
 * files of the workspace the gated agent may write: so trusting a flow is
 * trusting it and every sub-flow it names by a plain path (recursively), each
 * recorded on its own in the one trust store, and a run started from that
 * trust loads each file only as trusted (flow/load.ts, TrustCheck). A sub-flow
 * named through a variable is not known until its state runs: it needs a
 * person's trust of its own (`stategate trust FILE`).
 *
 * VS Code's first-run question asks this, `stategate trust FILE` and a chart's
 * flow handler record the same parts, so a flow trusted on one surface is
 * trusted on the others, and a changed registry or sub-flow makes it
 * untrusted for all.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findFlowToolRegistry, type RegistryLookup } from '../formats/flow-tool-registry.js';
import { flowTrustText } from '../formats/flow-trust-text.js';
import { loadWorkflowText } from '../formats/index.js';
import { staticSubFlowFiles } from '../flow/load.js';
import type { TrustCheck } from '../flow/types.js';
import { trustContent, trustState, type TrustState } from './trust-store.js';

/** One file of what is trusted: the flow itself, or a sub-flow it names. */
export interface FlowTrustPart {
  /** Absolute. */
  readonly file: string;
  /** What is trusted of it (its text with its registry's). */
  readonly text: string;
  readonly state: TrustState;
}

export interface FlowTrust {
  /** `trusted` when every part is; `untrusted` when the flow itself never was; else `changed`. */
  readonly state: TrustState;
  /** What is trusted of the flow file itself: start the run with this (TrustCheck.expectedText). */
  readonly text: string;
  /** The registry read for it: the custom tools the question shows are the ones trusted. */
  readonly tools: RegistryLookup;
  /** The flow first, then each sub-flow it names by a plain path (each once), as read now. */
  readonly parts: readonly FlowTrustPart[];
}

/** `dir` is the workspace's `.stategate` folder; `content` the flow file's text as it will run. */
export function flowTrust(dir: string, file: string, content: string): FlowTrust {
  const top = path.resolve(file);
  const tools = findFlowToolRegistry(top);
  const text = flowTrustText(content, tools);
  const parts: FlowTrustPart[] = [{ file: top, text, state: trustState(dir, top, text) }];
  addSubFlows(dir, top, content, parts);
  const state: TrustState = parts.every((p) => p.state === 'trusted') ? 'trusted' : parts[0]!.state === 'untrusted' ? 'untrusted' : 'changed';
  return { state, text, tools, parts };
}

/** The sub-flows `file` (with `content`) names by a plain path, recursively, appended to `parts` (each file once). */
function addSubFlows(dir: string, file: string, content: string, parts: FlowTrustPart[]): void {
  const workflow = loadWorkflowText(content, file).workflow;
  if (!workflow || workflow.format !== 'flow') return;
  for (const child of staticSubFlowFiles(workflow, file)) {
    if (parts.some((p) => p.file === child)) continue;
    let childContent: string;
    try {
      childContent = fs.readFileSync(child, 'utf8');
    } catch {
      continue; // a missing sub-flow is refused when the flow is loaded to run; there is nothing to trust
    }
    const text = flowTrustText(childContent, findFlowToolRegistry(child));
    parts.push({ file: child, text, state: trustState(dir, child, text) });
    addSubFlows(dir, child, childContent, parts);
  }
}

/** Records that a person trusts the flow as `trust` read it: the flow and each sub-flow, each by its own text; returns the flow's hash. */
export function trustFlow(dir: string, trust: FlowTrust): string {
  const hashes = trust.parts.map((p) => trustContent(dir, p.file, p.text));
  return hashes[0]!;
}

/** The files of `trust` a person has not trusted as they are now (relative to `base` when inside it). */
export function untrustedParts(trust: FlowTrust, base: string): string[] {
  return trust.parts.filter((p) => p.state !== 'trusted').map((p) => path.relative(base, p.file) || path.basename(p.file));
}

/** What a run started from `trust` (the person's yes) checks every file it loads by (flow/load.ts). */
export function flowTrustCheck(dir: string, trust: FlowTrust): TrustCheck {
  return { expectedText: trust.text, trusts: (file, text) => trustState(dir, file, text) === 'trusted' };
}
