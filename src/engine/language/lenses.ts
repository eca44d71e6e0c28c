/**
 * Code lenses: "▶ Start run" above the workflow, and above each state how many
 * transitions lead in and out ("↘ 2 in · 3 out"), counted like the diagram
 * draws them (every branch, invoke and fork edge; interrupts lead in too).
 */
import { workflowGraph } from '../export/graph.js';
import type { SourceLoc, Workflow } from '../model/index.js';

export type LensAction =
  | { readonly kind: 'start-run' }
  /** Run a flow file (`*.flow.yaml|yml|json`). */
  | { readonly kind: 'run-flow' }
  | { readonly kind: 'show-diagram' }
  /** Show where the state is referenced. */
  | { readonly kind: 'references'; readonly state: string };

export interface Lens {
  readonly loc: SourceLoc;
  readonly title: string;
  readonly action: LensAction;
}

export function codeLenses(wf: Workflow, options: { readonly diagram?: boolean } = {}): Lens[] {
  const top: SourceLoc = wf.idLoc ?? wf.loc;
  const lenses: Lens[] = [{ loc: top, title: '▶ Start run', action: { kind: 'start-run' } }];
  if (options.diagram) lenses.push({ loc: top, title: '◈ Show diagram', action: { kind: 'show-diagram' } });
  const ins = new Map<string, number>();
  const outs = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);
  for (const e of workflowGraph(wf).edges) {
    bump(outs, e.from);
    bump(ins, e.to);
  }
  for (const i of wf.interrupts) bump(ins, i.target.name);
  for (const s of wf.states.values()) {
    const title = `↘ ${ins.get(s.id) ?? 0} in · ${outs.get(s.id) ?? 0} out`;
    lenses.push({ loc: s.keyLoc, title, action: { kind: 'references', state: s.id } });
  }
  return lenses;
}
