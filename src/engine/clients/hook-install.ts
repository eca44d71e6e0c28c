/**
 * The hook files "stategate: Enable Agent Enforcement" writes, and how it
 * takes them back. vscode-free (unit-tested in test/unit/hook-install.test.ts).
 *
 * - `.github/hooks/stategate.json` is ours alone: VS Code's flat shape
 *   (`{"hooks":{"PreToolUse":[{"type":"command","command","env","timeout"}]}}`;
 *   VS Code 1.139 reads `env` and `timeout` from each entry).
 * - `.claude/settings.local.json` belongs to the person: our entries are merged
 *   in Claude Code's nested shape (`[{"matcher","hooks":[...]}]`, which VS Code
 *   reads too) and every other key is kept. Claude Code's entries have no
 *   `env`, so the variable goes inline in the command.
 * Our entries are recognised by their command (the bundled CLI's `hook
 * --client` call, in the plain form older versions wrote and in the guarded
 * form of cli-launch.ts's guardedCommandLine), so disabling removes exactly
 * what enabling wrote, even after the extension moved to a new version folder.
 * On activation the extension re-points its entries at its current CLI and
 * runtime (repointHookEntries): an update moves the extension to a new folder.
 */
import { applyEdits, modify, parse as parseJsonc, type JSONPath, type ParseError } from 'jsonc-parser';
import { cliInvocation, guardedCommandLine, RUNTIME_ENV, type HostRuntime } from './cli-launch.js';

/** The events the hook command answers (docs/agents.md: VS Code agent hooks). */
export const INSTALLED_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
export type HookEvent = (typeof INSTALLED_HOOK_EVENTS)[number];

/**
 * Claude Code reports a failed tool call (a shell command's non-zero exit) as PostToolUseFailure,
 * not PostToolUse: without it stategate would never hear of a failing `npm test` (evidence guards).
 */
export const CLAUDE_ONLY_HOOK_EVENTS = ['PostToolUseFailure'] as const;

export const VSCODE_HOOK_FILE = '.github/hooks/stategate.json';
export const CLAUDE_SETTINGS_FILE = '.claude/settings.local.json';

/**
 * Seconds, the timeout `enable` writes for every client's hook entries (docs/agents.md has the
 * table): a hook answers in well under one; a cold start of a large run stays inside.
 */
export const HOOK_TIMEOUT_S = 10;
/** What the hook keeps of the client's timeout for the client's own part: starting the process, reading the answer. */
export const HOOK_MARGIN_MS = 2000;
/**
 * The hook's bound, from its process start: past it, a PreToolUse is denied saying why rather than
 * answered after the client stopped waiting (which lets the call run, or counts as a failed hook).
 */
export const HOOK_BOUND_MS = HOOK_TIMEOUT_S * 1000 - HOOK_MARGIN_MS;
/** Lowers the bound (tests, a client configured with a shorter timeout); it never raises it. */
export const HOOK_BOUND_ENV = 'STATEGATE_HOOK_BOUND_MS';

/** The bound in force: HOOK_BOUND_MS, or STATEGATE_HOOK_BOUND_MS when that is a smaller positive number. */
export function hookBoundMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[HOOK_BOUND_ENV];
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.min(n, HOOK_BOUND_MS) : HOOK_BOUND_MS;
}

type Json = Record<string, unknown>;

/** Every client `stategate hook --client` answers (src/cli/hook-dialects.ts). */
export const HOOK_CLIENTS = ['vscode', 'claude', 'codex', 'gemini', 'copilot', 'cursor', 'opencode'] as const;
export type HookClientName = (typeof HOOK_CLIENTS)[number];

export function isHookClient(name: unknown): name is HookClientName {
  return typeof name === 'string' && (HOOK_CLIENTS as readonly string[]).includes(name);
}

const OUR_COMMAND = /cli\.js['"]?\s+hook\s+--client\s+(vscode|claude|codex|gemini|copilot|cursor|opencode)\b/;

/** Does this hook command run stategate's CLI (any version folder, either quoting, plain or guarded)? */
export function isStategateHookCommand(command: unknown): boolean {
  return typeof command === 'string' && OUR_COMMAND.test(command);
}

/**
 * The command of a client's hook entries: guarded, so a missing CLI or
 * runtime denies (cli-launch.ts). VS Code runs it with cmd.exe on Windows;
 * Claude Code's entries have no `env`, so the variable goes inline (POSIX
 * shells only: Claude Code runs hooks with Git Bash on Windows).
 */
export function hookCommand(rt: HostRuntime, client: HookClientName, hookFile: string = client === 'vscode' ? VSCODE_HOOK_FILE : CLAUDE_SETTINGS_FILE, extra: readonly string[] = []): string {
  const args = ['hook', '--client', client, ...extra];
  if (client === 'vscode') return guardedCommandLine(rt, args, { shell: rt.platform === 'win32' ? 'cmd' : 'posix', hookFile });
  return guardedCommandLine(rt, args, { shell: 'posix', hookFile, inlineEnv: true });
}

/** The whole of `.github/hooks/stategate.json`. */
export function vscodeHookFile(rt: HostRuntime): Json {
  const entry = { type: 'command', command: hookCommand(rt, 'vscode'), env: { ...RUNTIME_ENV }, timeout: HOOK_TIMEOUT_S };
  return { hooks: Object.fromEntries(INSTALLED_HOOK_EVENTS.map((e) => [e, [{ ...entry, env: { ...entry.env } }]])) };
}

/** Is this file's content what we would write (or wrote with another version)? Then it may be deleted whole. */
export function isOurVscodeHookFile(value: unknown): boolean {
  const hooks = asObject(asObject(value)?.['hooks']);
  if (!hooks) return false;
  const lists = Object.values(hooks);
  return lists.length > 0 && lists.every((l) => Array.isArray(l) && l.length > 0 && l.every((h) => isStategateHookCommand(asObject(h)?.['command'])));
}

function asObject(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** A Claude Code matcher group holds our command (nested shape) or is our flat entry. */
function isOurGroup(group: unknown): boolean {
  const g = asObject(group);
  if (!g) return false;
  if (isStategateHookCommand(g['command'])) return true;
  const inner = g['hooks'];
  return Array.isArray(inner) && inner.some((h) => isStategateHookCommand(asObject(h)?.['command']));
}

/** Claude Code's settings with our hooks in (replacing older ones of ours); every other key and hook kept. */
export function mergeClaudeSettings(existing: unknown, rt: HostRuntime): Json {
  const base = { ...(asObject(existing) ?? {}) };
  const hooks = { ...(asObject(base['hooks']) ?? {}) };
  const command = hookCommand(rt, 'claude');
  for (const event of [...INSTALLED_HOOK_EVENTS, ...CLAUDE_ONLY_HOOK_EVENTS]) {
    const kept = (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).filter((g) => !isOurGroup(g));
    // Claude Code filters tool events by matcher ("*": every tool); VS Code ignores it.
    const matcher = event === 'PreToolUse' || event === 'PostToolUse' || event === 'PostToolUseFailure' ? { matcher: '*' } : {};
    hooks[event] = [...kept, { ...matcher, hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }] }];
  }
  base['hooks'] = hooks;
  return base;
}

