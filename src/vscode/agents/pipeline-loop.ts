/**
 * `@stategate /run <workflow> <task>`: a stage pipeline run by the
 * participant, without VS Code (participant.ts adapts it). Stage after stage,
 * each in a fresh transcript (the stage's brief and prompt, the task, the
 * upstream results), offering the stage's allowed tools plus its completion
 * tool. Every call goes through the engine: the completion step
 * (Runner.completeStage), turn caps (Runner.beginTurn), the policy
 * (Runner.tool) and, for a call outside the stage's tools, a one-shot grant
 * put to the person (Runner.askGrant / answerGrant). A parallel fork's branch
 * stages run at once, up to a cap; when a branch fails the run, the others
 * stop at their next turn. vscode-free, unit-tested with a scripted model.
 */
import { invokeAgentTool, isOwnTool, ownToolName, stageBrief, type ExtraAliases, type JsonValue, type Runner, type SecurityMode, type StageView } from '../../engine/index.js';
import type { ModelTurn, ToolCallResult, TranscriptEntry } from './participant-loop.js';
import { isOffered, offeredTools, type OfferRules } from './tool-offer.js';
import { reportTurnUsage } from './turn-usage.js';

/** A tool the model is offered: a client tool by id, or the stage's completion tool with its schema. */
export interface OfferedTool {
  readonly name: string;
  /** Set for the completion tool (client tools carry their own definitions). */
  readonly completion?: { readonly description: string; readonly inputSchema: JsonValue };
}

export type PipelineEvent =
  | { readonly kind: 'stage'; readonly state: string; readonly branch?: string; readonly attempt: number; readonly prompt: string; readonly securityMode: SecurityMode }
  | { readonly kind: 'text'; readonly state: string; readonly branch?: string; readonly text: string }
  | { readonly kind: 'denied'; readonly state: string; readonly tool: string; readonly reason: string }
  | { readonly kind: 'completion'; readonly state: string; readonly branch?: string; readonly accepted: boolean; readonly text: string; readonly payload: unknown }
  | { readonly kind: 'grant'; readonly state: string; readonly tool: string; readonly approved: boolean; readonly by: 'person' | 'headless' }
  | { readonly kind: 'stage_failed'; readonly state: string; readonly branch?: string; readonly reason: string }
  /** A bound warning the model's usage crossed (meta.max_cost). */
  | { readonly kind: 'notice'; readonly state: string; readonly text: string }
  | { readonly kind: 'end'; readonly status: string; readonly state: string };

export interface GrantQuestion {
  readonly proposalId: string;
  readonly state: string;
  readonly tool: string;
  readonly summary: string;
}

export interface PipelineDeps {
  readonly runner: Runner;
  readonly aliases?: ExtraAliases;
  /** Tool ids the client can run (not stategate's own). */
  toolIds(): readonly string[];
  /** One model request for one stage's transcript. */
  ask(request: { readonly stage: StageView; readonly system: string; readonly transcript: readonly TranscriptEntry[]; readonly tools: readonly OfferedTool[] }): Promise<ModelTurn>;
  invoke(name: string, input: unknown): Promise<string>;
  report(event: PipelineEvent): void;
  /** Puts an out-of-envelope call to the person: true approve, false deny, undefined no one to ask (headless). */
  askGrant?(question: GrantQuestion): Promise<boolean | undefined>;
  changed?(): void;
  cancelled?(): boolean;
  /** The person asked to replace a live active run (`/run --replace …`); without it a live run is refused (Runner.start). */
  readonly replace?: boolean;
  /** Branch stages run at once up to this many (default 2). */
  readonly concurrency?: number;
  /** Turns per stage when the stage sets no turn_cap. */
  readonly defaultTurns?: number;
  /**
   * The person's security mode (`stategate.securityMode`), below the workflow's
   * meta.security_mode. Out-of-envelope calls ask in both modes; in-envelope
   * calls run through `invoke`, whose confirmations are the client's.
   */
  readonly securityMode?: SecurityMode;
}

/**
 * `[--replace] <workflow> <task...>`: the first word names the workflow (its id or registered name);
 * a leading `--replace` says to replace a live active run rather than be refused.
 */
