/**
 * The `state` view (CLI `stategate run state`, `statewright_get_state`, the
 * panel): where the run stands, what the state allows, the events available
 * with each guard's result on the current context, and any parked approval,
 * active interrupt, fork or child run. Keys are snake_case because the view
 * is printed as JSON as it is. `null` for a rule means "no rule of that kind"
 * (for `allowed_tools`: every tool passes).
 */
import type { JsonObject, StateNode, Transition, Workflow } from '../model/index.js';
import { RETURN_TARGET } from '../model/index.js';
import { activeLoc, isError, Op, scopeOf } from './cursor.js';
import type { BranchOption, Loc, MachineEnv } from './cursor.js';
import { checkGuards } from './resolve.js';
import { pathScopeOf } from '../util/paths/scope.js';
import { BRANCH_DONE_PREFIX } from './patterns/fork.js';
import type { ActiveFork, ActiveInterrupt, ChildRun, MachineError, PendingApproval, Position, RunSnapshot, RunStatus } from './run.js';
import { FRAME_ENDINGS } from './patterns/endings.js';
import { chartWorkflow } from './chart-run.js';
import type { LimitsView, RuleFieldsView } from './rule-fields.js';
import { chartStateFields, type ActiveStateView } from './describe-chart.js';

export interface TransitionView {
  event: string;
  target: string;
  guards: { name: string; passes: boolean }[];
  requires_approval: boolean;
  /** `$return`: the target shown is the interrupted state (or `$return` with no interrupt active). */
  returns?: true;
  invoke?: { workflow: string; on_fail?: string };
  fork?: { branches: string[]; join: string; mode: string; on_fail?: string };
  /** Whether the event would be taken now (its guards pass and nothing blocks it). */
  available: boolean;
}

export interface StateView extends RuleFieldsView {
  state: string;
  status: RunStatus;
  is_final: boolean;
  workflow: { id: string; file?: string; hash: string };
  transitions: TransitionView[];
  /** A statechart run: each active atomic state with its effective rules and limits (describe-chart.ts). */
  active_states?: ActiveStateView[];
  safe_next: string | null;
  context: JsonObject;
  iteration: number;
  max_iterations: number | null;
  limits: LimitsView;
  usage: { iterations: number; files_edited: readonly string[]; edit_lines: number; bytes_read: number; steps_total: number; transitions: number };
  /** Where the events go: `child/branch:lint` etc.; absent at the top level. */
  scope?: string;
  branch?: string;
  pending_approval?: PendingApproval;
  interrupt?: ActiveInterrupt;
  fork?: ForkView;
  child?: ChildView;
  error?: MachineError;
}

export interface ForkView {
  event: string;
  from: string;
  join: string;
  mode: string;
  on_complete: string;
  on_fail?: string;
  current?: string;
  branches: { name: string; status: string; initial: string; terminal: string; state?: string; sessions: string[] }[];
}

export interface ChildView {
  workflow: string;
  invoked: string;
  state: string;
  status: RunStatus;
  on_complete: string;
  on_fail?: string;
  /** The parent's state, waiting for the child. */
  parent_state: string;
}

function transitionViews(wf: Workflow, node: StateNode, pos: Position, blocked: boolean): TransitionView[] {
  return node.on.flatMap((t) => viewsOf(wf, t, pos, blocked));
}

function viewsOf(wf: Workflow, t: Transition, pos: Position, blocked: boolean): TransitionView[] {
  const target = (name: string): { target: string; returns?: true } =>
    name === RETURN_TARGET ? { target: pos.interrupt?.returnTo ?? RETURN_TARGET, returns: true } : { target: name };
  const returnOk = (name: string): boolean => name !== RETURN_TARGET || pos.interrupt !== undefined;
  switch (t.kind) {
    case 'simple':
    case 'guarded': {
      const guards = checkGuards(wf, t.guards, pos).map(({ name, passes }) => ({ name, passes }));
      return [{ event: t.event, ...target(t.target.name), guards, requires_approval: t.requiresApproval, available: !blocked && returnOk(t.target.name) && guards.every((g) => g.passes) }];
    }
    case 'branched': {
      let taken = false;
      return t.branches.map((b) => {
        const guards = checkGuards(wf, b.guards, pos).map(({ name, passes }) => ({ name, passes }));
        // Only the first branch whose guards pass would be taken.
        const wins = !taken && guards.every((g) => g.passes);
        if (wins) taken = true;
        return { event: t.event, ...target(b.target.name), guards, requires_approval: false, available: !blocked && wins && returnOk(b.target.name) };
      });
    }
    case 'invoke':
      return [{ event: t.event, target: t.onComplete.name, guards: [], requires_approval: false, invoke: { workflow: t.workflow.name, ...(t.onFail ? { on_fail: t.onFail.name } : {}) }, available: !blocked }];
    case 'fork':
      return [{
        event: t.event,
        target: t.onComplete.name,
        guards: [],
        requires_approval: false,
        fork: { branches: t.branches.map((b) => b.name), join: t.join, mode: t.mode, ...(t.onFail ? { on_fail: t.onFail.name } : {}) },
        available: !blocked,
      }];
  }
}

