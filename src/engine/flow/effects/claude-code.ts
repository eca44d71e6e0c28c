/**
 * The `claude-code` tool: Claude Code works on the workspace (`claude -p`,
 * the prompt on stdin, the workspace as its folder, edits accepted so a
 * headless run can change files at all; shell commands still need Claude
 * Code's own permission rules), under stategate's hook.
 *
 * The hook: Claude Code reads `.claude/settings.json` and
 * `.claude/settings.local.json` of the folder it runs in, where "Enable
 * Agent Enforcement" merges stategate's entries (docs/agents.md). When they
 * are there, they govern this run as they govern any other. When they are not,
 * the same entries are passed with `--settings` (inline JSON, merged by Claude
 * Code with the files): the hook allows everything while no workflow run is
 * active and enforces the run when one is (the hook decides, from
 * `.stategate/`), so a run started while Claude Code works is gated too.
 * Passing them always, even when installed, would run two different hook
 * commands per call (the extension's CLI and this one) and count each call
 * twice against `max_iterations`.
 *
 * With no hook command to pass (a host that cannot name its CLI), a workspace
 * with an active run and no installed hook is refused: Claude Code would work
 * ungated while a workflow is meant to hold it (fail closed).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FlowSink, PromptRequest, ToolOutcome } from '../host.js';
import { runVendorCli, VENDOR_CLIS } from './vendor-cli.js';
import type { EffectOptions } from './bash.js';
import { shellQuote } from '../../util/shell-quote.js';

export interface ClaudeCodeOptions extends EffectOptions {
  /** The command line that runs `stategate hook --client claude` (e.g. `'/usr/bin/node' '/…/dist/cli.js' hook --client claude`). */
  readonly claudeHookCommand?: string;
}

/** The Claude Code settings files of a folder that may hold stategate's hook. */
const CLAUDE_SETTINGS_FILES = ['.claude/settings.json', '.claude/settings.local.json'];
/** The events the hook answers, as the installer writes them (src/vscode/agents/hook-install.ts HOOK_EVENTS). */
const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
const TOOL_EVENTS = new Set<string>(['PreToolUse', 'PostToolUse']);
const HOOK_TIMEOUT_S = 10;
/** stategate's hook entries, recognised by their command as the installer does (hook-install.ts isStategateHookCommand). */
const STATEGATE_CLAUDE_HOOK = /\bhook\s+--client\s+claude\b/;

/** Does one of the workspace's Claude Code settings files already run stategate's hook? */
export function claudeHookInstalled(workspace: string): boolean {
  return CLAUDE_SETTINGS_FILES.some((file) => {
    try {
      return STATEGATE_CLAUDE_HOOK.test(fs.readFileSync(path.join(workspace, file), 'utf8'));
    } catch {
      return false;
    }
  });
}

/** Is a workflow run active in the workspace (`.stategate/active` names one)? */
function workflowRunActive(workspace: string): boolean {
  try {
    return fs.readFileSync(path.join(workspace, '.stategate', 'active'), 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

/**
 * The hook command line for a stategate CLI started as `runtime script`
 * (POSIX shell: Claude Code runs hooks with a POSIX shell, Git Bash on
 * Windows). An Electron runtime needs ELECTRON_RUN_AS_NODE, inline since
 * Claude Code's hook entries have no `env`.
 */
export function claudeHookCommandFor(runtime: string, script: string, electron: boolean): string {
  return `${electron ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}${shellQuote(runtime)} ${shellQuote(script)} hook --client claude`;
}

/** The `--settings` value that puts Claude Code under stategate's hook, in Claude Code's nested shape. */
export function claudeHookSettings(hookCommand: string): string {
  const entry = { type: 'command', command: hookCommand, timeout: HOOK_TIMEOUT_S };
  const hooks = Object.fromEntries(HOOK_EVENTS.map((event) => [event, [{ ...(TOOL_EVENTS.has(event) ? { matcher: '*' } : {}), hooks: [entry] }]]));
  return JSON.stringify({ hooks });
}

export async function runClaudeCode(req: PromptRequest, sink: FlowSink, opts: ClaudeCodeOptions = {}): Promise<ToolOutcome> {
  const installed = claudeHookInstalled(req.cwd);
  if (!installed && !opts.claudeHookCommand && workflowRunActive(req.cwd)) {
    return {
      exitCode: 1,
      stdout: '',
      message:
        'a workflow run is active in this workspace and Claude Code would run outside stategate\'s hook: no hook is installed in .claude/settings.local.json or .claude/settings.json. ' +
        "Install it with 'stategate: Enable Agent Enforcement' in VS Code (Claude Code), or run the flow with the stategate CLI, which passes the hook itself.",
    };
  }
  const args = ['-p', '--permission-mode', 'acceptEdits', ...(req.model ? ['--model', req.model] : [])];
  if (!installed && opts.claudeHookCommand) args.push('--settings', claudeHookSettings(opts.claudeHookCommand));
  return runVendorCli('claude-code', VENDOR_CLIS.claude, args, req, sink, opts);
}