export function parseRunPrompt(prompt: string): { workflow: string; task: string; replace?: true } | undefined {
  const flagged = /^\s*--replace(?=\s|$)/.exec(prompt);
  const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(flagged ? prompt.slice(flagged[0].length) : prompt);
  if (!m) return undefined;
  return { workflow: m[1]!, task: m[2]!.trim(), ...(flagged ? { replace: true as const } : {}) };
}

export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_STAGE_TURNS = 25;

export type PipelineEnd = { readonly status: string; readonly state: string; readonly why?: string };

/** Starts `file` with `task` as its input and runs its stages until the run ends or stalls. */
export async function runPipeline(file: string, task: string, deps: PipelineDeps): Promise<PipelineEnd> {
  const { runner } = deps;
  await runner.start(file, undefined, { task }, { replace: deps.replace === true });
  if (deps.securityMode) await runner.setSecurityMode(deps.securityMode, 'setting');
  deps.changed?.();
  const seen = new Set<string>();
  for (;;) {
    if (deps.cancelled?.()) return end(deps, 'cancelled');
    const stages = await runner.stages();
    if (!stages.length) return end(deps);
    // A stage execution that comes back unchanged made no progress (its turns ran out without a cap): stop rather than loop.
    const fresh = stages.filter((s) => s.stage_exec_id && !seen.has(s.stage_exec_id));
    if (!fresh.length) return end(deps, `stage ${stages.map((s) => s.state).join(', ')} ended its turns without completing`);
    for (const s of fresh) seen.add(s.stage_exec_id!);
    await pool(fresh, deps.concurrency ?? DEFAULT_CONCURRENCY, (s) => runStage(s, task, deps));
  }
}

async function end(deps: PipelineDeps, why?: string): Promise<PipelineEnd> {
  const run = await deps.runner.requireActive();
  deps.report({ kind: 'end', status: run.status, state: run.state });
  return { status: run.status, state: run.state, ...(why ? { why } : {}) };
}

