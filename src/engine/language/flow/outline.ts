/** The outline of a flow: its states in file order, each with the tool it runs and where it goes. */
import type { SourceLoc, Workflow } from '../../model/index.js';
import type { OutlineSymbol } from '../outline.js';
import { flowStateLine } from './describe.js';

const span = (a: SourceLoc, b: SourceLoc): { start: number; end: number } => ({ start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) });

export function flowDocumentSymbols(wf: Workflow): OutlineSymbol[] {
  return [...wf.states.values()].map((s) => ({
    name: s.key,
    kind: 'state',
    detail: `${flowStateLine(wf, s.key)}${wf.initial.name === s.key ? ' · start' : ''}`,
    range: span(s.keyLoc, s.loc),
    selection: s.keyLoc,
    children: [],
  }));
}
