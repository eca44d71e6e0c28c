/**
 * What a person trusts when they trust a flow: the flow file's text and, when
 * the flow sees a custom tool registry (`.stategate/flow-tools.yaml`,
 * flow-tool-registry.ts), that registry's text, because a changed `command`
 * there changes what the flow runs. The trust store (handlers/trust-store.ts)
 * keeps the sha256 of this text.
 *
 * Every surface computes it here, so a flow trusted on one is trusted on the
 * others: VS Code's first-run question, `stategate trust FILE`, a chart's
 * flow handler, and the flow loader's check that what runs is what was
 * trusted (flow/load.ts). With no registry it is the flow's text alone, so a
 * record made before registries existed still holds.
 */
import type { RegistryLookup } from './flow-tool-registry.js';

/** The text whose hash says "a person trusts this flow with this registry". */
export function flowTrustText(content: string, tools: RegistryLookup): string {
  // An unreadable registry has no text: the flow's own text is what can be shown and trusted.
  const registry = tools.kind === 'none' ? undefined : tools.text;
  return registry === undefined ? content : `${content}\0.stategate/flow-tools.yaml\0${registry}`;
}