/**
 * Claude Code's settings without our hooks. Events left empty and a `hooks`
 * left empty are dropped; `undefined` means nothing else remains (the file
 * may be deleted).
 */
export function removeFromClaudeSettings(existing: unknown): { settings: Json | undefined; removed: number } {
  const base = { ...(asObject(existing) ?? {}) };
  const hooks = asObject(base['hooks']);
  let removed = 0;
  if (hooks) {
    const next: Json = {};
    for (const [event, list] of Object.entries(hooks)) {
      if (!Array.isArray(list)) {
        next[event] = list;
        continue;
      }
      const kept = list.filter((g) => !isOurGroup(g));
      removed += list.length - kept.length;
      if (kept.length) next[event] = kept;
    }
    if (Object.keys(next).length) base['hooks'] = next;
    else delete base['hooks'];
  }
  return { settings: Object.keys(base).length ? base : undefined, removed };
}

/**
 * The text of a hook file with stategate's entries pointed at this
 * extension's CLI and runtime, or undefined when none needs it (none of ours,
 * or all current). Only the `command` of our entries changes, edited in place:
 * every other byte of the file stays as the person left it. Both shapes: VS
 * Code's flat entries and Claude Code's matcher groups.
 */
export function repointHookEntries(text: string, rt: HostRuntime): string | undefined {
  // JSON with comments: Gemini's and Cursor's files are the person's, and may carry them.
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length) return undefined; // not ours to repair
  const hooks = asObject(asObject(value)?.['hooks']);
  if (!hooks) return undefined;
  const edits: { path: JSONPath; command: string }[] = [];
  const visit = (entry: unknown, at: JSONPath) => {
    // Copilot CLI's entries keep the command under `bash`.
    const key = typeof asObject(entry)?.['command'] === 'string' ? 'command' : 'bash';
    const current = asObject(entry)?.[key];
    const client = typeof current === 'string' ? OUR_COMMAND.exec(current)?.[1] : undefined;
    if (!isHookClient(client)) return;
    const event = /\bhook\s+--client\s+\w+\s+--event\s+(\w+)/.exec(current as string)?.[1];
    const wanted = hookCommand(rt, client, hookFileOf(current as string, client), event ? ['--event', event] : []);
    if (current !== wanted) edits.push({ path: [...at, key], command: wanted });
  };
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      visit(entry, ['hooks', event, i]);
      const inner = asObject(entry)?.['hooks'];
      if (Array.isArray(inner)) inner.forEach((h, j) => visit(h, ['hooks', event, i, 'hooks', j]));
    });
  }
  if (edits.length === 0) return undefined;
  let out = text;
  for (const e of edits) out = applyEdits(out, modify(out, e.path, e.command, {}));
  return out;
}

/** The hook file a command's repair text names (kept when the command is re-pointed). */
function hookFileOf(command: string, client: HookClientName): string {
  const named = /hooks from (\S+) \(/.exec(command)?.[1];
  return named ?? (client === 'vscode' ? VSCODE_HOOK_FILE : CLAUDE_SETTINGS_FILE);
}

/** What the consent dialog lists: one line per file. */
export function describeWrites(files: readonly { file: string; client: 'vscode' | 'claude' }[], rt: HostRuntime): string {
  const lines = files.map(({ file, client }) =>
    client === 'vscode'
      ? `${file}: new file, hooks ${INSTALLED_HOOK_EVENTS.join(', ')} for VS Code's agents`
      : `${file}: the same hooks for Claude Code, merged in (other settings are kept)`,
  );
  const inv = cliInvocation(rt, ['hook']);
  lines.push('', `Each hook runs: ${inv.command} ${inv.args.join(' ')} (with ELECTRON_RUN_AS_NODE=1), which answers from the active run in .stategate/.`);
  lines.push('', 'If that CLI or runtime goes missing (the extension uninstalled, or VS Code moved), the hooks deny every tool call until you enable again or disable them. After an update, the extension points them at its new folder itself.');
  return lines.join('\n');
}
