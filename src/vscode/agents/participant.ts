/**
 * The @stategate chat participant: VS Code's chat with the workflow in
 * charge. The loop itself is participant-loop.ts; this file adapts it to
 * VS Code: the model (`request.model`, or the state's `model` / first
 * available rung of `model_ladder`), tools from `vscode.lm.tools`, progress,
 * denials and interrupts in the chat stream, Approve/Reject buttons.
 */
import * as vscode from 'vscode';
import { AGENT_TOOLS, type AgentSession, type BriefedView, isOwnTool, specForView, stateNames } from '../../engine/index.js';
import { PARTICIPANT_ID } from '../contributions.js';
import type { RunService } from '../runtime/run-service.js';
import { currentView, modelCandidates, runLoop, type LoopEvent, type TranscriptEntry } from './participant-loop.js';
import { askModel } from './ask-model.js';
import { modelPrices, toolAliases } from './settings.js';
import { GrantWaiters } from './grant-buttons.js';
import { runPipelineRequest } from './pipeline-chat.js';
import { MODEL_EXTENSION, noModelMarkdown, noModelReason } from './no-model.js';

/** What a response remembers for the next turn of the same conversation. */
interface TurnMetadata {
  readonly branch?: string;
  /** The session id the binding is stored under in the run (engine/runs/agent-tools.ts). */
  readonly session?: string;
}

/** The fork branch this conversation bound itself to (statewright_load_workflow(branch)), from the last answer that says. */
function sessionFrom(history: vscode.ChatContext['history']): AgentSession {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID) {
      const meta = turn.result.metadata as TurnMetadata | undefined;
      const branch = meta?.branch;
      const id = typeof meta?.session === 'string' && meta.session ? { id: meta.session } : {};
      return typeof branch === 'string' && branch ? { branch, ...id } : id;
    }
  }
  return {};
}

/** Earlier turns with @stategate, as text (tool calls of past turns are not replayed). */
function transcriptFrom(history: vscode.ChatContext['history']): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const turn of history) {
    if (turn instanceof vscode.ChatRequestTurn && turn.participant === PARTICIPANT_ID) out.push({ kind: 'user', text: turn.prompt });
    else if (turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID) {
      const text = turn.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
      if (text) out.push({ kind: 'assistant', text, calls: [] });
    }
  }
  return out;
}

function toMessages(system: string, transcript: readonly TranscriptEntry[]): vscode.LanguageModelChatMessage[] {
  // The stable API has no system role: the briefing goes first as a user message, rebuilt every round.
  const out = [vscode.LanguageModelChatMessage.User(system)];
  for (const e of transcript) {
    if (e.kind === 'user') out.push(vscode.LanguageModelChatMessage.User(e.text));
    else if (e.kind === 'assistant') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (e.text) parts.push(new vscode.LanguageModelTextPart(e.text));
      for (const c of e.calls) parts.push(new vscode.LanguageModelToolCallPart(c.callId, c.name, (c.input ?? {}) as object));
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      out.push(vscode.LanguageModelChatMessage.User(e.results.map((r) => new vscode.LanguageModelToolResultPart(r.callId, [new vscode.LanguageModelTextPart(r.text)]))));
    }
  }
  return out;
}

/** The tools' definitions for the model; statewright_transition lists the events of the run as it stands. */
function toolDefinitions(names: readonly string[], view: BriefedView | undefined): vscode.LanguageModelChatTool[] {
  const out: vscode.LanguageModelChatTool[] = [];
  for (const name of names) {
    const spec = AGENT_TOOLS.find((t) => t.name === name);
    const own = spec && specForView(spec, view);
    if (own) out.push({ name, description: own.description, inputSchema: own.inputSchema });
    else {
      const info = vscode.lm.tools.find((t) => t.name === name);
      if (info) out.push({ name, description: info.description, ...(info.inputSchema ? { inputSchema: info.inputSchema } : {}) });
    }
  }
  return out;
}


function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : typeof p === 'object' && p && 'value' in p ? JSON.stringify((p as { value: unknown }).value) : '')).join('');
}

/** The state's model, else the first rung of its ladder VS Code offers, else the one the person picked. */
async function chooseModel(request: vscode.ChatRequest, service: RunService, session: AgentSession, stream: vscode.ChatResponseStream): Promise<vscode.LanguageModelChat> {
  const view = await currentView(service.runner, session);
  const situation = service.current;
  const node = view && situation.kind === 'active' ? situation.workflow?.states.get(view.state) : undefined;
  for (const wanted of modelCandidates(view, node?.rules.modelLadder)) {
    if (wanted === request.model.id || wanted === request.model.family) return request.model;
    const found = (await vscode.lm.selectChatModels({ id: wanted }))[0] ?? (await vscode.lm.selectChatModels({ family: wanted }))[0];
    if (found) {
      stream.progress(`Using ${found.name} (the model of state "${view?.state}")`);
      return found;
    }
  }
  return request.model;
}

