/**
 * What an invoke's `src` names: `agent:<name>` (a task handed to an agent),
 * `statechart:<id>[@version]` (a child machine, through the machine registry
 * and the workspace's chart ids), `handler:<name>` (an entry of the chart's
 * `handlers:` table, run by the host: docs/statechart-handlers.md),
 * `flow:<file>` (a FlowState flow run to its end, the file relative to the
 * chart), or any other string: a service from the chart's or the
 * workspace's service table.
 */
export type SrcRef =
  | { readonly kind: 'agent'; readonly name: string }
  | { readonly kind: 'statechart'; readonly id: string; readonly version?: string }
  | { readonly kind: 'handler'; readonly name: string }
  | { readonly kind: 'flow'; readonly file: string }
  | { readonly kind: 'service'; readonly name: string };

export const AGENT_PREFIX = 'agent:';
export const STATECHART_PREFIX = 'statechart:';
export const HANDLER_PREFIX = 'handler:';
export const FLOW_PREFIX = 'flow:';

export function parseSrc(src: string): SrcRef {
  if (src.startsWith(AGENT_PREFIX)) return { kind: 'agent', name: src.slice(AGENT_PREFIX.length) };
  if (src.startsWith(HANDLER_PREFIX)) return { kind: 'handler', name: src.slice(HANDLER_PREFIX.length) };
  if (src.startsWith(FLOW_PREFIX)) return { kind: 'flow', file: src.slice(FLOW_PREFIX.length) };
  if (src.startsWith(STATECHART_PREFIX)) {
    const rest = src.slice(STATECHART_PREFIX.length);
    const at = rest.lastIndexOf('@');
    return at < 0 ? { kind: 'statechart', id: rest } : { kind: 'statechart', id: rest.slice(0, at), version: rest.slice(at + 1) };
  }
  return { kind: 'service', name: src };
}

/** Whether the host runs this invocation itself (a handler or a flow): nobody completes it by `run done|fail`. */
export function isHostRun(src: string): boolean {
  return src.startsWith(HANDLER_PREFIX) || src.startsWith(FLOW_PREFIX);
}
