/**
 * Text exports of a workflow diagram: Mermaid, Graphviz DOT and PlantUML.
 * (SVG comes from the panel's renderer, which lays the graph out.)
 */
import { workflowGraph, type GraphEdge } from './graph.js';
import type { Workflow } from '../model/index.js';

export type ExportFormat = 'mermaid' | 'dot' | 'plantuml';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['mermaid', 'dot', 'plantuml'];

/** Identifiers every format accepts: letters, digits and underscores. */
function safeId(state: string): string {
  return `s_${state.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

function edgeLabel(e: GraphEdge): string {
  return e.approval ? `${e.label} (approval)` : e.label;
}

function quote(text: string): string {
  return JSON.stringify(text);
}

function mermaid(wf: Workflow): string {
  const { nodes, edges } = workflowGraph(wf);
  const lines = ['stateDiagram-v2'];
  for (const n of nodes) lines.push(`  state ${quote(n.id)} as ${safeId(n.id)}`);
  lines.push(`  [*] --> ${safeId(wf.initial.name)}`);
  for (const e of edges) lines.push(`  ${safeId(e.from)} --> ${safeId(e.to)}: ${edgeLabel(e).replace(/[:;\n]/g, ' ')}`);
  for (const n of nodes) if (n.final) lines.push(`  ${safeId(n.id)} --> [*]`);
  return `${lines.join('\n')}\n`;
}

function dot(wf: Workflow): string {
  const { nodes, edges } = workflowGraph(wf);
  const lines = [`digraph ${quote(wf.id)} {`, '  rankdir=LR;', '  node [shape=box, style=rounded];', '  __start [shape=point];'];
  for (const n of nodes) {
    const attrs = [`label=${quote(n.id)}`];
    if (n.final) attrs.push('peripheries=2');
    if (n.interruptHandler) attrs.push('style="rounded,dashed"');
    lines.push(`  ${safeId(n.id)} [${attrs.join(', ')}];`);
  }
  lines.push(`  __start -> ${safeId(wf.initial.name)};`);
  for (const e of edges) {
    const attrs = [`label=${quote(edgeLabel(e))}`];
    if (e.kind === 'safe-next' || e.kind.endsWith('fail')) attrs.push('style=dashed');
    lines.push(`  ${safeId(e.from)} -> ${safeId(e.to)} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function plantuml(wf: Workflow): string {
  const { nodes, edges } = workflowGraph(wf);
  const lines = ['@startuml', `title ${wf.id}`];
  for (const n of nodes) lines.push(`state ${quote(n.id)} as ${safeId(n.id)}`);
  lines.push(`[*] --> ${safeId(wf.initial.name)}`);
  for (const e of edges) lines.push(`${safeId(e.from)} --> ${safeId(e.to)} : ${edgeLabel(e).replace(/\n/g, ' ')}`);
  for (const n of nodes) if (n.final) lines.push(`${safeId(n.id)} --> [*]`);
  lines.push('@enduml');
  return `${lines.join('\n')}\n`;
}

export function exportWorkflow(wf: Workflow, format: ExportFormat): string {
  switch (format) {
    case 'mermaid':
      return mermaid(wf);
    case 'dot':
      return dot(wf);
    case 'plantuml':
      return plantuml(wf);
  }
}
