/**
 * stategate's own agent tools, with Statewright's names so workflows whose
 * instructions name them keep working. One definition serves every client:
 * VS Code's language-model tools, the MCP server and the @stategate
 * participant are adapters over `AGENT_TOOLS` and `invokeAgentTool`.
 * These tools are always allowed and never counted (see agent/tools.ts); the acts
 * that loosen an enforced run (pause, load another workflow, force a state)
 * are refused here unless the run's workflow grants them (agent/agent-acts.ts).
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { actRefusal, isGranted } from '../agent/agent-acts.js';
import { briefing, type BriefedView } from '../policy/briefing.js';
import { eventNames } from '../policy/chart-agent-view.js';
import type { AgentAct, JsonObject, JsonValue } from '../model/index.js';
import { Runner, RunnerError } from './runner.js';
import { findWorkflow, findWorkflows } from '../formats/workspace-workflows.js';
import type { StageView } from '../pipeline/prompt.js';
import { typedDenial } from '../pipeline/grants.js';

export type AgentToolName =
  | 'statewright_get_state'
  | 'statewright_transition'
  | 'statewright_load_workflow'
  | 'statewright_pause'
  | 'statewright_list_workflows'
  | 'statewright_force_state'
  | 'stategate_invocation_done'
  | 'stategate_invocation_fail'
  | 'statewright_record_learning';

export interface AgentToolSpec {
  readonly name: AgentToolName;
  readonly description: string;
  /** JSON Schema of the input (an object). */
  readonly inputSchema: JsonObject;
  /** True for tools that never change the run (MCP readOnlyHint). */
  readonly readOnly: boolean;
  /** Only offered while the active workflow has `meta.debug`. */
  readonly debugOnly?: boolean;
}

const object = (properties: JsonObject, required: string[] = []): JsonObject => ({ type: 'object', properties, required, additionalProperties: false });

export const AGENT_TOOLS: readonly AgentToolSpec[] = [
  {
    name: 'statewright_get_state',
    description: 'Where the workflow stands: the current state, its instructions, the tools and commands allowed now, limits, and the events you can send (with their targets and whether their guards pass).',
    inputSchema: object({}),
    readOnly: true,
  },
  {
    name: 'statewright_transition',
    description: 'Move the workflow on by sending an event of the current state (see statewright_get_state). `data` is merged into the workflow context when the transition happens. Some transitions wait for a person\'s approval. A pipeline stage\'s completion event is never sent here: call the stage\'s completion tool with its payload instead (this tool refuses it with completion_required).',
    inputSchema: object({ event: { type: 'string', description: 'The event name, e.g. READY, or BRANCH_DONE:<branch>.' }, data: { type: 'object', description: 'Context data to merge if the transition happens.' } }, ['event']),
    readOnly: false,
  },
  {
    name: 'statewright_load_workflow',
    description: 'Start a workflow of this workspace by id or registered name (resume: true continues its newest paused run) when no run is enforced. While a run is enforced, starting another one stops it: that is a person\'s act unless the workflow grants it (meta.agent_may "load_workflow"). With `branch`, bind this session to that branch of an active fork instead (always allowed): its calls are then decided by that branch\'s rules. `session`: the session id to bind (the one your briefing names, e.g. a sub-agent\'s), so the client\'s hook applies the branch too.',
    inputSchema: object({ name: { type: 'string' }, resume: { type: 'boolean' }, branch: { type: 'string' }, session: { type: 'string', description: 'The session id to bind to the branch (your briefing names it); default: this MCP connection\'s own.' } }, ['name']),
    readOnly: false,
  },
  {
    name: 'statewright_pause',
    description: 'Pause the active workflow run: its state and context are kept and enforcement is off until it is resumed. A person\'s act unless the workflow grants it to the agent (meta.agent_may "pause"); otherwise refused, saying how a person pauses.',
    inputSchema: object({}),
    readOnly: false,
  },
  {
    name: 'statewright_list_workflows',
    description: 'List the workflows of this workspace (id, file, number of states).',
    inputSchema: object({}),
    readOnly: true,
  },
  {
    name: 'statewright_force_state',
    description: 'Debug workflows only: jump to any state, bypassing guards, optionally patching the context. A person\'s act unless the workflow grants it to the agent (meta.agent_may "force").',
    inputSchema: object({ state: { type: 'string' }, context: { type: 'object' } }, ['state']),
    readOnly: false,
    debugOnly: true,
  },
  {
    name: 'stategate_invocation_done',
    description: 'Statecharts: report that a task a state handed to an agent (an `agent:` invocation; statewright_get_state lists them with their id and input) is done. `data` (the result) becomes event.data of its onDone transition.',
    inputSchema: object({ id: { type: 'string', description: 'The invocation id, as statewright_get_state lists it.' }, data: { type: 'object', description: 'The result of the task.' } }, ['id']),
    readOnly: false,
  },
  {
    name: 'stategate_invocation_fail',
    description: 'Statecharts: report that a task handed to an agent (an `agent:` invocation) could not be done. `data` (for example {"reason": "..."}) becomes event.data of its onError transition.',
    inputSchema: object({ id: { type: 'string', description: 'The invocation id, as statewright_get_state lists it.' }, data: { type: 'object', description: 'Why it failed.' } }, ['id']),
    readOnly: false,
  },
  {
    name: 'statewright_record_learning',
    description: 'Record something learned while working (a pattern to follow, an antipattern to avoid, an insight) in the run record (agent-state.json) and learnings.jsonl, with the current state and iteration, so later steps and later runs can read it.',
    inputSchema: object(
      {
        lesson: { type: 'string', description: 'What was learned.' },
        type: { type: 'string', enum: ['pattern', 'antipattern', 'insight'], description: 'pattern (follow it), antipattern (avoid it) or insight (default).' },
        pattern: { type: 'string', description: 'The reusable rule for future tasks.' },
        context: { type: 'string', description: 'The situation where it applies.' },
      },
      ['lesson'],
    ),
    readOnly: false,
  },
];

