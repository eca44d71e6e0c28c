/** How the text exports name states and quote text. */
import type { GraphEdge } from './graph.js';

/** Identifiers every format accepts: letters, digits and underscores. */
export function safeId(state: string): string {
  return `s_${state.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

/** A state's caption in Mermaid and PlantUML: a double-quoted string with no double quote inside (neither format has an escape for it). */
export function quotedCaption(text: string): string {
  return JSON.stringify(text.replace(/["“”]/g, "'"));
}

export function edgeLabel(e: GraphEdge): string {
  return e.approval ? `${e.label} (approval)` : e.label;
}
