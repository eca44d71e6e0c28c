/**
 * The agent-hook protocol family shared by VS Code's agent hooks and Claude
 * Code: JSON on stdin, JSON on stdout, exit code 2 blocks and shows stderr to
 * the model. This module only translates: raw input -> `HookInput`, a tool
 * response -> the bytes the agent read of it, and decisions -> each client's
 * output shape.
 *
 * Input shapes (sources: VS Code's hooks reference and docs/agents.md's reading of
 * it; Claude Code's hooks documentation):
 * - VS Code: `hookEventName`, `sessionId`, `cwd`, `timestamp`, `transcript_path`,
 *   and for tool events `tool_name`, `tool_input`, `tool_use_id`
 *   (PostToolUse also `tool_response`).
 * - Claude Code: `hook_event_name`, `session_id`, `cwd`, `transcript_path`,
 *   `tool_name`, `tool_input`, PostToolUse `tool_response` (an object, never a
 *   string: test/fixtures/hooks/claude-code-recorded/ has what 2.1.330 sends).
 */

import { MAX_JSON_DEPTH, nestsDeeperThan, type HookClientName } from '../engine/index.js';

export type HookClient = HookClientName;

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export interface HookInput {
  readonly client: HookClient;
  readonly event: HookEventName;
  readonly cwd?: string;
  readonly sessionId?: string;
  /** A Claude Code sub-agent's id (`agent_id`): the session its calls bind to a fork branch as (it wins over `sessionId`). */
  readonly agentId?: string;
  readonly toolName?: string;
  readonly toolInput?: unknown;
  readonly toolResponse?: unknown;
  /** The client's id of this tool call (`tool_use_id`), when it sends one: one call, however many hooks answer it. */
  readonly callId?: string;
  /** Stop: Claude Code sets this when a Stop hook already blocked once. */
  readonly stopHookActive: boolean;
  /** The client's own name of the event where its answers differ by event (Cursor's beforeShellExecution takes "ask", preToolUse does not). */
  readonly clientEvent?: string;
  /** Claude Code's permission mode (`permission_mode`: default, acceptEdits, plan, bypassPermissions, dontAsk). */
  readonly permissionMode?: string;
}

export class HookInputError extends Error {}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Stdin as a JSON object, whatever the client. Throws HookInputError saying what is wrong. */
export function parseHookObject(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new HookInputError('empty hook input: expected a JSON object on stdin');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new HookInputError(`hook input is not JSON (${(err as Error).message})`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new HookInputError('hook input must be a JSON object');
  // Refused before anything walks it (model/json-value.ts says why): the envelope is one level, what it
  // carries (tool_input) may have MAX_JSON_DEPTH, as anything handed to a run may.
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH + 1)) throw new HookInputError(`the hook input nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; stategate reads at most ${MAX_JSON_DEPTH}`);
  return raw as Record<string, unknown>;
}

/** Parse stdin. Throws HookInputError with a message that says what is wrong. */
export function parseHookInput(text: string, clientHint?: HookClient): HookInput {
  const o = parseHookObject(text);
  const eventRaw = str(o.hookEventName) ?? str(o.hook_event_name);
  if (!eventRaw) throw new HookInputError('hook input has no hookEventName / hook_event_name');
  // Claude Code reports a failed call (a shell command's non-zero exit) as PostToolUseFailure: a result all the same (hook-outcome.ts reads how it ended).
  const event = eventRaw.toLowerCase() === 'posttoolusefailure' ? 'PostToolUse' : HOOK_EVENTS.find((e) => e.toLowerCase() === eventRaw.toLowerCase());
  if (!event) throw new HookInputError(`unknown hook event "${eventRaw}"`);
  const client: HookClient = clientHint ?? ('hookEventName' in o || 'sessionId' in o ? 'vscode' : 'claude');
  const toolName = str(o.tool_name) ?? str(o.toolName);
  if ((event === 'PreToolUse' || event === 'PostToolUse') && !toolName) throw new HookInputError(`${event} hook input has no tool_name`);
  const toolResponse = o.tool_response ?? o.tool_result ?? o.toolResponse;
  const cwd = str(o.cwd);
  const sessionId = str(o.sessionId) ?? str(o.session_id);
  const agentId = str(o.agent_id) ?? str(o.agentId);
  const callId = str(o.tool_use_id) ?? str(o.toolUseId);
  const permissionMode = str(o.permission_mode);
  return {
    client,
    event,
    stopHookActive: o.stop_hook_active === true,
    ...(cwd ? { cwd } : {}),
    ...(sessionId ? { sessionId } : {}),
    ...(agentId ? { agentId } : {}),
    ...(callId ? { callId } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    ...(toolName ? { toolName } : {}),
    ...(o.tool_input !== undefined ? { toolInput: o.tool_input } : o.toolInput !== undefined ? { toolInput: o.toolInput } : {}),
    ...(toolResponse !== undefined ? { toolResponse } : {}),
  };
}

export type PreToolAnswer =
  /** `approved`: the client may skip its own confirmation (a pipeline in security mode yolo); the reason says why. */
  | { readonly decision: 'allow'; readonly approved?: string; readonly updatedInput?: unknown }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'ask'; readonly reason: string; readonly updatedInput?: unknown };

