/** How the text exports name states and quote text. */
import type { GraphEdge } from './graph.js';

/** Identifiers every format accepts: letters, digits and underscores. */
export function safeId(state: string): string {
  return `s_${state.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

/**
 * A state's caption in PlantUML: a double-quoted string with no double quote
 * inside (PlantUML has no escape for one; it also ends a caption at “ and ”).
 * PlantUML reads `\\` as a backslash and `\n` as a new line, which is what
 * JSON's escapes write.
 */
export function plantumlCaption(text: string): string {
  return JSON.stringify(text.replace(/["“”]/g, "'"));
}

/** A state's caption in Mermaid: one line, no double quote (Mermaid reads the text between the quotes as it is, with no escapes). */
export function mermaidCaption(text: string): string {
  return `"${text.replace(/"/g, "'").replace(/[\u0000-\u001f]+/g, ' ')}"`;
}

export function edgeLabel(e: GraphEdge): string {
  return e.approval ? `${e.label} (approval)` : e.label;
}
