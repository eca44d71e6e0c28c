/**
 * The @stategate participant's tool loop, without VS Code: the adapter
 * (participant.ts) supplies the model, the tool invoker and the progress sink.
 * Every round re-reads the run, puts the briefing in front of the model and
 * offers only what the state allows; every call to a client tool goes through
 * `runner.tool` first (a denial is the call's result, the tool never runs),
 * and every allowed call is recorded with `runner.result` (bytes, edited
 * file, interrupts). vscode-free, unit-tested with a fake model.
 */
import { activeIsDebug, invokeAgentTool, type AgentSession, briefing, type BriefedView, INTERRUPT_MARKER, type RecordOutcome, type Runner, isOwnTool, ownToolName, OWN_TOOLS, type ExtraAliases, type UsageReport } from '../../engine/index.js';
import { reportTurnUsage } from './turn-usage.js';
import { offerRules, offeredTools } from './tool-offer.js';

export interface ToolCallRequest {
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
}

export interface ToolCallResult {
  readonly callId: string;
  readonly name: string;
  readonly text: string;
}

/** A client-neutral transcript; the adapter turns it into its own message types. */
export type TranscriptEntry =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string; readonly calls: readonly ToolCallRequest[] }
  | { readonly kind: 'results'; readonly results: readonly ToolCallResult[] };

export interface ModelTurn {
  readonly text: string;
  readonly calls: readonly ToolCallRequest[];
  /** What the request used (tokens, and cost when the model has a price): reported to the run. */
  readonly usage?: UsageReport;
}

/** What the chat stream shows. */
export type LoopEvent =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'denied'; readonly tool: string; readonly reason: string }
  | { readonly kind: 'state'; readonly from: string; readonly to: string }
  | { readonly kind: 'interrupt'; readonly text: string }
  | { readonly kind: 'approval'; readonly event: string; readonly target: string }
  | { readonly kind: 'limit'; readonly state: string; readonly max: number }
  /** A bound warning the model's usage crossed (meta.max_cost). */
  | { readonly kind: 'notice'; readonly text: string }
  /** A statechart handed a task to an agent (`agent:` invocation): the participant takes it on. */
  | { readonly kind: 'task'; readonly id: string; readonly agent: string; readonly input: unknown };

export interface LoopDeps {
  readonly runner: Runner;
  readonly session: AgentSession;
  readonly aliases?: ExtraAliases;
  /** Tool ids the client can run (not stategate's own), e.g. vscode.lm.tools' names. */
  toolIds(): readonly string[];
  /** One model request: the instructions for this round, the transcript, the tools offered. */
  ask(request: { readonly system: string; readonly transcript: readonly TranscriptEntry[]; readonly tools: readonly string[] }): Promise<ModelTurn>;
  /** Runs a (non-own) tool; returns its text. Throwing means the tool failed: the message goes to the model. */
  invoke(name: string, input: unknown): Promise<string>;
  report(event: LoopEvent): void;
  /** Called after every call (the extension refreshes its views). */
  changed?(): void;
  cancelled?(): boolean;
  /** A cap on model rounds per request, whatever the workflow says. */
  readonly maxRounds?: number;
}

export type LoopEnd = 'done' | 'limit' | 'rounds' | 'cancelled';

export const DEFAULT_MAX_ROUNDS = 25;

/** The run as this session sees it, or undefined when there is none (nothing enforced). */
export async function currentView(runner: Runner, session: AgentSession): Promise<BriefedView | undefined> {
  if ((await runner.active()).kind !== 'ok') return undefined;
  try {
    return await runner.state(session.branch);
  } catch {
    return undefined;
  }
}

export function atIterationLimit(view: BriefedView | undefined): boolean {
  return offerRules(view, false).atLimit;
}

/** What the model reads before every round. */
export function systemText(view: BriefedView | undefined): string {
  const head = 'You are @stategate: you work inside a workflow that stategate enforces. Only the tools offered to you now are allowed; a call to any other is denied with the reason. Use statewright_transition to move the workflow on when the current state\'s work is done.';
  if (!view) return `${head}\nNo workflow run is active, so nothing is enforced. statewright_list_workflows and statewright_load_workflow start one.`;
  const limit = atIterationLimit(view)
    ? `\nYou have used all ${view.limits.max_iterations} tool calls of state "${view.state}": no other tool runs until you call statewright_transition with one of the events below.`
    : '';
  return `${head}\n\n${briefing(view)}${limit}`;
}

/** Where the run stands: the state, or a statechart's whole configuration (a region may move alone). */
export function whereText(view: BriefedView): string {
  return view.configuration?.length ? view.configuration.join(' | ') : view.state;
}

function stateKey(view: BriefedView | undefined): string | undefined {
  return view ? `${view.scope ?? ''}/${whereText(view)}` : undefined;
}

