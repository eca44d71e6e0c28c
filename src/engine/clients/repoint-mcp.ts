/**
 * The MCP server entries (and OpenCode's plugin) that run stategate, pointed
 * at this extension's CLI and runtime after an update moved the extension to
 * a new version folder (or VS Code moved): the MCP half of what
 * repointHookEntries does for hook entries. Pure text in, text out.
 *
 * An entry is stategate's when its words hold `…/cli.js mcp`
 * (isStategateMcpEntry), under any server name. What changes:
 * - the `cli.js` word becomes this extension's `dist/cli.js`;
 * - the word before it (the runtime) becomes this host's runtime only when
 *   the entry sets ELECTRON_RUN_AS_NODE (in `env` / `environment`, or as an
 *   `env` word, Gemini's shape): that is an entry written with an editor's
 *   runtime. A `node` a person wrote by hand stays.
 * Every other word (`--dir …`) and every other byte of the file stays; only
 * the keys that hold the words are rewritten (jsonc-parser), or the two lines
 * of Codex's `[mcp_servers.stategate]` table. A file that does not parse, or
 * an entry in a shape not listed here, is left alone.
 */
import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { cliPath, RUNTIME_ENV, type HostRuntime } from './cli-launch.js';
import {
  CODEX_CONFIG_FILE,
  codexEnvVarsLine,
  COPILOT_LEGACY_MCP_FILE,
  CURSOR_MCP_FILE,
  GEMINI_SETTINGS_FILE,
  isStategateMcpEntry,
  MCP_SERVER_NAME,
  OPENCODE_CONFIG_FILES,
  OPENCODE_PLUGIN_FILE,
  type FileWrite,
  type ReadFile,
} from './client-configs.js';
import { isOurOpenCodePlugin } from './opencode-plugin.js';
import { hookCommand } from './hook-install.js';

/** Claude Code's project MCP file (`claude mcp add --scope project`, also Copilot CLI's: COPILOT_MCP_FILE) and VS Code's workspace MCP file. */
export const CLAUDE_MCP_FILE = '.mcp.json';
export const VSCODE_MCP_FILE = '.vscode/mcp.json';

/** Every JSON file that can hold a stategate MCP server, with the key its servers sit under. */
export const MCP_CONFIG_FILES: readonly { readonly file: string; readonly container: string }[] = [
  { file: CURSOR_MCP_FILE, container: 'mcpServers' },
  { file: COPILOT_LEGACY_MCP_FILE, container: 'mcpServers' },
  { file: GEMINI_SETTINGS_FILE, container: 'mcpServers' },
  { file: CLAUDE_MCP_FILE, container: 'mcpServers' },
  { file: VSCODE_MCP_FILE, container: 'servers' },
  ...OPENCODE_CONFIG_FILES.map((file) => ({ file, container: 'mcp' })),
];

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((w) => typeof w === 'string') ? (v as string[]) : undefined);
const RUNTIME_VAR = Object.keys(RUNTIME_ENV)[0]!;
/** As enable writes (client-configs.ts), so a re-pointed list keeps its layout. */
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/**
 * The words with the CLI (and, when `editorRuntime`, the runtime before it)
 * pointed at `rt`; the same array when nothing changes.
 */
export function repointMcpWords(words: readonly string[], editorRuntime: boolean, rt: HostRuntime): readonly string[] {
  const at = words.findIndex((w, i) => /(^|[\\/])cli\.js$/.test(w) && words[i + 1] === 'mcp');
  if (at < 0) return words;
  const next = [...words];
  next[at] = cliPath(rt);
  if (editorRuntime && at >= 1 && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(next[at - 1]!)) next[at - 1] = rt.execPath;
  return next.every((w, i) => w === words[i]) ? words : next;
}

/** The JSON edits of one server entry: key → new value. */
function entryEdits(entry: Json, rt: HostRuntime): [key: string, value: string | string[]][] {
  const env = asObject(entry['env']) ?? asObject(entry['environment']) ?? {};
  const command = entry['command'];
  const list = strings(command);
  if (list) {
    // OpenCode: the command and its arguments in one list.
    const next = repointMcpWords(list, env[RUNTIME_VAR] === '1', rt);
    return next === list ? [] : [['command', [...next]]];
  }
  const args = strings(entry['args']);
  if (typeof command !== 'string' || !args) return [];
  const words = [command, ...args];
  const editorRuntime = env[RUNTIME_VAR] === '1' || args.includes(`${RUNTIME_VAR}=1`);
  const next = repointMcpWords(words, editorRuntime, rt);
  if (next === words) return [];
  const edits: [string, string | string[]][] = [];
  if (next[0] !== command) edits.push(['command', next[0]!]);
  if (next.slice(1).some((w, i) => w !== args[i])) edits.push(['args', next.slice(1)]);
  return edits;
}

