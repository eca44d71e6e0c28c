/**
 * Where a pipeline's stages can be: the positions agents act in. That is the
 * innermost frame (a parent waiting on a child run acts through the child),
 * or, while that frame runs a fork, each running branch. Each position has a
 * scope, spelled as the journal spells it ('' for the top level).
 */
import type { StateNode, Workflow } from '../model/index.js';
import { isChartWorkflow } from '../machine/chart-run.js';
import type { Frame, Position, RunSnapshot } from '../machine/run.js';
import type { StageExec } from '../model/pipeline.js';

export interface LivePosition {
  readonly scope: string;
  readonly frame: number;
  readonly branch?: string;
  readonly position: Position;
  readonly workflow: Workflow | undefined;
}

/** The scope string of a frame depth and branch (as cursor.ts's scopeOf). */
export function scopeFor(frame: number, branch?: string): string {
  const parts: string[] = Array.from({ length: frame }, () => 'child');
  if (branch !== undefined) parts.push(`branch:${branch}`);
  return parts.join('/');
}

export function livePositions(run: RunSnapshot, load: (text: string) => Workflow | undefined): LivePosition[] {
  let frame: Frame = run;
  let depth = 0;
  while (frame.child) {
    frame = frame.child;
    depth++;
  }
  const workflow = load(frame.workflow.definitionText);
  if (workflow && isChartWorkflow(workflow)) return chartPositions(frame, depth, workflow);
  if (!frame.fork) return [{ scope: scopeFor(depth), frame: depth, position: frame, workflow }];
  const out: LivePosition[] = [];
  for (const b of frame.fork.branches) {
    if (b.status === 'running') out.push({ scope: scopeFor(depth, b.name), frame: depth, branch: b.name, position: b, workflow });
  }
  return out;
}

/** The state node of a position when it is a stage (has a completion tool). */
export function stageNode(live: LivePosition): StateNode | undefined {
  const node = live.workflow?.states.get(live.position.state);
  return node?.completionTool ? node : undefined;
}

export interface StageAt {
  readonly live: LivePosition;
  readonly node: StateNode;
  readonly exec: StageExec | undefined;
}

/**
 * The stage a caller acts on: the named branch's, else the only live
 * position's. A string says why there is none (not a stage, or a parallel
 * fork whose branch must be named).
 */
export function stageFor(run: RunSnapshot, load: (text: string) => Workflow | undefined, branch?: string, tool?: string): StageAt | string {
  const live = livePositions(run, load);
  let at: LivePosition | undefined;
  if (branch !== undefined) {
    at = live.find((l) => l.branch === branch);
    if (!at) return `branch "${branch}" is not running (running: ${live.map((l) => l.branch).filter(Boolean).join(', ') || 'none'})`;
  } else if (live.length === 1) at = live[0];
  else {
    const stages = live.filter((l) => stageNode(l));
    // Statechart regions have no branch names: a completion call names its stage by its tool.
    const byTool = tool === undefined ? [] : stages.filter((l) => stageNode(l)!.completionTool === tool);
    if (byTool.length === 1) at = byTool[0];
    else if (stages.length !== 1) {
      const running = live.map((l) => l.branch ?? l.position.state).join(', ') || 'none';
      return live.some((l) => l.branch !== undefined) ? `a parallel fork is active: name the branch (running: ${running})` : `several stages are active in parallel regions (${running}): only their completion tools can tell them apart`;
    } else at = stages[0];
  }
  if (!at) return 'no position of the run is active';
  const node = stageNode(at);
  if (!node) return `state "${at.position.state}" is not a stage (it has no completion_tool)`;
  return { live: at, node, exec: run.pipeline?.execs[at.scope] };
}

/**
 * A statechart's stage positions: each active atomic node with a completion
 * tool. Its scope is its parent's (`in:<parent>`; the frame's own scope for a
 * child of the root): two atomic nodes active at once always have different
 * parents (parallel regions), and a move between siblings keeps the scope, so
 * stage-sync sees the old stage exit and the new one start. A re-entry is told
 * by the microstep that entered the node (the snapshot's `entered`).
 */
function chartPositions(frame: Frame, depth: number, workflow: Workflow): LivePosition[] {
  const snap = frame.chart;
  if (!snap || snap.status !== 'running') return [];
  const out: LivePosition[] = [];
  snap.configuration.forEach((id, i) => {
    const node = workflow.states.get(id);
    if (!node?.completionTool || node.children.length) return;
    const base = scopeFor(depth);
    const scope = node.parent === undefined ? base : [base, `in:${node.parent}`].filter(Boolean).join('/');
    out.push({ scope, frame: depth, position: { ...frame, state: id, counters: { ...frame.counters, transitions: snap.entered[i] ?? 0 } }, workflow });
  });
  return out;
}
