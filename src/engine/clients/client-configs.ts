/**
 * The hook and MCP entries of every agent client stategate gates, as edits of
 * the client's own configuration files in a workspace: what `stategate enable
 * --client NAME` and "stategate: Enable Agent Enforcement" write, and what
 * `disable` / "Disable Agent Enforcement" take back. Pure text in, text out
 * (the callers read and write the files), so every merge is unit-tested.
 *
 * Rules every client follows:
 * - A file that is only ours (a hook file of our own, OpenCode's plugin) is
 *   written whole and deleted on disable when it is still what we wrote.
 * - A file the person owns (settings, MCP config) is edited in place: JSON
 *   with comments through jsonc-parser's `modify` (only the keys we touch are
 *   rewritten), TOML by adding or cutting our own table, checked by parsing
 *   the result with smol-toml. Every other byte stays.
 * - Our entries are recognised by their command (`cli.js' hook --client X`,
 *   `cli.js' mcp`), so disable finds them after an update moved the CLI.
 * - A file that does not parse is never overwritten: ClientConfigError says
 *   which and why.
 *
 * Where each shape comes from (docs/agents.md):
 * - Codex 0.171: `.codex/hooks.json`, Claude Code's nested shape (timeout in
 *   seconds, no matcher = every tool); MCP `[mcp_servers.NAME]` in
 *   `.codex/config.toml` (Codex's config reference).
 * - Gemini CLI 0.61: `hooks` in `.gemini/settings.json`, events BeforeTool,
 *   AfterTool, SessionStart, BeforeAgent, AfterAgent, each a list of
 *   `{matcher?, hooks: [{type: "command", command, name, timeout (ms)}]}`
 *   (bundle: HookRegistry.processHookDefinition drops entries without
 *   `hooks`); MCP `mcpServers.NAME {command, args, env}` in the same file.
 * - Copilot CLI 1.0: `.github/hooks/*.json`, `{version: 1, hooks: {preToolUse:
 *   [{type: "command", bash, timeoutSec}]}}` (GitHub's "Copilot CLI hooks
 *   reference"); MCP `mcpServers.NAME {type: "stdio", command, args, env,
 *   tools: ["*"]}` in the workspace's `.mcp.json`: Copilot CLI 1.0.102 reads
 *   `.mcp.json` or, only when there is none, `.github/mcp.json` (`copilot mcp
 *   list --json` in a trusted folder), so an entry in `.github/mcp.json` is not
 *   seen in a workspace whose `.mcp.json` holds Claude Code's servers. "stdio" is
 *   Copilot's other name for "local" that Claude Code and VS Code also read.
 * - Cursor: `.cursor/hooks.json`, `{version: 1, hooks: {preToolUse: [{command,
 *   failClosed}]}}` (Cursor's hooks documentation); MCP `.cursor/mcp.json`.
 * - OpenCode 1.18: a plugin module in `.opencode/plugin/` (`@opencode-ai/plugin`
 *   Hooks: `tool.execute.before` throws to deny); MCP `mcp.NAME {type:
 *   "local", command: [...], environment}` in `opencode.json(c)`.
 */
import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { cliInvocation, type HostRuntime } from './cli-launch.js';
import {
  CLAUDE_SETTINGS_FILE,
  HOOK_TIMEOUT_S,
  hookCommand,
  isOurVscodeHookFile,
  isStategateHookCommand,
  mergeClaudeSettings,
  removeFromClaudeSettings,
  VSCODE_HOOK_FILE,
  vscodeHookFile,
  type HookClientName,
} from './hook-install.js';
import { openCodePlugin, isOurOpenCodePlugin } from './opencode-plugin.js';

export const CODEX_HOOKS_FILE = '.codex/hooks.json';
export const CODEX_CONFIG_FILE = '.codex/config.toml';
export const GEMINI_SETTINGS_FILE = '.gemini/settings.json';
export const COPILOT_HOOK_FILE = '.github/hooks/stategate-copilot.json';
/** Where Copilot CLI's discovery finds a workspace's servers first (shared with Claude Code's project servers). */
export const COPILOT_MCP_FILE = '.mcp.json';
/** Where older versions of stategate wrote Copilot CLI's entry: moved out of on enable, cleaned on disable. */
export const COPILOT_LEGACY_MCP_FILE = '.github/mcp.json';
export const CURSOR_HOOKS_FILE = '.cursor/hooks.json';
export const CURSOR_MCP_FILE = '.cursor/mcp.json';
export const OPENCODE_PLUGIN_FILE = '.opencode/plugin/stategate.js';
export const OPENCODE_CONFIG_FILES = ['opencode.jsonc', 'opencode.json'] as const;