/**
 * A tool's spec for the run as it stands: on a statechart run,
 * statewright_transition's description names the configuration and the
 * events it handles now, and its `event` is one of them (unless a `*`
 * transition accepts any). Other tools, and flat runs, keep their spec.
 */
export function specForView(spec: AgentToolSpec, view: BriefedView | undefined): AgentToolSpec {
  if (spec.name !== 'statewright_transition' || !view?.events || view.status !== 'running') return spec;
  const names = eventNames(view);
  const where = (view.configuration ?? []).join(' | ');
  const ends = (view.completion_tools ?? []).map((c) => c.tool);
  const stages = ends.length ? ` A stage's completion event (${ends.join(', ')}) is never sent here: call that completion tool with its payload.` : '';
  const description = `Send an event to the statechart run (configuration: ${where}). Events handled now: ${names.join(', ') || 'none'}${view.accepts_any_event ? ' (any other name is accepted too)' : ''}. \`data\` becomes event.data for guards and actions. See statewright_get_state for targets and guards.${stages}`;
  const event: JsonObject = names.length && !view.accepts_any_event ? { type: 'string', enum: names, description: 'The event to send.' } : { type: 'string', description: 'The event to send.' };
  return { ...spec, description, inputSchema: object({ event, data: { type: 'object', description: 'event.data of the event.' } }, ['event']) };
}

/** A tool offered to an agent: one of stategate's own, or an active stage's completion tool (named by the workflow). */
export type OfferedToolSpec = Omit<AgentToolSpec, 'name'> & { readonly name: string; /** Set on a stage's completion tool. */ readonly stage?: string };

/**
 * The completion tools of the run's live stages (a parallel fork has one per
 * branch; a session bound to a branch sees its branch's): under their own
 * names, the `completion_schema` as the input schema (docs/pipelines.md).
 */
