/**
 * What an invoke's `src` names: `agent:<name>` (a task handed to an agent),
 * `statechart:<id>[@version]` (a child machine, through the machine registry
 * and the workspace's chart ids), or any other string: a service from the
 * chart's or the workspace's service table.
 */
export type SrcRef =
  | { readonly kind: 'agent'; readonly name: string }
  | { readonly kind: 'statechart'; readonly id: string; readonly version?: string }
  | { readonly kind: 'service'; readonly name: string };

export const AGENT_PREFIX = 'agent:';
export const STATECHART_PREFIX = 'statechart:';

export function parseSrc(src: string): SrcRef {
  if (src.startsWith(AGENT_PREFIX)) return { kind: 'agent', name: src.slice(AGENT_PREFIX.length) };
  if (src.startsWith(STATECHART_PREFIX)) {
    const rest = src.slice(STATECHART_PREFIX.length);
    const at = rest.lastIndexOf('@');
    return at < 0 ? { kind: 'statechart', id: rest } : { kind: 'statechart', id: rest.slice(0, at), version: rest.slice(at + 1) };
  }
  return { kind: 'service', name: src };
}
