/**
 * The workflow as a tree of states with labelled edges: what every export
 * (Mermaid, DOT, PlantUML, SVG) draws. A flat Statewright workflow is the
 * one-level case, with graph.ts's edges; a statechart brings compound and
 * parallel states, regions, history and final states at any depth, and the
 * edges of each node's `chart.transitions`.
 */
import type { ChartTransition, HistoryVariant, InvokeDef, StateKind, StateNode, Workflow } from '../model/index.js';
import { workflowGraph, type GraphEdge } from './graph.js';
import { flowTree } from './flow-tree.js';
import type { DiagramTree, TreeNode } from './tree-types.js';

export type { DiagramTree, TreeNode } from './tree-types.js';
import { resolveTarget } from '../statechart/targets.js';

export function diagramTree(wf: Workflow): DiagramTree {
  if (wf.flow) return flowTree(wf);
  return wf.chart ? chartTree(wf) : flatTree(wf);
}

function flatTree(wf: Workflow): DiagramTree {
  const graph = workflowGraph(wf);
  const nodes = new Map<string, TreeNode>();
  for (const n of graph.nodes) {
    nodes.set(n.id, { id: n.id, label: n.id, kind: n.final ? 'final' : 'atomic', children: [], region: false, interruptHandler: n.interruptHandler });
  }
  return { id: wf.id, nodes, top: [...nodes.keys()], initial: wf.initial.name, edges: graph.edges };
}

/** The chart root, drawn as the outermost state when it has transitions of its own (so they have a source). */
const ROOT = '';

function chartTree(wf: Workflow): DiagramTree {
  const nodes = new Map<string, TreeNode>();
  for (const s of wf.states.values()) nodes.set(s.id, chartNode(s, wf));
  const top = wf.topLevel.filter((id) => nodes.has(id));
  const initial = nodes.has(wf.initial.name) ? wf.initial.name : undefined;
  const edges: GraphEdge[] = [];
  const root = wf.chart?.root;
  for (const t of root?.transitions ?? []) edges.push(...transitionEdges(wf, ROOT, t, 'compound', root?.invoke ?? []));
  for (const s of wf.states.values()) {
    for (const t of s.chart?.transitions ?? []) edges.push(...transitionEdges(wf, s.id, t, s.kind, s.chart?.invoke ?? []));
    const fallback = s.chart?.historyDefault;
    const to = fallback && resolveTarget(wf, s.id, fallback.name);
    if (to) edges.push({ from: s.id, to, label: '', kind: 'history', guarded: false, approval: false });
  }
  if (!edges.some((e) => e.from === ROOT)) return { id: wf.id, nodes, top, ...(initial ? { initial } : {}), edges };
  for (const id of top) nodes.set(id, { ...nodes.get(id)!, parent: ROOT });
  const meta = wf.chart?.root.meta;
  nodes.set(ROOT, {
    id: ROOT,
    // Not a state: the frame whose transitions apply in every state. Named as such unless the author named it,
    // so a top-level state named like the chart (hotfix's `hotfix`) is not a second, equal "hotfix" box.
    label: meta?.label || `${wf.name || wf.id} (whole chart)`,
    kind: 'compound',
    children: top,
    ...(initial ? { initial } : {}),
    region: false,
    interruptHandler: false,
    ...colorOf(meta?.color),
  });
  return { id: wf.id, nodes, top: [ROOT], initial: ROOT, edges };
}

/**
 * A state named like its parent (a compound `build` holding a `build`) is drawn
 * as `build › build`: two nested boxes with one caption would look like one
 * state twice.
 */
function captionOf(s: StateNode, wf: Workflow): string {
  const own = s.chart?.meta?.label || s.key;
  const parent = s.parent === undefined ? undefined : wf.states.get(s.parent);
  const parentCaption = parent && (parent.chart?.meta?.label || parent.key);
  return parentCaption === own ? `${parentCaption} › ${own}` : own;
}

function chartNode(s: StateNode, wf: Workflow): TreeNode {
  const meta = s.chart?.meta;
  const history = s.chart?.history;
  const initial = s.kind === 'compound' && s.initial ? s.children.find((c) => wf.states.get(c)?.key === s.initial!.name) : undefined;
  return {
    id: s.id,
    label: history ? (history === 'deep' ? 'H*' : 'H') : captionOf(s, wf),
    kind: s.kind,
    ...(s.parent !== undefined ? { parent: s.parent } : {}),
    children: s.children.filter((c) => wf.states.has(c)),
    ...(initial ? { initial } : {}),
    ...(history ? { history } : {}),
    region: s.chart?.region === true,
    interruptHandler: false,
    ...colorOf(meta?.color),
  };
}

