/**
 * Whether a person trusts a flow as it is now: its text and the custom tool
 * registry it sees, read once (formats/flow-trust-text.ts says what is
 * trusted), against the one trust store. VS Code's first-run question asks
 * this, and `stategate trust FILE` records the same text, so a flow trusted in
 * a terminal is not asked about in VS Code, and a changed registry makes it
 * untrusted for both.
 */
import { findFlowToolRegistry, type RegistryLookup } from '../formats/flow-tool-registry.js';
import { flowTrustText } from '../formats/flow-trust-text.js';
import { trustState, type TrustState } from './trust-store.js';

export interface FlowTrust {
  readonly state: TrustState;
  /** What is trusted: record this (trustContent) when the person says yes, and run only this (startFlow's expectedText). */
  readonly text: string;
  /** The registry read for it: the custom tools the question shows are the ones trusted. */
  readonly tools: RegistryLookup;
}

/** `dir` is the workspace's `.stategate` folder; `content` the flow file's text as it will run. */
export function flowTrust(dir: string, file: string, content: string): FlowTrust {
  const tools = findFlowToolRegistry(file);
  const text = flowTrustText(content, tools);
  return { state: trustState(dir, file, text), text, tools };
}