/**
 * The PreToolUse answer. An allow says nothing, so the client's own permission
 * rules still apply; an approved allow (security mode yolo) says "allow",
 * which Claude Code and VS Code take as the confirmation given.
 */
export function preToolOutput(answer: PreToolAnswer, context?: string): object | undefined {
  const updated = answer.decision !== 'deny' && answer.updatedInput !== undefined ? { updatedInput: answer.updatedInput } : {};
  if (answer.decision === 'allow' && answer.approved !== undefined) {
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: answer.approved, ...updated, ...(context ? { additionalContext: context } : {}) } };
  }
  if (answer.decision === 'allow') {
    // A rewrite (the sandbox) without permissionDecision: Claude Code runs the rewritten input and
    // still applies its own permission rules and prompt to it (seen in 2.1.330,
    // test/e2e/claude-code-sandbox.test.ts). An "allow" here would approve the call as well.
    return context || answer.updatedInput !== undefined ? { hookSpecificOutput: { hookEventName: 'PreToolUse', ...updated, ...(context ? { additionalContext: context } : {}) } } : undefined;
  }
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: answer.decision,
      permissionDecisionReason: answer.reason,
      ...updated,
      ...(context ? { additionalContext: context } : {}),
    },
  };
}

/** Context injected into the conversation (SessionStart, UserPromptSubmit, PostToolUse). */
export function contextOutput(event: HookEventName, context: string): object {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: context } };
}

/** Stop: block (the agent must go on) or just remind. */
export function stopOutput(reason: string, block: boolean): object {
  return block ? { decision: 'block', reason } : { systemMessage: reason };
}

/**
 * The bytes of a result the agent reads (context_budget_bytes). Clients send
 * more than that: Claude Code's PostToolUse gives a Read as
 * `{file: {content, ...}}`, a shell call as `{stdout, stderr, ...}` and an MCP
 * tool as `[{type: "text", text}]` (test/fixtures/hooks/claude-code-recorded/);
 * where the shape is known only the text counts, otherwise the whole JSON.
 */
export function resultBytes(response: unknown): number {
  if (response === undefined || response === null) return 0;
  return Buffer.byteLength(readText(response) ?? JSON.stringify(response) ?? '', 'utf8');
}

function readText(response: unknown): string | undefined {
  if (typeof response === 'string') return response;
  if (Array.isArray(response)) {
    const texts = response.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : undefined));
    return texts.every((t) => t !== undefined) ? texts.join('') : undefined;
  }
  if (typeof response !== 'object') return undefined;
  const r = response as { file?: { content?: unknown }; stdout?: unknown; stderr?: unknown };
  if (typeof r.file?.content === 'string') return r.file.content;
  if (typeof r.stdout === 'string' || typeof r.stderr === 'string') return `${typeof r.stdout === 'string' ? r.stdout : ''}${typeof r.stderr === 'string' ? r.stderr : ''}`;
  return undefined;
}