/** The name stategate's MCP server is registered under in every client. */
export const MCP_SERVER_NAME = 'stategate';

/** Seconds, the one timeout every client's hook entries get (hook-install.ts: the hook's bound assumes it). */
const TIMEOUT_S = HOOK_TIMEOUT_S;

export class ClientConfigError extends Error {}

/** How a client starts stategate: the hook command line (per hook file) and the MCP server. */
export interface ClientLaunch {
  hook(client: HookClientName, hookFile: string, extra?: readonly string[]): string;
  readonly mcp: { readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> };
  /** `.stategate` of the workspace, passed to the MCP server (clients start it in folders of their choosing). */
  readonly storeDir: string;
}

export function clientLaunch(rt: HostRuntime, storeDir: string): ClientLaunch {
  const inv = cliInvocation(rt, ['mcp', '--dir', storeDir]);
  return { hook: (client, file, extra) => hookCommand(rt, client, file, extra), mcp: { command: inv.command, args: inv.args, env: inv.env }, storeDir };
}

/** One file to change: its new text, or `undefined` to delete it. */
export interface FileWrite {
  /** Workspace-relative, `/`-separated. */
  readonly file: string;
  readonly text: string | undefined;
  /** One line for the consent dialog and the CLI's report. */
  readonly what: string;
}

/** Reads a workspace-relative file; `undefined` when it does not exist. */
export type ReadFile = (file: string) => string | undefined;

type Json = Record<string, unknown>;
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

function asObject(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** JSON with comments, or a ClientConfigError naming the file. Empty text is `{}`. */
function readJsonc(file: string, text: string | undefined): Json {
  if (text === undefined || text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length || !asObject(value)) throw new ClientConfigError(`${file} is not a JSON object stategate can edit (fix or remove it first; stategate does not overwrite it)`);
  return value as Json;
}

/** Set (or with `undefined`, remove) one key path in JSONC text, keeping every other byte. */
function setPath(text: string | undefined, path: (string | number)[], value: unknown): string {
  const base = text === undefined || text.trim() === '' ? '{}\n' : text;
  const out = applyEdits(base, modify(base, path, value, FORMAT));
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** True when the JSONC text holds nothing but an empty object (then the file may go). */
function isEmptyObject(text: string): boolean {
  const errors: ParseError[] = [];
  const v = parseJsonc(text, errors, { allowTrailingComma: true });
  return errors.length === 0 && asObject(v) !== undefined && Object.keys(v as Json).length === 0 && !/\/[/*]/.test(text);
}

const pretty = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

// ---------------------------------------------------------------------------
// Hook lists shared by the nested (Claude-style) and flat (Cursor) shapes.

/** A list entry that is ours: a flat entry with our command, or a group whose `hooks` hold one. */
function isOurEntry(entry: unknown): boolean {
  const e = asObject(entry);
  if (!e) return false;
  if (isStategateHookCommand(e['command']) || isStategateHookCommand(e['bash'])) return true;
  const inner = e['hooks'];
  return Array.isArray(inner) && inner.some((h) => isStategateHookCommand(asObject(h)?.['command']));
}

/** `hooks.<event>` lists with ours replaced by `entry` (per event), other entries kept in order. */
function mergeHookLists(text: string | undefined, file: string, entries: Readonly<Record<string, unknown>>, extra: Readonly<Record<string, unknown>> = {}): string {
  const value = readJsonc(file, text);
  const hooks = value['hooks'] === undefined ? {} : asObject(value['hooks']);
  if (!hooks) throw new ClientConfigError(`${file}: "hooks" is not an object; fix it first (stategate does not overwrite it)`);
  let out: string = text === undefined || text.trim() === '' ? '{}\n' : text;
  for (const [key, v] of Object.entries(extra)) if (value[key] === undefined) out = setPath(out, [key], v);
  for (const [event, entry] of Object.entries(entries)) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list)) throw new ClientConfigError(`${file}: hooks.${event} is not a list; fix it first`);
    out = setPath(out, ['hooks', event], [...((list as unknown[] | undefined) ?? []).filter((e) => !isOurEntry(e)), entry]);
  }
  return out;
}

/** The text without our hook entries (events and `hooks` left empty are dropped); `removed` counts entries. */
function removeHookLists(text: string, file: string): { text: string; removed: number } {
  const value = readJsonc(file, text);
  const hooks = asObject(value['hooks']);
  if (!hooks) return { text, removed: 0 };
  let out = text;
  let removed = 0;
  let left = 0;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      left++;
      continue;
    }
    const kept = list.filter((e) => !isOurEntry(e));
    removed += list.length - kept.length;
    if (kept.length !== list.length) out = setPath(out, ['hooks', event], kept.length ? kept : undefined);
    if (kept.length) left++;
  }
  if (removed && left === 0) out = setPath(out, ['hooks'], undefined);
  return { text: out, removed };
}

