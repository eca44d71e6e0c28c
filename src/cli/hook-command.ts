/**
 * `stategate hook [--client vscode|claude] [--dir DIR]`: one process per hook
 * event, JSON on stdin, JSON on stdout. It answers and exits at once.
 *
 * - PreToolUse: the policy decision; a denial says why and how to move on.
 * - PostToolUse: records result bytes and the edited file; an edit of a file
 *   matching an interrupt fires it and tells the agent (`[STATEWRIGHT INTERRUPT]`).
 * - SessionStart / UserPromptSubmit: what the agent is told each turn.
 * - Stop in a non-final state: a reminder of what is left (blocks with
 *   STATEGATE_BLOCK_STOP=1).
 *
 * Fail closed: garbage input, an unreadable run or an internal error on a
 * PreToolUse is a denial (exit 2 with the reason on stderr, which both clients
 * show the model), never a silent allow.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findStoreDir, briefing, INTERRUPT_MARKER, type Runner, stageBrief, userStateDir } from '../engine/index.js';
import { parse, stringOption } from './args.js';
import { isCliError, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';
import { alreadyBriefed, markBriefed } from './hook-briefed.js';
import { contextOutput, HookInputError, parseHookInput, preToolOutput, resultBytes, stopOutput, type HookClient, type HookInput } from './hook-protocol.js';
import { createRunner } from './runner-factory.js';

const USAGE = 'stategate hook [--client vscode|claude] [--dir DIR]';

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

/** Deny a PreToolUse the loud way: exit 2 blocks in both clients and shows stderr to the model. */
function failClosed(out: Output, reason: string): ExitCode {
  out.stdout(`${JSON.stringify(preToolOutput({ decision: 'deny', reason }))}\n`);
  out.stderr(`stategate: ${reason}\n`);
  return 2;
}

function emit(out: Output, value: object | undefined): void {
  if (value) out.stdout(`${JSON.stringify(value)}\n`);
}

/**
 * A pipeline stage that started since the agent was last told: its prompt and
 * how to end it, once per stage execution (journaled as prompt_sent). Empty
 * when no stage is waiting for its brief.
 */
function newStageBriefs(runner: Runner): string[] {
  const out: string[] = [];
  for (const s of runner.stages()) {
    if (s.prompted) continue;
    const sent = runner.promptSent(s.branch);
    if (!('error' in sent)) out.push(stageBrief(sent));
  }
  return out;
}