/** Runs `work` over `items`, at most `cap` at a time. */
async function pool<T>(items: readonly T[], cap: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(cap, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** What the stage starts from: its prompt, the task, and what earlier stages produced. */
function firstMessage(stage: StageView, task: string, upstream: unknown): string {
  const parts = [stage.prompt || `Work on stage "${stage.state}".`, `Task: ${task}`];
  if (upstream && typeof upstream === 'object' && Object.keys(upstream).length) parts.push(`Results of earlier stages (upstream):\n${JSON.stringify(upstream, null, 2)}`);
  return parts.join('\n\n');
}

function stageRules(stage: StageView): OfferRules {
  return { allowed: stage.allowed_tools, disallowed: [], atLimit: false, debug: false };
}

async function runStage(start: StageView, task: string, deps: PipelineDeps): Promise<'completed' | 'failed' | 'cancelled'> {
  const { runner } = deps;
  const branch = start.branch;
  const sent = await runner.promptSent(branch);
  const stage = 'error' in sent ? start : sent;
  deps.report({ kind: 'stage', state: stage.state, ...(branch ? { branch } : {}), attempt: stage.attempt ?? 1, prompt: stage.prompt, securityMode: stage.security_mode });
  const system = `You are @stategate, running one stage of a workflow pipeline. ${stageBrief(stage)}\nOnly the tools offered now run; a call to another is put to the person, who may deny it.`;
  const transcript: TranscriptEntry[] = [{ kind: 'user', text: firstMessage(stage, task, (await runner.requireActive()).pipeline?.upstream) }];
  const completion: OfferedTool = { name: stage.completion_tool, completion: { description: `Ends stage "${stage.state}": the arguments are the stage's result and must match this schema.`, inputSchema: stage.completion_schema } };
  const cap = stage.turn_cap ?? deps.defaultTurns ?? DEFAULT_STAGE_TURNS;
  for (let i = 0; i < cap + 1; i++) {
    if (deps.cancelled?.()) return 'cancelled';
    const turn = await runner.beginTurn(branch);
    if (!turn.allowed) {
      const reason = turn.failed?.reason ?? turn.error?.message ?? 'the stage cannot go on';
      deps.report({ kind: 'stage_failed', state: stage.state, ...(branch ? { branch } : {}), reason });
      deps.changed?.();
      return 'failed';
    }
    const tools: OfferedTool[] = [...offeredTools(deps.toolIds(), stageRules(stage), deps.aliases).map((name) => ({ name })), completion];
    const reply = await deps.ask({ stage, system, transcript, tools });
    for (const text of await reportTurnUsage(runner, reply)) deps.report({ kind: 'notice', state: stage.state, text });
    if (reply.text) deps.report({ kind: 'text', state: stage.state, ...(branch ? { branch } : {}), text: reply.text });
    transcript.push({ kind: 'assistant', text: reply.text, calls: reply.calls });
    if (!reply.calls.length) {
      transcript.push({ kind: 'user', text: `The stage ends only when you call ${stage.completion_tool} with a payload matching its schema.` });
      continue;
    }
    const results: ToolCallResult[] = [];
    let done = false;
    for (const call of reply.calls) {
      if (done) {
        results.push({ callId: call.callId, name: call.name, text: `Not run: the stage ended with ${stage.completion_tool}.` });
        continue;
      }
      if (call.name === stage.completion_tool) {
        const outcome = await runner.completeStage(call.name, (call.input ?? {}) as JsonValue, branch);
        deps.report({ kind: 'completion', state: stage.state, ...(branch ? { branch } : {}), accepted: outcome.accepted, text: outcome.text, payload: call.input });
        results.push({ callId: call.callId, name: call.name, text: outcome.text });
        done = outcome.accepted;
      } else results.push({ callId: call.callId, name: call.name, text: await stageCall(call.name, call.input, stage, deps) });
      deps.changed?.();
    }
    transcript.push({ kind: 'results', results });
    if (done) return 'completed';
  }
  return 'failed';
}

/** A call other than the completion tool: stategate's own, in the envelope (the policy decides), or outside it (a one-shot grant). */
async function stageCall(name: string, input: unknown, stage: StageView, deps: PipelineDeps): Promise<string> {
  const { runner } = deps;
  const branch = stage.branch;
  if (isOwnTool(name)) {
    const own = ownToolName(name) ?? name;
    return (await invokeAgentTool(runner, own, input, branch ? { branch } : {})).text;
  }
  const options = { ...(branch ? { branch } : {}), ...(deps.aliases ? { aliases: deps.aliases } : {}) };
  let answer = await runner.tool({ tool: name, input }, options);
  if (answer.decision === 'deny' && !isOffered(name, stageRules(stage), deps.aliases)) {
    // Outside the stage's tools: the person decides, for exactly this call.
    const asked = await runner.askGrant(name, input, branch);
    if (!asked.proposal) return `stategate denied ${name}: ${asked.error?.message ?? answer.reason}`;
    const said = deps.askGrant ? await deps.askGrant({ proposalId: asked.proposal.id, state: stage.state, tool: name, summary: asked.proposal.argsSummary }) : undefined;
    const by = said === undefined ? 'headless' : 'person';
    const answered = await runner.answerGrant(asked.proposal.id, said === true, by);
    deps.report({ kind: 'grant', state: stage.state, tool: name, approved: answered.approved, by });
    if (!answered.approved) return JSON.stringify(answered.denial);
    answer = await runner.tool({ tool: name, input }, options);
  }
  if (answer.decision === 'deny') {
    const reason = answer.reason ?? 'denied by the workflow';
    deps.report({ kind: 'denied', state: stage.state, tool: name, reason });
    return `stategate denied ${name}: ${reason}`;
  }
  let text: string;
  try {
    text = await deps.invoke(name, answer.rewrite ?? input);
  } catch (err) {
    text = `The tool ${name} failed: ${(err as Error)?.message ?? String(err)}`;
  }
  try {
    const recorded = await runner.result({ tool: name, input }, { bytes: Buffer.byteLength(text, 'utf8'), output: text }, options);
    if (recorded.notices.length) text += `\n\n${recorded.notices.join('\n')}`;
  } catch (err) {
    text += `\n\nstategate could not record this call: ${(err as Error)?.message ?? String(err)}`;
  }
  return text;
}