function forkView(fork: ActiveFork): ForkView {
  return {
    event: fork.event,
    from: fork.from,
    join: fork.join,
    mode: fork.mode,
    on_complete: fork.onComplete,
    ...(fork.onFail ? { on_fail: fork.onFail } : {}),
    ...(fork.current === undefined ? {} : { current: fork.current }),
    branches: fork.branches.map((b) => ({ name: b.name, status: b.status, initial: b.initial, terminal: b.terminal, ...(b.status === 'pending' ? {} : { state: b.state }), sessions: b.sessions ?? [] })),
  };
}

function childView(child: ChildRun, parentState: string): ChildView {
  return {
    workflow: child.workflow.id,
    invoked: child.invoked,
    state: child.state,
    status: child.status,
    on_complete: child.onComplete,
    ...(child.onFail ? { on_fail: child.onFail } : {}),
    parent_state: parentState,
  };
}

/** The `state` view of the position events go to (see BranchOption for parallel forks). */
export function describe(run: RunSnapshot, env: MachineEnv, opt: BranchOption = {}): StateView {
  const op = new Op(run, env, FRAME_ENDINGS);
  const found = activeLoc(op, opt);
  // A parallel fork with no branch named: describe the frame waiting for it.
  const loc: Loc = isError(found) ? { frame: op.frames().length - 1 } : found;
  const frame = op.frame(loc.frame);
  const pos = op.position(loc);
  const wf = op.workflow(loc.frame);
  const node = wf?.states.get(pos.state);
  const rules = node?.rules;
  const blocked = run.status !== 'running' || pos.pendingApproval !== undefined || node?.kind === 'final' || (loc.branch === undefined && (frame.fork !== undefined || frame.child !== undefined));
  const transitions = wf && node ? transitionViews(wf, node, pos, blocked) : [];
  const branch = op.branch(loc);
  if (branch && branch.state === branch.terminal && branch.status === 'running') {
    const fork = frame.fork;
    transitions.push({ event: `${BRANCH_DONE_PREFIX}${branch.name}`, target: fork?.onComplete ?? '', guards: [], requires_approval: false, available: run.status === 'running' });
  }
  const c = pos.counters;
  const parent = loc.frame > 0 ? op.frame(loc.frame - 1) : undefined;
  const wref = frame.workflow;
  const scope = scopeOf(loc);
  const scopeRules = rules ? pathScopeOf(rules) : undefined;
  // A statechart run: effective rules per active state, the configuration's events (describe-chart.ts).
  const cw = loc.frame === 0 && run.chart ? chartWorkflow(run, env) : undefined;
  const chartFields = cw ? chartStateFields(run, cw, env) : undefined;
  const view: StateView = {
    state: pos.state,
    status: run.status,
    is_final: node?.kind === 'final',
    workflow: { id: wref.id, ...(wref.file === undefined ? {} : { file: wref.file }), hash: wref.hash },
    instructions: rules?.instructions ?? null,
    allowed_tools: rules?.allowedTools ?? null,
    disallowed_tools: rules?.disallowedTools ?? [],
    allowed_commands: rules?.allowedCommands ?? null,
    blocked_env: rules?.blockedEnv ?? [],
    env_overrides: rules?.envOverrides ?? {},
    allowed_paths: scopeRules?.allowed ?? null,
    denied_paths: scopeRules?.denied ?? [],
    writes_outside_workspace: scopeRules ? !scopeRules.outsideDenied && scopeRules.allowed === undefined : true,
    model: rules?.model ?? null,
    thinking_level: rules?.thinkingLevel ?? null,
    transitions,
    safe_next: node?.safeNext?.name ?? null,
    context: pos.context,
    iteration: c.iterations,
    max_iterations: rules?.maxIterations ?? null,
    limits: {
      max_iterations: rules?.maxIterations ?? null,
      max_edit_lines: rules?.maxEditLines ?? null,
      max_files_per_state: rules?.maxFilesPerState ?? null,
      context_budget_bytes: rules?.contextBudgetBytes ?? null,
    },
    usage: { iterations: c.iterations, files_edited: c.filesEdited, edit_lines: c.editLines, bytes_read: c.bytesRead, steps_total: c.stepsTotal, transitions: run.counters.transitions },
    ...(scope === undefined ? {} : { scope }),
    ...(loc.branch === undefined ? {} : { branch: loc.branch }),
    ...(pos.pendingApproval ? { pending_approval: pos.pendingApproval } : {}),
    ...(pos.interrupt ? { interrupt: pos.interrupt } : {}),
    ...(frame.fork ? { fork: forkView(frame.fork) } : {}),
    ...(parent?.child ? { child: childView(parent.child, parent.state) } : {}),
    // No branch named in a parallel fork is not an error: the view is the fork's frame, with each branch and its sessions.
    ...(isError(found) && !(opt.branch === undefined && found.code === 'unknown_branch') ? { error: found } : !wf ? { error: { code: 'invalid_definition', message: 'the run\'s workflow definition no longer loads' } } : {}),
  };
  return chartFields ? { ...view, ...chartFields } : view;
}
