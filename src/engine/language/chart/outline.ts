/**
 * The outline of a statechart as its tree: each state under its parent
 * (regions under their parallel state), its transitions as children; then
 * the named actions.
 */
import type { ChartTransition, SourceLoc, StateNode, Workflow } from '../../model/index.js';
import type { OutlineKind, OutlineSymbol } from '../outline.js';

const span = (a: SourceLoc, b: SourceLoc): { start: number; end: number } => ({ start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) });

export function chartDocumentSymbols(wf: Workflow): OutlineSymbol[] {
  const state = (s: StateNode): OutlineSymbol => ({
    name: s.key,
    kind: stateKind(s),
    detail: [s.chart?.region ? 'region' : s.kind, initialOf(wf, s) === s.id ? 'initial' : ''].filter(Boolean).join(', '),
    range: span(s.keyLoc, s.loc),
    selection: s.keyLoc,
    children: [
      ...s.children.map((id) => wf.states.get(id)).filter((c): c is StateNode => c !== undefined).map(state),
      ...(s.chart?.transitions ?? []).map((t) => transition(t, s.keyLoc, s.kind === 'parallel')),
    ],
  });
  const states = wf.topLevel.map((id) => wf.states.get(id)).filter((s): s is StateNode => s !== undefined).map(state);
  const actions: OutlineSymbol[] = [...(wf.chart?.actions.values() ?? [])].map((a) => ({
    name: a.name,
    kind: 'action',
    detail: a.action.type,
    range: span(a.nameLoc, a.action.loc),
    selection: a.nameLoc,
    children: [],
  }));
  return [...states, ...actions];
}

function stateKind(s: StateNode): OutlineKind {
  if (s.chart?.region) return 'region';
  switch (s.kind) {
    case 'final':
      return 'final-state';
    case 'parallel':
      return 'parallel-state';
    case 'history':
      return 'history-state';
    default:
      return 'state';
  }
}

/** The id of the state its parent (or the chart) starts in. */
function initialOf(wf: Workflow, s: StateNode): string | undefined {
  const parent = s.parent === undefined ? undefined : wf.states.get(s.parent);
  const name = parent ? parent.initial?.name : wf.initial.name;
  return name ? (parent ? `${parent.id}.${name}` : name) : undefined;
}

/** How a transition's trigger is written (`onAllDone` for a parallel node's completion). */
export function triggerName(t: ChartTransition, parallel = false): string {
  switch (t.trigger.kind) {
    case 'event':
      return t.trigger.event;
    case 'after':
      return `after ${typeof t.trigger.delay === 'number' ? `${t.trigger.delay} ms` : t.trigger.delay.text}`;
    case 'invoke-done':
      return `${t.trigger.invokeId} done`;
    case 'invoke-error':
      return `${t.trigger.invokeId} error`;
    case 'done':
      return parallel ? 'onAllDone' : 'onDone';
    default:
      return t.trigger.kind;
  }
}

function transition(t: ChartTransition, owner: SourceLoc, parallel: boolean): OutlineSymbol {
  // A transition's own range may be a bare value (`GO: next`); the owner's key stands in when it has none.
  const loc = t.loc.end > t.loc.start ? t.loc : owner;
  return {
    name: triggerName(t, parallel),
    kind: 'event',
    detail: t.targets.length ? `→ ${t.targets.map((r) => r.name).join(', ')}` : '(stays)',
    range: loc,
    selection: loc,
    children: [],
  };
}