export async function stageToolSpecs(runner: Runner, session: AgentSession = {}): Promise<OfferedToolSpec[]> {
  const seen = new Set<string>();
  const out: OfferedToolSpec[] = [];
  for (const s of await runner.stages()) {
    if (session.branch !== undefined && s.branch !== session.branch) continue;
    if (seen.has(s.completion_tool) || AGENT_TOOL_NAMES.has(s.completion_tool)) continue;
    seen.add(s.completion_tool);
    out.push({
      name: s.completion_tool,
      description: `Completes the workflow's stage "${s.state}"${s.branch ? ` (branch ${s.branch})` : ''}: call it once the stage's work is done, with the stage's result as the arguments (they must match this input schema; if they do not, the errors come back and the stage goes on). A valid call ends the stage and moves the workflow to the next one.`,
      inputSchema: s.completion_schema,
      readOnly: false,
      stage: s.state,
    });
  }
  // The workflow's other stages' tools too, refused until their stage is live: a client that lists tools
  // once (or misses tools/list_changed) can still end the next stage (a session bound to a branch excepted).
  if (session.branch === undefined && out.length) {
    for (const t of await runner.stageTools()) {
      if (seen.has(t.completion_tool) || AGENT_TOOL_NAMES.has(t.completion_tool)) continue;
      seen.add(t.completion_tool);
      out.push({
        name: t.completion_tool,
        description: `Completes the workflow's stage "${t.state}" once it is the current stage (it is not now: calling it before then is refused and names the current stage's tool). The arguments must match this input schema.`,
        inputSchema: t.completion_schema,
        readOnly: false,
        stage: t.state,
      });
    }
  }
  return out;
}

/** Everything to offer for the active run: stategate's own tools, then the live stages' completion tools. */
export async function offeredToolSpecs(runner: Runner, session: AgentSession = {}): Promise<OfferedToolSpec[]> {
  let stages: OfferedToolSpec[] = [];
  try {
    stages = await stageToolSpecs(runner, session);
  } catch {
    stages = [];
  }
  return [...(await agentToolSpecs(runner, session)), ...stages];
}

/** The tools to offer for the active run, specs as specForView gives them (force_state only in debug workflows). */
export async function agentToolSpecs(runner: Runner, session: AgentSession = {}): Promise<AgentToolSpec[]> {
  const debug = await activeIsDebug(runner);
  let view: BriefedView | undefined;
  try {
    view = (await runner.active()).kind === 'ok' ? await runner.state(session.branch) : undefined;
  } catch {
    view = undefined;
  }
  return AGENT_TOOLS.filter((t) => !t.debugOnly || debug).map((t) => specForView(t, view));
}

export const AGENT_TOOL_NAMES: ReadonlySet<string> = new Set(AGENT_TOOLS.map((t) => t.name));

/**
 * A client session: which fork branch it is bound to (parallel forks), and
 * the session id that binding is stored under in the run (`run bind`'s
 * `--session`), so the hook decides that session's calls by the branch too.
 */
export interface AgentSession {
  branch?: string;
  id?: string;
}

export interface AgentToolResult {
  readonly isError: boolean;
  /** What the agent reads. */
  readonly text: string;
  /** The same as data, for clients that take structured results. */
  readonly data: JsonValue;
}

function asObject(args: unknown): Record<string, unknown> {
  return args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

function requireString(args: Record<string, unknown>, key: string): string {
  const v = args[key];
  if (typeof v !== 'string' || v === '') throw new RunnerError('invalid_arguments', `\`${key}\` must be a non-empty string`);
  return v;
}

function optionalObject(args: Record<string, unknown>, key: string): JsonObject | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new RunnerError('invalid_arguments', `\`${key}\` must be an object`);
  return v as JsonObject;
}

async function stateText(runner: Runner, session: AgentSession): Promise<AgentToolResult> {
  const own = await runner.state(session.branch);
  // The session's branch has ended (done, failed): the fork's own view, with what runs still.
  const view = session.branch !== undefined && own.error?.code === 'unknown_branch' ? await runner.state() : own;
  return { isError: false, text: briefing(view), data: view as unknown as JsonValue };
}

/** Whether the active run's workflow is a debug workflow (force_state is offered). */
export async function activeIsDebug(runner: Runner): Promise<boolean> {
  const active = await runner.active();
  if (active.kind !== 'ok') return false;
  return runner.env.load(active.run.workflow.definitionText)?.meta.debug === true;
}

/**
 * The refusal of an act the active run's workflow does not grant the agent, or
 * undefined when the call may go ahead. `enforcedOnly`: refused only while the
 * run is enforced (running); an unreadable or tampered active run counts as
 * enforced (the gate denies everything there; a person recovers it).
 */