function show(stream: vscode.ChatResponseStream, service: RunService, event: LoopEvent): void {
  const name = currentStateNames(service);
  switch (event.kind) {
    case 'text':
      stream.markdown(event.text);
      return;
    case 'denied':
      stream.markdown(`\n\n> **stategate denied \`${event.tool}\`**: ${event.reason}\n\n`);
      return;
    case 'state':
      stream.markdown(`\n\n**State:** ${name(event.from)} → ${name(event.to)}\n\n`);
      return;
    case 'interrupt':
      stream.markdown(`\n\n**${event.text}**\n\n`);
      return;
    case 'approval':
      // The buttons come at the end of the answer (askForApproval), where the chat does not fold them away.
      stream.markdown(`\n\n**Waiting for approval:** ${event.event} → ${name(event.target)}\n\n`);
      return;
    case 'task':
      stream.markdown(`\n\n**Task \`${event.id}\`** for agent "${event.agent}": \`${JSON.stringify(event.input)}\`\n\n`);
      return;
    case 'notice':
      stream.markdown(`\n\n> ${event.text}\n\n`);
      return;
    case 'limit': {
      stream.markdown(`\n\n**max_iterations reached** in "${event.state}" (${event.max} tool calls): the workflow needs a transition before any other tool runs.\n\n`);
      const situation = service.current;
      if (situation.kind === 'active') {
        for (const t of situation.view.transitions.filter((x) => x.available)) stream.button({ command: 'stategate.sendEvent', title: `${t.event} → ${name(t.target)}`, arguments: [t.event] });
      }
      return;
    }
  }
}

/** The names a person reads for the active run's states (the diagram's), or the ids without a run. */
function currentStateNames(service: RunService): (id: string) => string {
  const situation = service.current;
  return stateNames(situation.kind === 'active' ? situation.workflow : undefined);
}

/** A transition still parked when the loop ends: ask the person, with buttons. */
function askForApproval(stream: vscode.ChatResponseStream, view: BriefedView | undefined, name: (id: string) => string): void {
  const pending = view?.pending_approval;
  if (!pending) return;
  stream.markdown(`\n\n**${pending.event} → ${name(pending.target)} needs your approval**${pending.message ? `: ${pending.message}` : ''}\n\n`);
  stream.button({ command: 'stategate.approve', title: 'Approve' });
  stream.button({ command: 'stategate.reject', title: 'Reject' });
}

/** Without a usable model: what is needed and how to get it, with a button to the extension that brings one. */
function explainNoModel(stream: vscode.ChatResponseStream, reason: NonNullable<ReturnType<typeof noModelReason>>): vscode.ChatResult {
  stream.markdown(noModelMarkdown(reason));
  if (reason === 'none') stream.button({ command: 'workbench.extensions.search', title: 'Find GitHub Copilot Chat', arguments: [MODEL_EXTENSION] });
  return {};
}

/** The participant's request handler (activate() creates the participant, extension.ts). */
export function participantHandler(service: RunService, waiters: GrantWaiters = new GrantWaiters()): vscode.ChatRequestHandler {
  const answer = turnHandler(service, waiters);
  return async (request, chatContext, stream, token) => {
    const missing = noModelReason(request.model);
    if (missing) return explainNoModel(stream, missing);
    try {
      return await answer(request, chatContext, stream, token);
    } catch (err) {
      const reason = noModelReason(request.model, err);
      if (!reason) throw err;
      return explainNoModel(stream, reason);
    }
  };
}

function turnHandler(service: RunService, waiters: GrantWaiters): vscode.ChatRequestHandler {
  // The RunService's runner decides shell calls too (its analyser loads on the first one).
  const runner = service.runner;
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    if (!vscode.workspace.isTrusted) {
      // It runs tools and changes the run: neither happens in Restricted Mode.
      stream.markdown('@stategate works in trusted workspaces only: this folder is open in Restricted Mode.');
      return {};
    }
    // `/run <workflow> <task>`: a stage pipeline, each stage in a fresh transcript (pipeline-chat.ts).
    if (request.command === 'run') return runPipelineRequest(request, stream, token, service, waiters, toMessages);
    const session = sessionFrom(chatContext.history);
    const model = await chooseModel(request, service, session, stream);
    const transcript = [...transcriptFrom(chatContext.history), { kind: 'user' as const, text: request.prompt }];
    const aliases = toolAliases();
    await runLoop(transcript, {
      runner,
      session,
      ...(aliases ? { aliases } : {}),
      toolIds: () => vscode.lm.tools.map((t) => t.name).filter((n) => !isOwnTool(n)),
      ask: async ({ system, transcript: t, tools }) => askModel(model, toMessages(system, t), toolDefinitions(tools, await currentView(runner, session)), 'stategate runs the agent under the active workflow.', token, modelPrices()),
      invoke: async (name, input) => {
        stream.progress(`Running ${name}`);
        const result = await vscode.lm.invokeTool(name, { input: (input ?? {}) as object, toolInvocationToken: request.toolInvocationToken }, token);
        return resultText(result);
      },
      report: (event) => show(stream, service, event),
      changed: () => service.refresh(true),
      cancelled: () => token.isCancellationRequested,
    });
    askForApproval(stream, await currentView(runner, session), currentStateNames(service));
    const metadata: TurnMetadata = { ...(session.branch ? { branch: session.branch } : {}), ...(session.id ? { session: session.id } : {}) };
    return { metadata };
  };
  return handler;
}
