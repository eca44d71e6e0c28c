/**
 * How a call ended, as each client's post-call hook tells it: the evidence
 * guards read (src/engine/machine/evidence.ts). Only what the client itself
 * reports counts, read where the client puts it, never from the command's own
 * output (which the agent controls); where a client says nothing, nothing is
 * recorded: an exit code is never guessed.
 *
 * - Claude Code: a failing call comes as `PostToolUseFailure` with `error`
 *   (a shell command's starts "Exit code N") and `is_interrupt`. A Bash call
 *   that comes as `PostToolUse` succeeded: Claude Code turns a non-zero exit
 *   into a failure, except the codes its own command semantics call success
 *   (grep's 1, "No matches found"), which come with `returnCodeInterpretation`
 *   and are recorded as ok without an exit code. `interrupted` is a failure;
 *   a command moved to the background (`backgroundTaskId`) has not ended.
 * - Codex: `tool_response` with a numeric `exit_code`/`exitCode`, or text whose
 *   first line is Codex's own "Exit code: N" / "Process exited with code N".
 * - Gemini CLI (AfterTool): `tool_response.error` is a failure; a shell
 *   command's `llmContent` ends with Gemini's "Exit Code: N" line after the
 *   output, so the last such line is Gemini's.
 * - Copilot CLI (postToolUse): `toolResult.resultType` (`success`, or
 *   `failure`/`rejected`/`denied`); no exit code.
 * - OpenCode: our plugin sends the bash tool's `metadata.exit` as `tool_exit_code`.
 * - VS Code, Cursor: no outcome in what they send; nothing is recorded.
 */
import type { CallOutcome, HookClientName } from '../engine/index.js';

export type { CallOutcome };

type Raw = Record<string, unknown>;

const obj = (v: unknown): Raw | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined);
const code = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** An exit code only from a client's own words at a fixed place of its text. */
function codeAt(text: unknown, pattern: RegExp): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = pattern.exec(text);
  return m ? Number(m[1]) : undefined;
}

function lastCode(text: unknown, pattern: RegExp): number | undefined {
  if (typeof text !== 'string') return undefined;
  let found: number | undefined;
  for (const m of text.matchAll(pattern)) found = Number(m[1]);
  return found;
}

function withCode(exitCode: number | undefined, ok?: boolean): CallOutcome | undefined {
  const okay = ok ?? (exitCode !== undefined ? exitCode === 0 : undefined);
  if (okay === undefined && exitCode === undefined) return undefined;
  return { ...(okay !== undefined ? { ok: okay } : {}), ...(exitCode !== undefined ? { exitCode } : {}) };
}

function claude(raw: Raw, tool: string): CallOutcome | undefined {
  const event = String(raw['hook_event_name'] ?? raw['hookEventName'] ?? '');
  if (event === 'PostToolUseFailure') return withCode(codeAt(raw['error'], /^(?:Error: )?Exit code (-?\d+)\b/), false);
  const response = obj(raw['tool_response']);
  if (tool !== 'Bash') return { ok: true };
  if (!response) return undefined;
  if (response['interrupted'] === true) return { ok: false };
  if (typeof response['backgroundTaskId'] === 'string') return undefined;
  if (typeof response['returnCodeInterpretation'] === 'string' && response['returnCodeInterpretation'] !== '') return { ok: true };
  return { ok: true, exitCode: 0 };
}

function codex(raw: Raw): CallOutcome | undefined {
  const event = String(raw['hook_event_name'] ?? '');
  const response = raw['tool_response'];
  const structured = obj(response);
  const exitCode = code(structured?.['exit_code']) ?? code(structured?.['exitCode']) ?? codeAt(response, /^(?:Exit code:|Process exited with code) (-?\d+)\b/);
  return withCode(exitCode, event === 'PostToolUseFailure' ? false : undefined);
}

function gemini(raw: Raw): CallOutcome | undefined {
  const response = obj(raw['tool_response']);
  if (!response) return undefined;
  const error = response['error'];
  const exitCode = lastCode(response['llmContent'], /^Exit Code: (-?\d+)\s*$/gm);
  return withCode(exitCode, error !== undefined && error !== null && error !== '' ? false : undefined);
}

function copilot(raw: Raw): CallOutcome | undefined {
  const type = obj(raw['toolResult'])?.['resultType'];
  if (type === 'success') return { ok: true };
  if (type === 'failure' || type === 'rejected' || type === 'denied') return { ok: false };
  return undefined;
}

/** What `client`'s post-call input says about how the call of `tool` ended; undefined: it says nothing. */
export function callOutcome(client: HookClientName, raw: Raw, tool: string): CallOutcome | undefined {
  switch (client) {
    case 'claude':
      return claude(raw, tool);
    case 'codex':
      return codex(raw);
    case 'gemini':
      return gemini(raw);
    case 'copilot':
      return copilot(raw);
    case 'opencode':
      return withCode(code(raw['tool_exit_code']));
    default:
      return undefined;
  }
}