async function refusedAct(runner: Runner, act: AgentAct, tool: AgentToolName, enforcedOnly: boolean): Promise<AgentToolResult | undefined> {
  const active = await runner.active();
  if (active.kind === 'none') return undefined;
  if (active.kind === 'ok') {
    if (enforcedOnly && active.run.status !== 'running') return undefined;
    if (isGranted(act, runner.env.load(active.run.workflow.definitionText)?.meta)) return undefined;
  }
  // Binding a session to a fork branch is the load tool's other use, and stays the agent's: say so where it applies.
  const text = `${actRefusal(act, tool)}${act === 'load_workflow' ? ' Binding this session to a branch of a fork (`branch`) stays allowed.' : ''}`;
  return { isError: true, text, data: { error: { code: 'person_only', act, message: text } } };
}

/** Run one of stategate's agent tools. Never throws: failures come back as `isError` results the agent can read. */
export async function invokeAgentTool(runner: Runner, name: string, rawArgs: unknown, session: AgentSession = {}): Promise<AgentToolResult> {
  const args = asObject(rawArgs);
  try {
    switch (name as AgentToolName) {
      case 'statewright_get_state': {
        const active = await runner.active();
        if (active.kind === 'none') return { isError: false, text: 'stategate: no workflow is active, so nothing is enforced. Use statewright_list_workflows and statewright_load_workflow to start one.', data: { active: false } };
        return await stateText(runner, session);
      }
      case 'statewright_transition': {
        const event = requireString(args, 'event');
        const outcome = await runner.send(event, optionalObject(args, 'data'), session.branch);
        const after = briefing(await runner.state(session.branch));
        // A completion event names its code: the agent (and an MCP client reading text only) tells it from a guard or an unknown event.
        const code = outcome.error?.code === 'completion_required' ? ` (${outcome.error.code})` : '';
        if (outcome.error) return { isError: true, text: `Transition ${event} refused${code}: ${outcome.error.message}\n\n${after}`, data: outcome as unknown as JsonValue };
        if (outcome.pending_approval) {
          return { isError: false, text: `Transition ${event} → ${outcome.pending_approval.target} is waiting for a person's approval${outcome.pending_approval.message ? `: ${outcome.pending_approval.message}` : ''}. Wait for it; other transitions are refused meanwhile.\n\n${after}`, data: outcome as unknown as JsonValue };
        }
        const configuration = (outcome as { configuration?: readonly string[] }).configuration;
        if (configuration) {
          // A statechart: regions move on their own, so the whole configuration is what changed.
          const moved = outcome.transitioned ? `Transition ${event}: now in ${configuration.join(' | ')}.` : `Event ${event} changed nothing: no active state handles it now.`;
          return { isError: false, text: `${moved}\n\n${after}`, data: outcome as unknown as JsonValue };
        }
        return { isError: false, text: `Transition ${event}: ${outcome.from} → ${outcome.to}.\n\n${after}`, data: outcome as unknown as JsonValue };
      }
      case 'statewright_load_workflow': {
        const wanted = requireString(args, 'name');
        const branch = args.branch;
        if (typeof branch === 'string' && branch !== '') {
          // One mechanism with `stategate run bind`: the binding is stored in the run under the session id
          // the client names (`session`: its hook session id, a sub-agent's agent_id), else this server's own.
          const named = typeof args.session === 'string' && args.session !== '' ? args.session : undefined;
          const id = named ?? session.id ?? `mcp-${randomUUID()}`;
          const bound = await runner.bind(id, branch);
          if (bound.error) return { isError: true, text: `Cannot bind to branch "${branch}": ${bound.error.message}.`, data: bound as unknown as JsonValue };
          session.id = id;
          session.branch = branch;
          return await stateText(runner, session);
        }
        const refused = await refusedAct(runner, 'load_workflow', 'statewright_load_workflow', true);
        if (refused) return refused;
        const found = findWorkflow(runner.workspaceRoot, wanted);
        if (!found) {
          const known = findWorkflows(runner.workspaceRoot).map((w) => w.id);
          return { isError: true, text: `No workflow named "${wanted}" in this workspace. Known: ${known.join(', ') || '(none)'}.`, data: { known } };
        }
        if (args.resume === true) await runner.resume(found.file);
        // Allowed above (the workflow grants load_workflow, or no run is enforced): loading replaces the run on purpose.
        else await runner.start(found.file, undefined, undefined, { replace: true });
        return await stateText(runner, session);
      }
      case 'statewright_pause': {
        const refused = await refusedAct(runner, 'pause', 'statewright_pause', true);
        if (refused) return refused;
        const outcome = await runner.pause();
        return { isError: outcome.error !== undefined, text: outcome.error ? `Pause refused: ${outcome.error.message}` : `Paused in state "${outcome.state}": enforcement is off until the run is resumed.`, data: outcome as unknown as JsonValue };
      }
      case 'statewright_list_workflows': {
        const list = findWorkflows(runner.workspaceRoot).map((w) => ({ id: w.id, file: path.relative(runner.workspaceRoot, w.file), states: w.states, ...(w.aliases.length ? { aliases: w.aliases } : {}) }));
        return { isError: false, text: list.length ? list.map((w) => `- ${w.id} (${w.file}, ${w.states} states)`).join('\n') : 'No workflows in this workspace.', data: list as unknown as JsonValue };
      }
      case 'stategate_invocation_done':
      case 'stategate_invocation_fail': {
        const ok = name === 'stategate_invocation_done';
        const id = requireString(args, 'id');
        const outcome = await runner.complete(id, ok, optionalObject(args, 'data'));
        const after = briefing(await runner.state(session.branch));
        if (outcome.error) return { isError: true, text: `Invocation ${id} could not be marked ${ok ? 'done' : 'failed'}: ${outcome.error.message}\n\n${after}`, data: outcome as unknown as JsonValue };
        return { isError: false, text: `Invocation ${id} ${ok ? 'done' : 'failed'}: ${outcome.from} → ${outcome.to}.\n\n${after}`, data: outcome as unknown as JsonValue };
      }
      case 'statewright_record_learning': {
        const outcome = await runner.recordLearning(args);
        if (outcome.error) return { isError: true, text: `Learning not recorded: ${outcome.error.message}`, data: outcome as unknown as JsonValue };
        return { isError: false, text: `Learning recorded in state "${outcome.state}" (iteration ${outcome.learning?.iteration ?? 0}).`, data: outcome as unknown as JsonValue };
      }
      case 'statewright_force_state': {
        const refused = await refusedAct(runner, 'force', 'statewright_force_state', false);
        if (refused) return refused;
        const outcome = await runner.force(requireString(args, 'state'), optionalObject(args, 'context'));
        if (outcome.error) return { isError: true, text: `force_state refused: ${outcome.error.message}`, data: outcome as unknown as JsonValue };
        return { isError: false, text: `Forced ${outcome.from} → ${outcome.to}.\n\n${briefing(await runner.state(session.branch))}`, data: outcome as unknown as JsonValue };
      }
      default: {
        // A live stage's completion tool: the payload is checked and, when valid, the stage ends.
        const stage = (await runner.stages()).find((x) => x.completion_tool === name && (session.branch === undefined || x.branch === session.branch));
        if (stage) {
          // A completion call through MCP is one of the stage's turns (the hook counts the agent's other calls):
          // past turn_cap the stage fails instead of being checked.
          const turn = await runner.beginTurn(session.branch ?? stage.branch);
          if (!turn.allowed && turn.failed) {
            const where = turn.status === 'running' ? `the run moved to "${turn.failed.to || turn.state}" (on_fail)` : `the run is ${turn.status}`;
            return { isError: true, text: `Stage "${stage.state}" failed: ${turn.failed.reason}; ${where}. The payload was not checked.\n\n${briefing(await runner.state(session.branch))}`, data: turn as unknown as JsonValue };
          }
          const outcome = await runner.completeStage(name, rawArgs === undefined ? {} : (rawArgs as JsonValue), session.branch ?? stage.branch);
          const next = outcome.accepted ? await nextStageText(runner, session) : '';
          return { isError: !outcome.accepted, text: `${outcome.text}${next}`, data: outcome as unknown as JsonValue };
        }
        const later = (await runner.stageTools()).find((t) => t.completion_tool === name);
        if (later) {
          const live = (await runner.stages()).filter((x) => session.branch === undefined || x.branch === session.branch);
          const now = live.length ? live.map((x) => `"${x.state}" (ends with ${x.completion_tool})`).join(', ') : 'none';
          // The MCP client meets the pipeline's typed denial here: a tool it was offered that is not the current stage's.
          const denial = typedDenial({ tool: name, state: live.map((x) => x.state).join(', ') || later.state }, 'outside_stage');
          const text = `${name} completes the stage "${later.state}", which is not the current stage; the current stage: ${now}. Nothing changed.`;
          return { isError: true, text: `${text}\n${JSON.stringify(denial)}`, data: { ...denial, message: text, error: { code: 'wrong_completion_tool', message: `not the current stage: ${later.state}` } } };
        }
        return { isError: true, text: `Unknown stategate tool "${name}".`, data: null };
      }
    }
  } catch (err) {
    const message = err instanceof RunnerError ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
    return { isError: true, text: `stategate: ${message}`, data: { error: { code: err instanceof RunnerError ? err.code : 'internal', message } } };
  }
}