/** Run one call through the policy, then (if allowed) the tool, then record it. */
async function runCall(call: ToolCallRequest, deps: LoopDeps): Promise<string> {
  const { runner, session } = deps;
  const options = { ...(session.branch ? { branch: session.branch } : {}), ...(deps.aliases ? { aliases: deps.aliases } : {}) };
  if (isOwnTool(call.name)) {
    // Own tools come first in the policy's order of checks (always allowed, never counted). They are
    // decided here rather than by runner.tool, which refuses every call while it cannot tell the state
    // (a parallel fork with no branch named), and statewright_load_workflow(branch) is how a session names it.
    const own = ownToolName(call.name) ?? call.name;
    // Hidden from the offer unless debug; refused here too, whatever the model tries.
    if (own === 'statewright_force_state' && !(await activeIsDebug(runner))) return 'statewright_force_state is only available while the workflow\'s meta.debug is true.';
    return (await invokeAgentTool(runner, own, call.input, session)).text;
  }
  const answer = await runner.tool({ tool: call.name, input: call.input }, options);
  if (answer.decision === 'deny') {
    const reason = answer.reason ?? 'denied by the workflow';
    deps.report({ kind: 'denied', tool: call.name, reason });
    return `stategate denied ${call.name}: ${reason}`;
  }
  const notices = answer.notices.length ? `\n\n${answer.notices.join('\n')}` : '';
  let text: string;
  try {
    text = await deps.invoke(call.name, answer.rewrite ?? call.input);
  } catch (err) {
    text = `The tool ${call.name} failed: ${(err as Error)?.message ?? String(err)}`;
  }
  let recorded: RecordOutcome;
  try {
    recorded = await runner.result({ tool: call.name, input: call.input }, { bytes: Buffer.byteLength(text, 'utf8'), output: text }, options);
  } catch (err) {
    // The tool has run; say that stategate could not record it rather than lose the result.
    recorded = { notices: [`stategate could not record this call: ${(err as Error)?.message ?? String(err)}`], interrupted: false, state: '' };
  }
  const extra = [...recorded.notices];
  if (recorded.interrupted && recorded.interrupt) {
    const note = `${INTERRUPT_MARKER} ${recorded.interrupt.name}: ${recorded.interrupt.file} changed, so the workflow moved from "${recorded.interrupt.from}" to "${recorded.interrupt.to}".`;
    deps.report({ kind: 'interrupt', text: note });
    if (!extra.some((n) => n.includes(INTERRUPT_MARKER))) extra.unshift(note);
  }
  return text + notices + (extra.length ? `\n\n${extra.join('\n')}` : '');
}

/**
 * The loop for one chat request. `transcript` holds earlier turns and the
 * person's prompt; it grows as the loop runs.
 */
export async function runLoop(transcript: TranscriptEntry[], deps: LoopDeps): Promise<LoopEnd> {
  const maxRounds = deps.maxRounds ?? DEFAULT_MAX_ROUNDS;
  let view = await currentView(deps.runner, deps.session);
  let approvalShown: string | undefined;
  // Tasks a statechart handed to agents are this participant's to take on (the briefing says how to finish them).
  for (const task of view?.agent_invocations ?? []) deps.report({ kind: 'task', id: task.id, agent: task.agent, input: task.input });
  for (let round = 0; round < maxRounds; round++) {
    if (deps.cancelled?.()) return 'cancelled';
    const rules = offerRules(view, await activeIsDebug(deps.runner));
    const tools = offeredTools([...OWN_TOOLS, ...deps.toolIds()], rules, deps.aliases);
    const turn = await deps.ask({ system: systemText(view), transcript, tools });
    for (const text of await reportTurnUsage(deps.runner, turn)) deps.report({ kind: 'notice', text });
    if (turn.text) deps.report({ kind: 'text', text: turn.text });
    transcript.push({ kind: 'assistant', text: turn.text, calls: turn.calls });
    if (turn.calls.length === 0) {
      if (view && atIterationLimit(view)) {
        deps.report({ kind: 'limit', state: view.state, max: view.limits.max_iterations ?? 0 });
        return 'limit';
      }
      return 'done';
    }
    const results: ToolCallResult[] = [];
    for (const call of turn.calls) {
      if (deps.cancelled?.()) return 'cancelled';
      const text = await runCall(call, deps);
      results.push({ callId: call.callId, name: call.name, text });
      deps.changed?.();
      const after = await currentView(deps.runner, deps.session);
      if (stateKey(after) !== stateKey(view) && view && after) deps.report({ kind: 'state', from: whereText(view), to: whereText(after) });
      const pending = after?.pending_approval;
      const key = pending ? `${pending.event}>${pending.target}` : undefined;
      if (pending && key !== approvalShown) deps.report({ kind: 'approval', event: pending.event, target: pending.target });
      approvalShown = key;
      view = after;
    }
    transcript.push({ kind: 'results', results });
  }
  return 'rounds';
}

/** Models to try for a state, best first: its `model`, then its `model_ladder`. */
export function modelCandidates(view: BriefedView | undefined, ladder: readonly { readonly model: string }[] | undefined): string[] {
  const out: string[] = [];
  for (const m of [view?.model ?? undefined, ...(ladder ?? []).map((r) => r.model)]) if (m && !out.includes(m)) out.push(m);
  return out;
}
