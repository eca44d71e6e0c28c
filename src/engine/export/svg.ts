/**
 * A standalone SVG of a workflow, flat or nested, for `stategate export
 * --format svg`: the diagram tree (tree.ts) laid out by elkjs (layout.ts, the
 * panel's layout) and drawn with fixed light colours, each state filled with
 * its `meta.color`. Compound and parallel states are boxes around their
 * children (a region's border is dashed), `[*]` is a dot with an arrow to the
 * initial child, final states have a double border, history states are
 * circles captioned H / H*.
 */
import type { Workflow } from '../model/index.js';
import type { GraphEdge } from './graph.js';
import { layoutGraph, labelWidth, LABEL_HEIGHT, NODE_HEIGHT_PX, nodeWidth, titleLabel, type Box, type ElkEngine, type LayoutEdge, type LayoutNode, type LayoutResult } from './layout.js';
import { diagramTree, isContainer, textColorOn, type DiagramTree, type TreeNode } from './tree.js';
import { readableNames } from './state-names.js';

const START = '.start';
/** Layout ids of the `[*]` dots; no state id starts with a dot. */
const initialDot = (id: string): string => `.init:${id}`;
const DOT_PX = 12;
const HISTORY_PX = 30;
const INK = '#333333';
const FONT = 'Helvetica, Arial, sans-serif';

export async function exportSvg(wf: Workflow, elk: ElkEngine): Promise<string> {
  const tree = diagramTree(wf);
  const { nodes, edges } = layoutInput(tree);
  return drawSvg(tree, edges, await layoutGraph(elk, { nodes, edges }));
}

interface DrawnEdge extends LayoutEdge {
  readonly dashed: boolean;
}

function layoutInput(tree: DiagramTree): { nodes: LayoutNode[]; edges: DrawnEdge[] } {
  const dot = (id: string): LayoutNode => ({ id, width: DOT_PX, height: DOT_PX });
  const node = (id: string): LayoutNode => {
    const n = tree.nodes.get(id)!;
    if (isContainer(n)) return { id, label: titleLabel(n.label), children: [...(n.initial !== undefined ? [dot(initialDot(id))] : []), ...n.children.map(node)] };
    if (n.history) return { id, width: HISTORY_PX, height: HISTORY_PX };
    return { id, width: nodeWidth(n.label), height: NODE_HEIGHT_PX };
  };
  const edges: DrawnEdge[] = [];
  const plain = (from: string, to: string): void => void edges.push({ id: `i${edges.length}`, from, to, dashed: false });
  // A Statewright `initial` naming no state has nothing to point at.
  const initial = tree.initial !== undefined && tree.nodes.has(tree.initial) ? tree.initial : undefined;
  if (initial !== undefined) plain(START, initial);
  for (const n of tree.nodes.values()) if (isContainer(n) && n.initial !== undefined) plain(initialDot(n.id), n.initial);
  tree.edges.forEach((e, i) => {
    const label = e.approval ? `${e.label} (approval)` : e.label;
    edges.push({ id: `e${i}`, from: e.from, to: e.to, dashed: dashed(e), ...(label ? { label: { text: label, width: labelWidth(label), height: LABEL_HEIGHT } } : {}) });
  });
  return { nodes: [...(initial !== undefined ? [dot(START)] : []), ...tree.top.map(node)], edges };
}