/** After a completion: the next stage's brief, or the run's state when no stage follows. */
async function nextStageText(runner: Runner, session: AgentSession): Promise<string> {
  const stages = (await runner.stages()).filter((s) => session.branch === undefined || s.branch === session.branch);
  if (!stages.length) return `\n\n${briefing(await runner.state(session.branch))}`;
  // This result delivers the new stage's brief: journaled as its prompt_sent, so the hook does not brief it again.
  const briefs: string[] = [];
  for (const s of stages) {
    const sent = s.prompted ? s : await runner.promptSent(s.branch);
    briefs.push(stageBrief('error' in sent ? s : sent));
  }
  return `\n\n${briefs.join('\n\n')}`;
}

/** What an agent is told at a stage's start: its prompt, its tools, and how to end it. */
export function stageBrief(s: StageView): string {
  const tools = s.allowed_tools === null ? 'any tool' : s.allowed_tools.length ? s.allowed_tools.join(', ') : 'no tools (only stategate\'s own)';
  return [
    `[STAGE ${s.state}${s.branch ? ` / branch ${s.branch}` : ''}${s.attempt && s.attempt > 1 ? `, attempt ${s.attempt}` : ''}] ${s.prompt || '(this stage has no prompt)'}`,
    `Tools for this stage: ${tools}. End the stage by calling ${s.completion_tool} (a tool of stategate's MCP server) with arguments matching: ${JSON.stringify(s.completion_schema)}.${s.turn_cap ? ` Turn cap: ${s.turn_cap}.` : ''}`,
  ].join('\n');
}

