/**
 * `stategate hook [--client NAME] [--event NAME] [--dir DIR]`: one process per
 * hook event, JSON on stdin, the client's answer on stdout (hook-dialects.ts
 * translates both ways for vscode, claude, codex, gemini, copilot, cursor,
 * opencode). It answers and exits at once.
 *
 * - PreToolUse: the policy decision; a denial says why and how to move on.
 * - PostToolUse: records result bytes and the edited file; an edit of a file
 *   matching an interrupt fires it and tells the agent (`[STATEWRIGHT INTERRUPT]`).
 * - SessionStart / UserPromptSubmit: what the agent is told each turn.
 * - Stop in a non-final state: a reminder of what is left (blocks with
 *   STATEGATE_BLOCK_STOP=1).
 *
 * Fail closed: garbage input, an unreadable run or an internal error on a
 * PreToolUse is a denial in the client's own deny format, and exit 2 with the
 * reason on stderr (every client blocks on 2), never a silent allow.
 */
import * as fs from 'node:fs';
import { bareNamesAreOurs, briefing, completionToolCalled, INTERRUPT_MARKER, isOwnTool, noteSession, type Runner, stageBrief } from '../engine/index.js';
import { parse, stringOption } from './args.js';
import { isCliError, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';
import { alreadyBriefed, markBriefed } from './hook-briefed.js';
import { claimTurn } from './hook-turns.js';
import { HookInputError, parseHookInput, parseHookObject, resultBytes, type HookInput } from './hook-protocol.js';
import { callOutcome, type CallOutcome } from './hook-outcome.js';
import { DIALECTS, parseClientInput, type Dialect, type Reply } from './hook-dialects.js';
import { createRunner } from './runner-factory.js';
import { bindingSession, callOptions, hookTarget } from './hook-target.js';
import { HOOK_CLIENTS, HOOK_TIMEOUT_S, hookBoundMs, isHookClient, setProcessDeadline, type HookClientName, type OutsideStage } from '../engine/index.js';
import { decideInTime } from './hook-deadline.js';

const USAGE = `stategate hook [--client ${HOOK_CLIENTS.join('|')}] [--event NAME] [--dir DIR]`;

function readStdin(): string {
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

function resultText(response: unknown): string | undefined {
  if (response === undefined) return undefined;
  return typeof response === 'string' ? response : JSON.stringify(response);
}

function emit(out: Output, reply: Reply): ExitCode {
  if (reply.stdout) out.stdout(`${JSON.stringify(reply.stdout)}\n`);
  if (reply.stderr) out.stderr(reply.stderr);
  return reply.exit;
}

/** Deny a PreToolUse the loud way: the client's deny answer, and exit 2, which every client treats as a block. */
function failClosed(out: Output, dialect: Dialect, reason: string): ExitCode {
  return emit(out, dialect.failClosed(reason));
}

/**
 * A pipeline stage that started since the agent was last told: its prompt and
 * how to end it, once per stage execution (journaled as prompt_sent). Empty
 * when no stage is waiting for its brief.
 */
async function newStageBriefs(runner: Runner): Promise<string[]> {
  const out: string[] = [];
  for (const s of await runner.stages()) {
    if (s.prompted) continue;
    const sent = await runner.promptSent(s.branch);
    if (!('error' in sent)) out.push(stageBrief(sent));
  }
  return out;
}

/**
 * Turn caps under a hook: each tool call an agent makes in a stage is one of
 * the stage's turns (the hook sees calls, not model requests), except
 * stategate's own tools and the stage's completion tool, which the MCP server
 * counts when it checks the payload (so no call counts twice). The call past
 * `turn_cap` fails the stage (its on_fail, else the run) and is denied: the
 * reason, or nothing when the call may go on. A parallel fork's stages are
 * not counted here: the hook cannot tell which branch a call belongs to.
 */
async function stageTurn(runner: Runner, tool: string, client: string, claim: () => boolean | Promise<boolean>): Promise<string | undefined> {
  if (isOwnTool(tool)) return undefined;
  const stages = await runner.stages();
  if (stages.length !== 1) return undefined;
  if (completionToolCalled(tool, (await runner.stageTools()).map((t) => t.completion_tool), bareNamesAreOurs(client))) return undefined;
  if (!(await claim())) return undefined;
  const turn = await runner.beginTurn(stages[0]!.branch);
  if (turn.allowed || !turn.failed) return undefined;
  const where = turn.status === 'running' ? `the run moved to "${turn.failed.to || turn.state}" (on_fail)` : `the run is ${turn.status}`;
  return `${turn.failed.reason}; ${where}.`;
}

/** Security mode yolo: a call the stage allows goes ahead without the client's own confirmation. */
async function yoloApproval(runner: Runner): Promise<{ approved?: string }> {
  const stage = (await runner.stages())[0];
  return stage?.security_mode === 'yolo' ? { approved: `stategate (security mode yolo): inside stage "${stage.state}"'s tools` } : {};
}

/**
 * A call outside the live stage's tools, and nothing else against it: a
 * one-shot grant, asked through the client's own prompt where it has one
 * (the proposal is journaled, grant_asked; the call's result settles it).
 * Where it has none, the deny says what the stage allows.
 */
/** Claude Code's permission modes in which its prompt never reaches a person. */
const PROMPTLESS_MODES: ReadonlySet<string> = new Set(['bypassPermissions', 'dontAsk']);

async function outsideStage(runner: Runner, input: HookInput, dialect: Dialect, o: OutsideStage, denyReason: string): Promise<Reply> {
  const allowed = o.allowed_tools === null ? 'any tool' : o.allowed_tools.length ? o.allowed_tools.join(', ') : 'no tools but stategate\'s own';
  const ask = `stategate: ${o.tool} is outside the tools of stage "${o.stage}" (${allowed}). Approve it for this one call (a one-shot grant: a later call asks again), or deny it and the stage goes on with its own tools.`;
  const noPrompt = `${denyReason} This client has no prompt for a one-shot grant, so the call is denied: go on with the stage's own tools.`;
  // A client that answers its own prompts (Claude Code in bypassPermissions or dontAsk mode) would turn
  // "ask" into yes or no without a person: the stage's tool list must hold, so the call is denied.
  if (input.permissionMode !== undefined && PROMPTLESS_MODES.has(input.permissionMode)) {
    return dialect.pre({ decision: 'deny', reason: `${denyReason} In permission mode ${input.permissionMode} this client asks no person, so the call is denied rather than put to one: go on with the stage's own tools.` });
  }
  const reply = dialect.outsideStage(input, ask, noPrompt);
  if (askedThePerson(reply)) {
    try {
      await runner.askGrant(input.toolName!, input.toolInput ?? {});
    } catch {
      /* the proposal is for the audit only: the client's prompt decides */
    }
  }
  return reply;
}

/** Whether a reply puts the call to the person (every dialect's ask spelling). */
function askedThePerson(reply: Reply): boolean {
  const o = reply.stdout as Record<string, unknown> | undefined;
  const specific = o?.['hookSpecificOutput'] as Record<string, unknown> | undefined;
  return specific?.['permissionDecision'] === 'ask' || o?.['decision'] === 'ask' || o?.['permission'] === 'ask';
}

/** The briefing for this session: its branch's state when bound, and how to bind while a parallel fork waits for it. */
async function sessionBriefing(runner: Runner, input: HookInput): Promise<string> {
  const session = bindingSession(input);
  const branch = await runner.branchOf(session);
  const view = await runner.state(branch);
  const text = briefing(view);
  if (branch !== undefined || view.fork?.mode !== 'parallel' || session === undefined) return text;
  // The briefing says how to bind; only the hook knows which session id this client's calls carry.
  return `${text}\nThis session's id is ${session}: bind it with \`stategate run bind --session ${session} --branch NAME\` or statewright_load_workflow(name, branch, session: "${session}").`;
}

async function handle(input: HookInput, runner: Runner, dir: string, out: Output, dialect: Dialect, outcome?: CallOutcome): Promise<ExitCode> {
  switch (input.event) {
    case 'PreToolUse': {
      // A pipeline stage's turn: a stage past its turn_cap fails here, and the call with it.
      const turn = await stageTurn(runner, input.toolName!, input.client, () => claimTurn(dir, input.callId));
      if (turn) return emit(out, dialect.pre({ decision: 'deny', reason: turn }));
      // The agent's folder: where its relative paths (and its shell's `> file`) start.
      const answer = await runner.tool({ tool: input.toolName!, input: input.toolInput ?? {} }, callOptions(input));
      if (answer.decision === 'deny' && answer.outside_stage) return emit(out, await outsideStage(runner, input, dialect, answer.outside_stage, answer.reason ?? 'denied by the workflow'));
      if (answer.decision === 'deny') return emit(out, dialect.pre({ decision: 'deny', reason: answer.reason ?? 'denied by the workflow' }));
      const notices = answer.notices.length ? answer.notices.join('\n') : undefined;
      if (answer.rewrite !== undefined) {
        // A rewritten command goes back to the person to confirm rather than running unseen; inside
        // the sandbox where the client takes it (updated_input wraps the environment rewrite).
        return emit(out, dialect.pre({ decision: 'ask', reason: 'stategate runs this command with the state\'s environment rules applied (blocked variables unset, overrides set).', updatedInput: answer.updated_input ?? answer.rewrite }, notices));
      }
      // The sandbox's rewrite, where the client takes one without it approving the call (src/engine/sandbox/clients.ts).
      const sandboxed = answer.updated_input !== undefined ? { updatedInput: answer.updated_input } : {};
      return emit(out, dialect.pre({ decision: 'allow', ...(await yoloApproval(runner)), ...sandboxed }, notices));
    }
    case 'PostToolUse': {
      const text = resultText(input.toolResponse);
      // How the call ended, as the client said it (a shell command's exit code): evidence guards read.
      const result = { bytes: resultBytes(input.toolResponse), ...(text !== undefined ? { output: text } : {}), ...(outcome ? { outcome } : {}) };
      const recorded = await runner.result({ tool: input.toolName!, input: input.toolInput ?? {} }, result, callOptions(input));
      const lines = [...recorded.notices];
      // A completion tool call (through stategate's MCP server) may have started the next stage.
      lines.push(...(await newStageBriefs(runner)));
      if (recorded.interrupted && recorded.interrupt) {
        const i = recorded.interrupt;
        const back = i.return_via === 'chart' ? `send one of the events listed below to go back (the events of "${i.to}")` : `send the event that returns ($return) to "${i.from}"`;
        lines.unshift(`${INTERRUPT_MARKER} Writing ${i.file} fired interrupt "${i.name}": the workflow moved from "${i.from}" to "${i.to}". Handle it, then ${back}.`);
        lines.push(await sessionBriefing(runner, input));
      }
      if (!lines.length) return 0;
      return emit(out, dialect.context(input, lines.join('\n'), recorded.interrupted));
    }
    case 'SessionStart':
    case 'UserPromptSubmit':
    case 'SubagentStart': {
      const active = await runner.active();
      if (active.kind === 'none') return 0;
      if (active.kind === 'unreadable') {
        const what = active.tampered ? 'found the active run tampered with' : 'cannot read the active run';
        return emit(out, dialect.context(input, `stategate ${what}, so every tool call is denied: ${active.reason}`));
      }
      const text = await sessionBriefing(runner, input);
      const stages = await newStageBriefs(runner);
      if (input.sessionId && input.event === 'SessionStart') markBriefed(dir, input.sessionId, text);
      // The first prompt of a session would repeat what SessionStart just said (a new stage's brief is never a repeat).
      if (!stages.length && input.sessionId && input.event === 'UserPromptSubmit' && alreadyBriefed(dir, input.sessionId, text)) return 0;
      return emit(out, dialect.context(input, [text, ...stages].join('\n\n')));
    }
    case 'Stop':
    case 'SubagentStop': {
      const active = await runner.active();
      if (active.kind !== 'ok' || active.run.status !== 'running' || input.stopHookActive) return 0;
      const view = await runner.state();
      if (view.is_final) return 0;
      const events = (view.events ? view.events.map((e) => `${e.event} → ${e.targets.join(', ') || '(stays)'}`) : view.transitions.map((t) => `${t.event} → ${t.target}`)).join(', ');
      const where = view.configuration ? `configuration ${view.configuration.join(' | ')}` : `state "${view.state}"`;
      const reason = `The workflow "${view.workflow.id}" is still in ${where} (not final). Events left: ${events || 'none'}.`;
      return emit(out, dialect.stop(input, reason, process.env.STATEGATE_BLOCK_STOP === '1'));
    }
    default:
      return 0;
  }
}

export const command: Command = {
  name: 'hook',
  answersInJson: () => false,
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    // One deadline for the whole call, from the process start: every store read and lock wait takes what remains.
    const boundMs = hookBoundMs();
    // The process start as Date.now() - uptime, not performance.timeOrigin: the global `performance` loads perf_hooks (~1 ms of every hook).
    setProcessDeadline({ at: Date.now() - process.uptime() * 1000 + boundMs, boundMs, why: `the client waits ${HOOK_TIMEOUT_S} s for its hook (the timeout \`stategate enable\` writes)` });
    let parsed;
    try {
      parsed = parse(args, { client: { type: 'string' }, event: { type: 'string' }, dir: { type: 'string' } }, USAGE);
    } catch (err) {
      return failClosed(out, DIALECTS.claude, (err as Error).message.split('\n')[0] ?? 'bad arguments');
    }
    if (parsed.values.help) {
      out.stdout(`usage: ${USAGE}\n\nReads one hook event as JSON on stdin and answers on stdout. PreToolUse: the workflow's decision;\nPostToolUse: records the result and fires interrupts; SessionStart/UserPromptSubmit: the state briefing;\nStop: a reminder of what is left (STATEGATE_BLOCK_STOP=1 blocks). Fails closed: exit 2 denies.\n`);
      return 0;
    }
    const clientOpt = stringOption(parsed, 'client');
    // An unknown client gets Claude Code's deny shape: exit 2 blocks whatever runs it.
    if (clientOpt !== undefined && !isHookClient(clientOpt)) return failClosed(out, DIALECTS.claude, `unknown --client '${clientOpt}' (${HOOK_CLIENTS.join(', ')})`);
    const text = readStdin();
    // Without --client: VS Code or Claude Code, told apart by their keys (hook-protocol.ts).
    const client: HookClientName = clientOpt ?? ((): HookClientName => {
      try {
        return parseHookInput(text).client;
      } catch {
        return 'claude';
      }
    })();
    const dialect = DIALECTS[client];
    let input: HookInput;
    try {
      input = parseClientInput(client, text, stringOption(parsed, 'event'));
    } catch (err) {
      if (err instanceof HookInputError) return failClosed(out, dialect, `bad hook input, so the call is denied: ${err.message}`);
      throw err;
    }
    const target = hookTarget(input, stringOption(parsed, 'dir'));
    if (!target) return 0; // no .stategate anywhere above, no record of one, no shared store: nothing to enforce
    const dir = target.dir;
    try {
      const outcome = input.event === 'PostToolUse' && input.toolName ? callOutcome(client, parseHookObject(text), input.toolName) : undefined;
      // The record's active_agents: the session this call comes from, noted before the call's commit writes the record.
      noteSession(dir, input.sessionId, input.client);
      const runner = createRunner(dir, target.workspaceRoot, `hook ${input.client}`);
      return await decideInTime(() => handle(input, runner, dir, out, dialect, outcome), (reason) => {
        if (input.event === 'PreToolUse') return failClosed(out, dialect, `${reason}; so the call is denied. Try again; if it happens again, find what is slow (\`stategate store status\` checks a shared store).`);
        out.stderr(`stategate: ${reason}\n`);
        return 0;
      });
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      if (input.event === 'PreToolUse') return failClosed(out, dialect, `stategate could not decide, so it denies: ${message}`);
      out.stderr(`stategate: ${message}\n`);
      if (isCliError(err)) return err.exitCode;
      return 1;
    }
  },
};