// ---------------------------------------------------------------------------
// MCP entries.

/** Does this server entry run stategate's MCP server (any version folder)? */
export function isStategateMcpEntry(entry: unknown): boolean {
  const e = asObject(entry);
  if (!e) return false;
  const words = [e['command'], ...(Array.isArray(e['args']) ? e['args'] : []), ...(Array.isArray(e['command']) ? (e['command'] as unknown[]) : [])].filter((w): w is string => typeof w === 'string');
  const cli = words.findIndex((w) => /(^|[\\/])cli\.js$/.test(w));
  return cli >= 0 && words[cli + 1] === 'mcp';
}

/** `container.stategate` set to `entry`, unless a server of that name that is not ours is there. */
function mergeMcp(text: string | undefined, file: string, container: string[], entry: unknown): string {
  const value = readJsonc(file, text);
  let at: unknown = value;
  for (const k of container) at = asObject(at)?.[k];
  const existing = asObject(at)?.[MCP_SERVER_NAME];
  if (existing !== undefined && !isStategateMcpEntry(existing)) {
    throw new ClientConfigError(`${file}: an MCP server named "${MCP_SERVER_NAME}" is already there and does not run stategate; rename or remove it first`);
  }
  return setPath(text, [...container, MCP_SERVER_NAME], entry);
}

function removeMcp(text: string, file: string, container: string[], ours: (entry: unknown) => boolean = isStategateMcpEntry): { text: string; removed: number } {
  const value = readJsonc(file, text);
  let at: unknown = value;
  for (const k of container) at = asObject(at)?.[k];
  const servers = asObject(at);
  if (!servers || !ours(servers[MCP_SERVER_NAME])) return { text, removed: 0 };
  const others = Object.keys(servers).filter((k) => k !== MCP_SERVER_NAME);
  // Take the container with it when stategate's server was all there was.
  return { text: setPath(text, others.length ? [...container, MCP_SERVER_NAME] : container, undefined), removed: 1 };
}

const stdioServer = (l: ClientLaunch) => ({ command: l.mcp.command, args: [...l.mcp.args], env: { ...l.mcp.env } });

/** Copilot CLI's entry: `tools` (every tool) is Copilot's own key, and what tells it from a Claude Code entry in the same `.mcp.json`. */
export const copilotMcpEntry = (l: ClientLaunch) => ({ type: 'stdio', ...stdioServer(l), tools: ['*'] });

/** A stategate server written for Copilot CLI (it carries Copilot's `tools` list). */
export function isOurCopilotMcpEntry(entry: unknown): boolean {
  return isStategateMcpEntry(entry) && Array.isArray(asObject(entry)?.['tools']);
}

// ---------------------------------------------------------------------------
// TOML (Codex's config.toml): our table is added or cut as text, the rest kept.

/** smol-toml, loaded when a Codex config is edited (never by a hook process); its CommonJS build. */
function parseToml(text: string): unknown {
  const toml = require('smol-toml') as { parse(text: string): unknown };
  return toml.parse(text);
}

function readToml(file: string, text: string): Json {
  try {
    return parseToml(text) as Json;
  } catch (err) {
    throw new ClientConfigError(`${file} is not valid TOML (${(err as Error).message.split('\n')[0]}); fix it first (stategate does not overwrite it)`);
  }
}