/** A JSON(C) MCP config with stategate's servers re-pointed, or undefined when none needs it. */
export function repointJsonMcp(text: string, container: string, rt: HostRuntime): string | undefined {
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length) return undefined; // not ours to repair
  const servers = asObject(asObject(value)?.[container]);
  if (!servers) return undefined;
  let out = text;
  for (const [name, entry] of Object.entries(servers)) {
    if (!isStategateMcpEntry(entry)) continue;
    for (const [key, v] of entryEdits(entry as Json, rt)) out = applyEdits(out, modify(out, [container, name, key], v, FORMAT));
  }
  return out === text ? undefined : out;
}

/**
 * Codex's config.toml: the `command` and `args` lines of `[mcp_servers.stategate]`
 * (the table enable writes, one line each), or undefined when there is nothing
 * to change or the table is not in that shape.
 */
export function repointCodexMcp(text: string, rt: HostRuntime): string | undefined {
  const lines = text.split('\n');
  const header = (l: string) => /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(l)?.[1]?.replace(/\s+/g, '').replace(/"/g, '');
  const start = lines.findIndex((l) => header(l) === `mcp_servers.${MCP_SERVER_NAME}`);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && header(lines[end]!) === undefined) end++;
  const envStart = lines.findIndex((l) => header(l) === `mcp_servers.${MCP_SERVER_NAME}.env`);
  const commandAt = lines.findIndex((l, i) => i > start && i < end && /^\s*command\s*=/.test(l));
  const argsAt = lines.findIndex((l, i) => i > start && i < end && /^\s*args\s*=\s*\[.*\]\s*$/.test(l));
  if (commandAt < 0 || argsAt < 0) return undefined;
  let command: unknown;
  let args: unknown;
  try {
    command = JSON.parse(lines[commandAt]!.replace(/^\s*command\s*=\s*/, ''));
    args = JSON.parse(lines[argsAt]!.replace(/^\s*args\s*=\s*/, ''));
  } catch {
    return undefined; // TOML beyond JSON's strings (literal strings, comments): left alone
  }
  const argList = strings(args);
  if (typeof command !== 'string' || !argList) return undefined;
  let envEnd = envStart + 1;
  while (envStart >= 0 && envEnd < lines.length && header(lines[envEnd]!) === undefined) envEnd++;
  const envLines = envStart < 0 ? [] : lines.slice(envStart + 1, envEnd);
  const editorRuntime = envLines.some((l) => new RegExp(`^\\s*"?${RUNTIME_VAR}"?\\s*=\\s*["']1["']`).test(l));
  const words = [command, ...argList];
  const next = repointMcpWords(words, editorRuntime, rt);
  // A table enable wrote before it forwarded the state-folder variables (client-configs.ts, CODEX_FORWARDED_ENV) gets them now.
  const forwards = lines.some((l, i) => i > start && i < end && /^\s*env_vars\s*=/.test(l));
  if (next === words && forwards) return undefined;
  if (next !== words) {
    lines[commandAt] = `command = ${JSON.stringify(next[0])}`;
    lines[argsAt] = `args = [${next.slice(1).map((w) => JSON.stringify(w)).join(', ')}]`;
  }
  if (!forwards) lines.splice(argsAt + 1, 0, codexEnvVarsLine());
  return lines.join('\n');
}

/** OpenCode's plugin with its hook command re-pointed (only the COMMAND line; the rest as it is). */
export function repointOpenCodePlugin(text: string, rt: HostRuntime): string | undefined {
  if (!isOurOpenCodePlugin(text)) return undefined;
  const wanted = `const COMMAND = ${JSON.stringify(hookCommand(rt, 'opencode', OPENCODE_PLUGIN_FILE))};`;
  const out = text.replace(/^const COMMAND = .*;$/m, wanted);
  return out === text ? undefined : out;
}

/** Every re-point in a workspace: the MCP entries of each client and OpenCode's plugin. */
export function planRepointMcp(read: ReadFile, rt: HostRuntime): FileWrite[] {
  const writes: FileWrite[] = [];
  const add = (file: string, next: string | undefined, what: string) => {
    if (next !== undefined) writes.push({ file, text: next, what });
  };
  for (const { file, container } of MCP_CONFIG_FILES) {
    const text = read(file);
    if (text !== undefined) add(file, repointJsonMcp(text, container, rt), 'stategate\'s MCP server re-pointed at this version');
  }
  const codex = read(CODEX_CONFIG_FILE);
  if (codex !== undefined) add(CODEX_CONFIG_FILE, repointCodexMcp(codex, rt), 'stategate\'s MCP server re-pointed at this version');
  const plugin = read(OPENCODE_PLUGIN_FILE);
  if (plugin !== undefined) add(OPENCODE_PLUGIN_FILE, repointOpenCodePlugin(plugin, rt), 'OpenCode\'s plugin re-pointed at this version');
  return writes;
}