/** What a tool call will do, for confirmation messages ("Transition READY: planning → implementing"). */
export async function describeAgentCall(runner: Runner, name: string, rawArgs: unknown, session: AgentSession = {}): Promise<string> {
  const args = asObject(rawArgs);
  if (name === 'statewright_transition' && typeof args.event === 'string') {
    try {
      const view = await runner.state(session.branch);
      if (view.events) {
        const targets = view.events.filter((e) => e.event === args.event).flatMap((e) => e.targets);
        return `Transition ${args.event} from ${(view.configuration ?? []).join(' | ')}${targets.length ? ` → ${[...new Set(targets)].join(' or ')}` : ''}`;
      }
      const t = view.transitions.find((x) => x.event === args.event);
      return t ? `Transition ${args.event}: ${view.state} → ${t.target}` : `Transition ${args.event} from ${view.state}`;
    } catch {
      return `Transition ${args.event}`;
    }
  }
  if (name === 'statewright_load_workflow') return `Load workflow ${String(args.name ?? '')}${args.branch ? ` (branch ${String(args.branch)})` : ''}`;
  if (name === 'statewright_force_state') return `Force state ${String(args.state ?? '')}`;
  return AGENT_TOOLS.find((t) => t.name === name)?.description.split('.')[0] ?? name;
}