/** The line ranges of `[mcp_servers.stategate]` and its sub-tables (`[mcp_servers.stategate.env]`). */
function ourTomlRange(lines: readonly string[]): { start: number; end: number } | undefined {
  const header = (l: string) => /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(l)?.[1]?.replace(/\s+/g, '').replace(/"/g, '');
  const ours = (name: string) => name === `mcp_servers.${MCP_SERVER_NAME}` || name.startsWith(`mcp_servers.${MCP_SERVER_NAME}.`);
  let start = -1;
  for (let i = 0; i < lines.length; i++) {
    const h = header(lines[i] ?? '');
    if (h === undefined) continue;
    if (start < 0 && ours(h)) start = i;
    else if (start >= 0 && !ours(h)) return { start, end: i };
  }
  return start < 0 ? undefined : { start, end: lines.length };
}

const tomlString = (s: string): string => JSON.stringify(s); // a TOML basic string is a JSON string for these characters

/**
 * Codex starts MCP servers with a scrubbed environment (HOME and PATH pass), so
 * `stategate mcp` would look for the record of the active run in another state
 * folder than the hooks when the person moved it with one of these variables.
 * `env_vars` names variables Codex forwards from its own environment: only the
 * names are in the file (which no agent may write, util/paths/enforcement-files.ts), the
 * values are the person's, the same the hooks see. A value written into the
 * file instead would let a workspace file choose where the gate's record is.
 */
export const CODEX_FORWARDED_ENV = ['STATEGATE_STATE_DIR', 'XDG_STATE_HOME'] as const;

/** The `env_vars` line of the Codex table (enable writes it; a re-point adds it to a table written before it existed). */
export function codexEnvVarsLine(): string {
  return `env_vars = [${CODEX_FORWARDED_ENV.map(tomlString).join(', ')}]`;
}

function codexMcpTable(l: ClientLaunch): string {
  const env = Object.entries(l.mcp.env).map(([k, v]) => `${k} = ${tomlString(v)}`).join('\n');
  return [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `command = ${tomlString(l.mcp.command)}`,
    `args = [${l.mcp.args.map(tomlString).join(', ')}]`,
    codexEnvVarsLine(),
    '',
    `[mcp_servers.${MCP_SERVER_NAME}.env]`,
    env,
    '',
  ].join('\n');
}

export function mergeCodexConfig(text: string | undefined, l: ClientLaunch): string {
  const before = text ?? '';
  const parsed = readToml(CODEX_CONFIG_FILE, before);
  const existing = asObject(asObject(parsed['mcp_servers'])?.[MCP_SERVER_NAME]);
  if (existing && !isStategateMcpEntry(existing)) throw new ClientConfigError(`${CODEX_CONFIG_FILE}: [mcp_servers.${MCP_SERVER_NAME}] is there and does not run stategate; rename or remove it first`);
  const lines = before.split('\n');
  const range = ourTomlRange(lines);
  const kept = range ? [...lines.slice(0, range.start), ...lines.slice(range.end)] : lines;
  const head = kept.join('\n').replace(/\n*$/, '');
  const out = `${head ? `${head}\n\n` : ''}${codexMcpTable(l)}`;
  const check = asObject(asObject(readToml(CODEX_CONFIG_FILE, out)['mcp_servers'])?.[MCP_SERVER_NAME]);
  if (!check || !isStategateMcpEntry(check)) throw new ClientConfigError(`${CODEX_CONFIG_FILE}: stategate's MCP table could not be added cleanly (an inline mcp_servers table?); add it by hand`);
  return out;
}

export function removeFromCodexConfig(text: string): { text: string; removed: number } {
  const parsed = readToml(CODEX_CONFIG_FILE, text);
  if (!isStategateMcpEntry(asObject(parsed['mcp_servers'])?.[MCP_SERVER_NAME])) return { text, removed: 0 };
  const lines = text.split('\n');
  const range = ourTomlRange(lines);
  if (!range) return { text, removed: 0 }; // an inline table: not ours to cut
  const out = [...lines.slice(0, range.start), ...lines.slice(range.end)].join('\n').replace(/\n{3,}/g, '\n\n').replace(/^\n+/, '');
  readToml(CODEX_CONFIG_FILE, out);
  return { text: out.trim() === '' ? '' : out, removed: 1 };
}

// ---------------------------------------------------------------------------
// Per client.

const nested = (command: string, extra: Json = {}) => ({ hooks: [{ type: 'command', command, ...extra }] });

export const CODEX_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
export const GEMINI_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent'] as const;
export const COPILOT_EVENTS = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'agentStop'] as const;
export const CURSOR_EVENTS = ['sessionStart', 'preToolUse', 'postToolUse', 'stop'] as const;