async function handle(input: HookInput, runner: Runner, dir: string, out: Output): Promise<ExitCode> {
  switch (input.event) {
    case 'PreToolUse': {
      // The agent's folder: where its relative paths (and its shell's `> file`) start.
      const answer = await runner.tool({ tool: input.toolName!, input: input.toolInput ?? {} }, input.cwd ? { cwd: input.cwd } : {});
      if (answer.decision === 'deny') {
        emit(out, preToolOutput({ decision: 'deny', reason: answer.reason ?? 'denied by the workflow' }));
        return 0;
      }
      const notices = answer.notices.length ? answer.notices.join('\n') : undefined;
      if (answer.rewrite !== undefined) {
        // A rewritten command goes back to the person to confirm rather than running unseen.
        emit(out, preToolOutput({ decision: 'ask', reason: 'stategate runs this command with the state\'s environment rules applied (blocked variables unset, overrides set).', updatedInput: answer.rewrite }, notices));
        return 0;
      }
      emit(out, preToolOutput({ decision: 'allow' }, notices));
      return 0;
    }
    case 'PostToolUse': {
      const text = resultText(input.toolResponse);
      const recorded = runner.result({ tool: input.toolName!, input: input.toolInput ?? {} }, { bytes: resultBytes(input.toolResponse), ...(text !== undefined ? { output: text } : {}) }, input.cwd ? { cwd: input.cwd } : {});
      const lines = [...recorded.notices];
      // A completion tool call (through stategate's MCP server) may have started the next stage.
      lines.push(...newStageBriefs(runner));
      if (recorded.interrupted && recorded.interrupt) {
        const i = recorded.interrupt;
        const back = i.return_via === 'chart' ? `send one of the events listed below to go back (the events of "${i.to}")` : `send the event that returns ($return) to "${i.from}"`;
        lines.unshift(`${INTERRUPT_MARKER} Writing ${i.file} fired interrupt "${i.name}": the workflow moved from "${i.from}" to "${i.to}". Handle it, then ${back}.`);
        lines.push(briefing(runner.state()));
      }
      if (!lines.length) return 0;
      if (recorded.interrupted && input.client === 'vscode') {
        // VS Code 1.139 does not pass a PostToolUse additionalContext to the model, but it does pass
        // a block's reason (the call already ran; "block" only means "tell the model"): so an
        // interrupt, which the agent must act on, goes out both ways. Claude Code passes both on
        // (the model would read it twice, the block with the hook's command line), so it gets the context.
        emit(out, { decision: 'block', reason: lines.join('\n'), ...contextOutput('PostToolUse', lines.join('\n')) });
        return 0;
      }
      emit(out, contextOutput('PostToolUse', lines.join('\n')));
      return 0;
    }
    case 'SessionStart':
    case 'UserPromptSubmit':
    case 'SubagentStart': {
      const active = runner.active();
      if (active.kind === 'none') return 0;
      if (active.kind === 'unreadable') {
        const what = active.tampered ? 'found the active run tampered with' : 'cannot read the active run';
        emit(out, contextOutput(input.event, `stategate ${what}, so every tool call is denied: ${active.reason}`));
        return 0;
      }
      const text = briefing(runner.state());
      const stages = newStageBriefs(runner);
      if (input.sessionId && input.event === 'SessionStart') markBriefed(dir, input.sessionId, text);
      // The first prompt of a session would repeat what SessionStart just said (a new stage's brief is never a repeat).
      if (!stages.length && input.sessionId && input.event === 'UserPromptSubmit' && alreadyBriefed(dir, input.sessionId, text)) return 0;
      emit(out, contextOutput(input.event, [text, ...stages].join('\n\n')));
      return 0;
    }
    case 'Stop':
    case 'SubagentStop': {
      const active = runner.active();
      if (active.kind !== 'ok' || active.run.status !== 'running' || input.stopHookActive) return 0;
      const view = runner.state();
      if (view.is_final) return 0;
      const events = (view.events ? view.events.map((e) => `${e.event} → ${e.targets.join(', ') || '(stays)'}`) : view.transitions.map((t) => `${t.event} → ${t.target}`)).join(', ');
      const where = view.configuration ? `configuration ${view.configuration.join(' | ')}` : `state "${view.state}"`;
      const reason = `The workflow "${view.workflow.id}" is still in ${where} (not final). Events left: ${events || 'none'}.`;
      emit(out, stopOutput(reason, process.env.STATEGATE_BLOCK_STOP === '1'));
      return 0;
    }
    default:
      return 0;
  }
}

export const command: Command = {
  name: 'hook',
  answersInJson: () => false,
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    let parsed;
    try {
      parsed = parse(args, { client: { type: 'string' }, dir: { type: 'string' } }, USAGE);
    } catch (err) {
      return failClosed(out, (err as Error).message.split('\n')[0] ?? 'bad arguments');
    }
    if (parsed.values.help) {
      out.stdout(`usage: ${USAGE}\n\nReads one hook event as JSON on stdin and answers on stdout. PreToolUse: the workflow's decision;\nPostToolUse: records the result and fires interrupts; SessionStart/UserPromptSubmit: the state briefing;\nStop: a reminder of what is left (STATEGATE_BLOCK_STOP=1 blocks). Fails closed: exit 2 denies.\n`);
      return 0;
    }
    const clientOpt = stringOption(parsed, 'client');
    if (clientOpt !== undefined && clientOpt !== 'vscode' && clientOpt !== 'claude') return failClosed(out, `unknown --client '${clientOpt}' (vscode or claude)`);
    let input: HookInput;
    try {
      input = parseHookInput(readStdin(), clientOpt as HookClient | undefined);
    } catch (err) {
      if (err instanceof HookInputError) return failClosed(out, `bad hook input, so the call is denied: ${err.message}`);
      throw err;
    }
    // `.stategate` from the hook's cwd upwards (hooks may run in a subfolder of the workspace), or a
    // workspace recorded outside as having an active run whose `.stategate` is gone (tampering).
    const dir = stringOption(parsed, 'dir') ?? process.env.STATEGATE_DIR ?? findStoreDir(input.cwd ?? process.cwd(), userStateDir());
    if (!dir) return 0; // no .stategate anywhere above, no record of one: nothing to enforce
    const root = input.cwd && !stringOption(parsed, 'dir') ? path.dirname(path.resolve(dir)) : undefined;
    try {
      return await handle(input, createRunner(path.resolve(dir), root), path.resolve(dir), out);
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      if (input.event === 'PreToolUse') return failClosed(out, `stategate could not decide, so it denies: ${message}`);
      out.stderr(`stategate: ${message}\n`);
      if (isCliError(err)) return err.exitCode;
      return 1;
    }
  },
};