function colorOf(raw: string | undefined): { color?: string } {
  const color = raw === undefined ? undefined : diagramColor(raw);
  return color ? { color } : {};
}

/** One edge per target the transition names that exists (a targetless transition changes no state: no edge). */
function transitionEdges(wf: Workflow, from: string, t: ChartTransition, kind: StateKind, invokes: readonly InvokeDef[]): GraphEdge[] {
  const guard = t.guard ? ` [${oneLine(t.guard.text)}]` : '';
  const { label, edgeKind } = triggerLabel(t, kind, invokes);
  const out: GraphEdge[] = [];
  for (const ref of t.targets) {
    const to = resolveTarget(wf, from, ref.name);
    if (to !== undefined) out.push({ from, to, label: `${label}${guard}`, kind: edgeKind, guarded: t.guard !== undefined, approval: false });
  }
  return out;
}

function triggerLabel(t: ChartTransition, kind: StateKind, invokes: readonly InvokeDef[]): { label: string; edgeKind: GraphEdge['kind'] } {
  const trigger = t.trigger;
  switch (trigger.kind) {
    case 'event':
      return { label: trigger.event, edgeKind: 'event' };
    case 'always':
      return { label: 'always', edgeKind: 'always' };
    case 'after':
      return { label: `after ${typeof trigger.delay === 'number' ? duration(trigger.delay) : oneLine(trigger.delay.text)}`, edgeKind: 'after' };
    case 'done':
      return { label: kind === 'parallel' ? 'all done' : 'done', edgeKind: 'done' };
    case 'invoke-done':
      return { label: `${invocationName(trigger.invokeId, invokes)} done`, edgeKind: 'invoke-complete' };
    case 'invoke-error':
      return { label: `${invocationName(trigger.invokeId, invokes)} error`, edgeKind: 'invoke-fail' };
  }
}

/** An invocation by the `id` written for it, else by what it invokes (the loader's own ids are not for reading). */
function invocationName(id: string, invokes: readonly InvokeDef[]): string {
  const def = invokes.find((i) => i.id === id);
  return def && !def.idLoc ? def.src.name : id;
}

/** `after` delays as people write them: 86400000 → 24h, 30000 → 30s, 1500 → 1500ms. */
export function duration(ms: number): string {
  const units: readonly [number, string][] = [
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, unit] of units) if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

/** Guards and delay expressions may span lines in YAML; a diagram label is one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * `meta.color` in a form Mermaid, Graphviz, PlantUML and SVG all read: `#rgb`
 * (widened to `#rrggbb`, which Graphviz needs), `#rrggbb`, or a colour name
 * (lower case). Anything else (rgb(), hsl(), ...) is left out rather than
 * written into a format that would reject it.
 */
export function diagramColor(raw: string): string | undefined {
  const c = raw.trim();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(c);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  if (/^#[0-9a-f]{6}$/i.test(c)) return c.toLowerCase();
  if (/^[a-z]{3,30}$/i.test(c)) return c.toLowerCase();
  return undefined;
}

/** White text on a dark `#rrggbb` fill (relative luminance below 0.4), else undefined (the default dark text). */
export function textColorOn(color: string): string | undefined {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!hex) return undefined;
  const [r, g, b] = hex.slice(1).map((h) => {
    const v = parseInt(h, 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4 ? '#ffffff' : undefined;
}

/** The node and its ancestors, innermost first. */
export function ancestry(tree: DiagramTree, id: string): string[] {
  const out: string[] = [];
  for (let n = tree.nodes.get(id); n; n = n.parent === undefined ? undefined : tree.nodes.get(n.parent)) out.push(n.id);
  return out;
}

/**
 * The block an edge is written in: the innermost state that contains both
 * ends (strictly), skipping parallel states, whose bodies hold only their
 * regions (Mermaid's and PlantUML's concurrent sections accept no edges across
 * them); undefined for the document itself.
 */
export function edgeHome(tree: DiagramTree, from: string, to: string): string | undefined {
  const above = new Set(ancestry(tree, to).slice(1));
  let home = ancestry(tree, from).slice(1).find((a) => above.has(a));
  while (home !== undefined && tree.nodes.get(home)?.kind === 'parallel') home = tree.nodes.get(home)?.parent;
  return home;
}

/** The edges grouped by the block they are written in (undefined: the document). */
export function edgesByHome(tree: DiagramTree): Map<string | undefined, GraphEdge[]> {
  const homes = new Map<string | undefined, GraphEdge[]>();
  for (const e of tree.edges) {
    const home = edgeHome(tree, e.from, e.to);
    (homes.get(home) ?? homes.set(home, []).get(home)!).push(e);
  }
  return homes;
}

/** Whether a node is drawn as a box around others. */
export function isContainer(node: TreeNode): boolean {
  return node.children.length > 0;
}