export function mergeCodexHooks(text: string | undefined, l: ClientLaunch): string {
  const command = l.hook('codex', CODEX_HOOKS_FILE);
  return mergeHookLists(text, CODEX_HOOKS_FILE, Object.fromEntries(CODEX_EVENTS.map((e) => [e, nested(command, { timeout: TIMEOUT_S })])));
}

export function mergeGeminiSettings(text: string | undefined, l: ClientLaunch, platform: NodeJS.Platform = process.platform): string {
  const command = l.hook('gemini', GEMINI_SETTINGS_FILE);
  // Gemini's timeout is in milliseconds; `name` is what `/hooks disable` shows.
  const merged = mergeHookLists(text, GEMINI_SETTINGS_FILE, Object.fromEntries(GEMINI_EVENTS.map((e) => [e, nested(command, { name: 'stategate', timeout: TIMEOUT_S * 1000 })])));
  return mergeMcp(merged, GEMINI_SETTINGS_FILE, ['mcpServers'], geminiServer(l, platform));
}

/**
 * Gemini CLI 0.61 drops ELECTRON_RUN_AS_NODE from an MCP server's `env` ("Blocked
 * dangerous environment variable override", seen running it), and VS Code's
 * runtime without it starts as an app: on POSIX the variable goes through
 * `env` in the command itself.
 */
function geminiServer(l: ClientLaunch, platform: NodeJS.Platform): Json {
  const vars = Object.entries(l.mcp.env).map(([k, v]) => `${k}=${v}`);
  if (platform === 'win32' || vars.length === 0) return stdioServer(l);
  return { command: '/usr/bin/env', args: [...vars, l.mcp.command, ...l.mcp.args] };
}

/** Copilot CLI's input names no event, so each entry's command does (`--event preToolUse`). */
export function copilotHookFile(l: ClientLaunch): Json {
  return { version: 1, hooks: Object.fromEntries(COPILOT_EVENTS.map((e) => [e, [{ type: 'command', bash: l.hook('copilot', COPILOT_HOOK_FILE, ['--event', e]), timeoutSec: TIMEOUT_S }]])) };
}

export function isOurCopilotHookFile(value: unknown): boolean {
  const hooks = asObject(asObject(value)?.['hooks']);
  if (!hooks) return false;
  const lists = Object.values(hooks);
  return lists.length > 0 && lists.every((l) => Array.isArray(l) && l.length > 0 && l.every(isOurEntry));
}

export function mergeCursorHooks(text: string | undefined, l: ClientLaunch): string {
  const command = l.hook('cursor', CURSOR_HOOKS_FILE);
  // failClosed: a hook that crashes or times out denies instead of letting the call through; `timeout`
  // (seconds): written so that the hook's bound (HOOK_BOUND_MS) is below what Cursor waits.
  const entries = Object.fromEntries(CURSOR_EVENTS.map((e) => [e, e === 'preToolUse' ? { command, timeout: TIMEOUT_S, failClosed: true } : { command, timeout: TIMEOUT_S }]));
  return mergeHookLists(text, CURSOR_HOOKS_FILE, entries, { version: 1 });
}

function openCodeConfigFile(read: ReadFile): string {
  return OPENCODE_CONFIG_FILES.find((f) => read(f) !== undefined) ?? 'opencode.json';
}

export function mergeOpenCodeConfig(text: string | undefined, file: string, l: ClientLaunch): string {
  return mergeMcp(text, file, ['mcp'], { type: 'local', command: [l.mcp.command, ...l.mcp.args], environment: { ...l.mcp.env }, enabled: true });
}

/** OpenCode's MCP entry keeps the command as one list: recognised through it. */
function removeOpenCodeMcp(text: string, file: string): { text: string; removed: number } {
  return removeMcp(text, file, ['mcp']);
}

// ---------------------------------------------------------------------------
// Plans: what enable / disable would write, per client.

function changed(file: string, before: string | undefined, after: string | undefined, what: string): FileWrite[] {
  return before === after ? [] : [{ file, text: after, what }];
}