function dashed(e: GraphEdge): boolean {
  return e.kind === 'safe-next' || e.kind.endsWith('-fail') || e.kind === 'fork-branch' || e.kind === 'history';
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `name="value"` pairs, values escaped; undefined values left out. */
function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}="${escapeXml(String(v))}"`)
    .join(' ');
}

const round = (v: number): number => Math.round(v * 10) / 10;

function drawSvg(tree: DiagramTree, edges: readonly DrawnEdge[], l: LayoutResult): string {
  const width = Math.ceil(l.width);
  const height = Math.ceil(l.height);
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg ${attrs({ xmlns: 'http://www.w3.org/2000/svg', width, height, viewBox: `0 0 ${width} ${height}`, 'font-family': FONT, 'font-size': 12 })}>`,
    `<title>${escapeXml(tree.id)}</title>`,
    `<defs><marker ${attrs({ id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' })}><path d="M0,0 L10,5 L0,10 z" fill="${INK}"/></marker></defs>`,
    `<rect ${attrs({ width: '100%', height: '100%', fill: '#ffffff' })}/>`,
  ];
  const at = (id: string): Box | undefined => l.nodes.get(id);
  // Tooltips name each state as a person reads it, not by its dotted id (state-names.ts).
  const names = readableNames(tree);
  const title = (n: TreeNode): string => `<title>${escapeXml(names.get(n.id) ?? n.label)}</title>`;
  // Containers first (outermost first), then the edges, then the states and dots on top.
  const containers: TreeNode[] = [];
  const leaves: TreeNode[] = [];
  const walk = (id: string): void => {
    const n = tree.nodes.get(id)!;
    (isContainer(n) ? containers : leaves).push(n);
    n.children.forEach(walk);
  };
  tree.top.forEach(walk);
  for (const n of containers) {
    const b = at(n.id);
    if (b) out.push(containerSvg(n, b, title(n)));
  }
  for (const e of edges) {
    const p = l.edges.get(e.id);
    if (!p) continue;
    const label = p.label && e.label ? `<text ${attrs({ x: round(p.label.x), y: round(p.label.y + p.label.height - 3), 'font-size': 10.5, fill: '#444444' })}>${escapeXml(e.label.text)}</text>` : '';
    const line = attrs({ d: p.d, fill: 'none', stroke: INK, 'stroke-width': 1.2, 'stroke-dasharray': e.dashed ? '5 3' : undefined, 'marker-end': 'url(#arrow)' });
    out.push(`<g class="transition" ${attrs({ 'data-from': e.from, 'data-to': e.to })}><path ${line}/>${label}</g>`);
  }
  for (const n of leaves) {
    const b = at(n.id);
    if (b) out.push(leafSvg(n, b, title(n)));
  }
  for (const id of [START, ...containers.map((n) => initialDot(n.id))]) {
    const b = at(id);
    if (b) out.push(`<circle ${attrs({ class: 'initial', cx: round(b.x + b.width / 2), cy: round(b.y + b.height / 2), r: b.width / 2 - 1, fill: INK })}/>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

function rect(b: Box, extra: Record<string, string | number | undefined>, inset = 0): string {
  return `<rect ${attrs({ x: round(b.x + inset), y: round(b.y + inset), width: round(b.width - 2 * inset), height: round(b.height - 2 * inset), rx: 8 - inset / 2, ...extra })}/>`;
}

function caption(n: TreeNode, x: number, y: number, anchor: 'start' | 'middle', bold: boolean): string {
  const fill = (n.color && textColorOn(n.color)) ?? '#222222';
  return `<text ${attrs({ x: round(x), y: round(y), 'text-anchor': anchor, 'dominant-baseline': 'central', fill, 'font-weight': bold ? 'bold' : undefined })}>${escapeXml(n.label)}</text>`;
}

function stateAttrs(n: TreeNode): string {
  return attrs({ class: `state ${n.region ? 'region' : n.kind}`, 'data-state': n.id });
}

function containerSvg(n: TreeNode, b: Box, title: string): string {
  // The chart root ('') is a frame, not a state: unfilled, dotted, so it never looks like a compound state.
  const root = n.id === '';
  const frame = rect(b, { fill: n.color ?? (n.region || root ? 'none' : '#fafafa'), stroke: INK, 'stroke-width': root ? 1 : 1.2, 'stroke-dasharray': root ? '2 3' : n.region ? '6 4' : undefined });
  return `<g ${stateAttrs(n)}>${title}${frame}${caption(n, b.x + 10, b.y + 13, 'start', true)}</g>`;
}

function leafSvg(n: TreeNode, b: Box, title: string): string {
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  const fill = n.color ?? '#ffffff';
  const shape = n.history
    ? `<circle ${attrs({ cx: round(cx), cy: round(cy), r: b.width / 2, fill, stroke: INK, 'stroke-width': 1.2 })}/>`
    : rect(b, { fill, stroke: INK, 'stroke-width': 1.2, 'stroke-dasharray': n.interruptHandler ? '5 3' : undefined }) +
      (n.kind === 'final' ? rect(b, { fill: 'none', stroke: INK, 'stroke-width': 1 }, 3) : '');
  return `<g ${stateAttrs(n)}>${title}${shape}${caption(n, cx, cy, 'middle', false)}</g>`;
}
