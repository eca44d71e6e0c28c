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
 * --client` call), so disabling removes exactly what enabling wrote, even
 * after the extension moved to a new version folder.
 */
import { cliCommandLine, cliInvocation, type HostRuntime } from './cli-launch.js';

/** The events the hook command answers (DESIGN.md: VS Code agent hooks). */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const VSCODE_HOOK_FILE = '.github/hooks/stategate.json';
export const CLAUDE_SETTINGS_FILE = '.claude/settings.local.json';

/** Seconds: a hook answers in well under one; a cold start of a large run stays inside. */
export const HOOK_TIMEOUT_S = 10;

type Json = Record<string, unknown>;

/** Does this hook command run stategate's CLI (any version folder, either quoting)? */
export function isStategateHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /cli\.js['"]?\s+hook\s+--client\s+(vscode|claude)\b/.test(command);
}

/** The whole of `.github/hooks/stategate.json`. */
export function vscodeHookFile(rt: HostRuntime): Json {
  const inv = cliInvocation(rt, ['hook', '--client', 'vscode']);
  const entry = { type: 'command', command: cliCommandLine(rt, ['hook', '--client', 'vscode']), env: inv.env, timeout: HOOK_TIMEOUT_S };
  return { hooks: Object.fromEntries(HOOK_EVENTS.map((e) => [e, [{ ...entry, env: { ...entry.env } }]])) };
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
  const command = cliCommandLine(rt, ['hook', '--client', 'claude'], { inlineEnv: true });
  for (const event of HOOK_EVENTS) {
    const kept = (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).filter((g) => !isOurGroup(g));
    // Claude Code filters tool events by matcher ("*": every tool); VS Code ignores it.
    const matcher = event === 'PreToolUse' || event === 'PostToolUse' ? { matcher: '*' } : {};
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

/** What the consent dialog lists: one line per file. */
export function describeWrites(files: readonly { file: string; client: 'vscode' | 'claude' }[], rt: HostRuntime): string {
  const lines = files.map(({ file, client }) =>
    client === 'vscode'
      ? `${file}: new file, hooks ${HOOK_EVENTS.join(', ')} for VS Code's agents`
      : `${file}: the same hooks for Claude Code, merged in (other settings are kept)`,
  );
  const inv = cliInvocation(rt, ['hook']);
  lines.push('', `Each hook runs: ${inv.command} ${inv.args.join(' ')} (with ELECTRON_RUN_AS_NODE=1), which answers from the active run in .stategate/.`);
  return lines.join('\n');
}