/** The writes that make `client` ask stategate before every tool call, and list its MCP server. */
export function planEnable(client: HookClientName, read: ReadFile, l: ClientLaunch, rt?: HostRuntime): FileWrite[] {
  switch (client) {
    case 'vscode': {
      if (!rt) throw new ClientConfigError('VS Code\'s hook file needs the runtime that runs the CLI');
      return changed(VSCODE_HOOK_FILE, read(VSCODE_HOOK_FILE), pretty(vscodeHookFile(rt)), "VS Code's agent hooks (stategate's own file)");
    }
    case 'claude': {
      if (!rt) throw new ClientConfigError('Claude Code\'s hooks need the runtime that runs the CLI');
      const before = read(CLAUDE_SETTINGS_FILE);
      return changed(CLAUDE_SETTINGS_FILE, before, pretty(mergeClaudeSettings(readJsonc(CLAUDE_SETTINGS_FILE, before), rt)), "Claude Code's hooks, merged into its local settings");
    }
    case 'codex': {
      const hooks = read(CODEX_HOOKS_FILE);
      const config = read(CODEX_CONFIG_FILE);
      return [
        ...changed(CODEX_HOOKS_FILE, hooks, mergeCodexHooks(hooks, l), `Codex's hooks (${CODEX_EVENTS.join(', ')}), merged`),
        ...changed(CODEX_CONFIG_FILE, config, mergeCodexConfig(config, l), `Codex's MCP server [mcp_servers.${MCP_SERVER_NAME}], added to its config`),
      ];
    }
    case 'gemini': {
      const before = read(GEMINI_SETTINGS_FILE);
      return changed(GEMINI_SETTINGS_FILE, before, mergeGeminiSettings(before, l), `Gemini CLI's hooks (${GEMINI_EVENTS.join(', ')}) and MCP server, merged into its settings`);
    }
    case 'copilot': {
      const mcp = read(COPILOT_MCP_FILE);
      const legacy = read(COPILOT_LEGACY_MCP_FILE);
      const moved = legacy === undefined ? undefined : removeMcp(legacy, COPILOT_LEGACY_MCP_FILE, ['mcpServers'], isOurCopilotMcpEntry);
      return [
        ...changed(COPILOT_HOOK_FILE, read(COPILOT_HOOK_FILE), pretty(copilotHookFile(l)), `Copilot CLI's hooks (${COPILOT_EVENTS.join(', ')}), stategate's own file`),
        ...changed(COPILOT_MCP_FILE, mcp, mergeMcp(mcp, COPILOT_MCP_FILE, ['mcpServers'], copilotMcpEntry(l)), "Copilot CLI's MCP server, merged into the workspace's .mcp.json (where its discovery looks first)"),
        ...(moved?.removed ? [{ file: COPILOT_LEGACY_MCP_FILE, text: leftover(moved.text), what: `stategate's entry for Copilot CLI removed (now in ${COPILOT_MCP_FILE})` }] : []),
      ];
    }
    case 'cursor': {
      const hooks = read(CURSOR_HOOKS_FILE);
      const mcp = read(CURSOR_MCP_FILE);
      return [
        ...changed(CURSOR_HOOKS_FILE, hooks, mergeCursorHooks(hooks, l), `Cursor's hooks (${CURSOR_EVENTS.join(', ')}), merged`),
        ...changed(CURSOR_MCP_FILE, mcp, mergeMcp(mcp, CURSOR_MCP_FILE, ['mcpServers'], stdioServer(l)), "Cursor's MCP server, merged"),
      ];
    }
    case 'opencode': {
      const file = openCodeConfigFile(read);
      const config = read(file);
      return [
        ...changed(OPENCODE_PLUGIN_FILE, read(OPENCODE_PLUGIN_FILE), openCodePlugin(l.hook('opencode', OPENCODE_PLUGIN_FILE)), "OpenCode's plugin that asks stategate before each tool (stategate's own file)"),
        ...changed(file, config, mergeOpenCodeConfig(config, file, l), "OpenCode's MCP server, merged"),
      ];
    }
  }
}

/** Text after removing ours from a person's file: `undefined` (delete) when nothing else is left. */
function leftover(text: string): string | undefined {
  return text.trim() === '' || isEmptyObject(text) ? undefined : text;
}

/** The writes that take `client`'s entries back out; files stategate did not write are left alone. */
export function planDisable(client: HookClientName, read: ReadFile): { writes: FileWrite[]; notes: string[] } {
  const writes: FileWrite[] = [];
  const notes: string[] = [];
  const ownFile = (file: string, isOurs: (v: unknown) => boolean) => {
    const text = read(file);
    if (text === undefined) return;
    let ours = false;
    try {
      ours = isOurs(JSON.parse(text));
    } catch {
      /* not JSON: not ours */
    }
    if (ours) writes.push({ file, text: undefined, what: 'removed (stategate\'s own file)' });
    else notes.push(`${file} was changed by hand; it is left as it is`);
  };
  const edited = (file: string, edit: (text: string) => { text: string; removed: number }) => {
    const text = read(file);
    if (text === undefined) return;
    const { text: next, removed } = edit(text);
    if (removed) writes.push({ file, text: leftover(next), what: `stategate's entries removed (${removed})` });
  };
  switch (client) {
    case 'vscode':
      ownFile(VSCODE_HOOK_FILE, isOurVscodeHookFile);
      break;
    case 'claude':
      edited(CLAUDE_SETTINGS_FILE, (text) => {
        const { settings, removed } = removeFromClaudeSettings(readJsonc(CLAUDE_SETTINGS_FILE, text));
        return { text: settings ? pretty(settings) : '', removed };
      });
      break;
    case 'codex':
      edited(CODEX_HOOKS_FILE, (t) => removeHookLists(t, CODEX_HOOKS_FILE));
      edited(CODEX_CONFIG_FILE, removeFromCodexConfig);
      break;
    case 'gemini':
      edited(GEMINI_SETTINGS_FILE, (t) => {
        const a = removeHookLists(t, GEMINI_SETTINGS_FILE);
        const b = removeMcp(a.text, GEMINI_SETTINGS_FILE, ['mcpServers']);
        return { text: b.text, removed: a.removed + b.removed };
      });
      break;
    case 'copilot':
      ownFile(COPILOT_HOOK_FILE, isOurCopilotHookFile);
      // Only Copilot's entry: a stategate server Claude Code was given in the same file (no `tools`) stays.
      edited(COPILOT_MCP_FILE, (t) => removeMcp(t, COPILOT_MCP_FILE, ['mcpServers'], isOurCopilotMcpEntry));
      edited(COPILOT_LEGACY_MCP_FILE, (t) => removeMcp(t, COPILOT_LEGACY_MCP_FILE, ['mcpServers'], isOurCopilotMcpEntry));
      break;
    case 'cursor':
      edited(CURSOR_HOOKS_FILE, (t) => {
        const r = removeHookLists(t, CURSOR_HOOKS_FILE);
        // `version` was ours to add; alone it is nothing.
        const v = readJsonc(CURSOR_HOOKS_FILE, r.text);
        return Object.keys(v).length === 1 && v['version'] === 1 && !/\/[/*]/.test(r.text) ? { text: '', removed: r.removed } : r;
      });
      edited(CURSOR_MCP_FILE, (t) => removeMcp(t, CURSOR_MCP_FILE, ['mcpServers']));
      break;
    case 'opencode': {
      const plugin = read(OPENCODE_PLUGIN_FILE);
      if (plugin !== undefined) {
        if (isOurOpenCodePlugin(plugin)) writes.push({ file: OPENCODE_PLUGIN_FILE, text: undefined, what: 'removed (stategate\'s own file)' });
        else notes.push(`${OPENCODE_PLUGIN_FILE} was changed by hand; it is left as it is`);
      }
      for (const file of OPENCODE_CONFIG_FILES) edited(file, (t) => removeOpenCodeMcp(t, file));
      break;
    }
  }
  return { writes, notes };
}

/** What the person must still do by hand for a client after enable (trust prompts the files cannot answer). */
export function enableNotes(client: HookClientName): string[] {
  switch (client) {
    case 'codex':
      return ['Codex reads a project\'s .codex/ only in a trusted project, and asks once to trust each new hook (/hooks): trust stategate\'s hooks there.'];
    case 'gemini':
      return ['Gemini CLI reads .gemini/settings.json of trusted folders only: trust this folder in Gemini CLI.'];
    case 'copilot':
      return [`Copilot CLI reads .github/hooks/ after you trust the folder. If ${VSCODE_HOOK_FILE} is there too, Copilot CLI runs both files; stategate counts such a call once.`];
    case 'cursor':
      return ['Cursor asks stategate before every tool (preToolUse, failClosed); its prompt-submit hook cannot add context, so Cursor\'s agent is briefed at session start and by denials.'];
    case 'opencode':
      return ['OpenCode loads the plugin at its next start.'];
    default:
      return [];
  }
}
