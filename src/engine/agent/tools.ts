/**
 * The one tool-name table: every client's tool ids mapped onto the canonical
 * Statewright names workflows use (Read, Edit, Write, Bash, ...), with what
 * kind of tool each is and where its input keeps paths, edit text, commands.
 *
 * Sources, per entry (never 'captured': nothing here was captured from a live
 * agent session):
 * - 'vscode-source': the ids and input keys as they appear in the VS Code
 *   1.139.1 sources shipped in code-server 4.139.1 (the built-in Copilot
 *   extension's `package.json` languageModelTools and its ToolName enum).
 * - 'vscode-docs': VS Code's agent hooks documentation.
 * - 'claude-docs': Claude Code's tools reference (names map to themselves).
 * - 'gemini-source': Gemini CLI 0.61.0's bundle on the npm registry
 *   (`@google/gemini-cli`, bundle/chunk-*.js: the `*_TOOL_NAME` and `*_PARAM_*` constants).
 * - 'opencode-source': OpenCode 1.18.33's binary (`opencode-linux-x64`): tool ids
 *   and their zod input schemas (`filePath`, `oldString`, `patchText`, ...).
 * - 'codex-source': Codex 0.171's hook runtime (openai/codex hook_runtime.rs:
 *   shell calls are `Bash {command}`, edits `apply_patch {command: <patch>}`).
 * - 'copilot-docs': GitHub's Copilot CLI documentation (tool names `bash`,
 *   `view`, `create`, `edit`, with `path`, `file_text`, `old_str`, `new_str`).
 * - 'cursor-docs': Cursor's hooks documentation (preToolUse `tool_name`s
 *   `Shell`, `Read`, `Write`, `Delete`, `Grep`, `Task`, `MCP:<tool>`).
 * - 'assumed': our reading, not checked against a source.
 *
 * Edit-size arithmetic lives in edit-lines.ts; this file only locates things.
 */
import { editLineCount, patchPaths, type EditShape } from './edit-lines';

export { editLineCount, type EditShape } from './edit-lines';

export type ToolKind = 'read' | 'edit' | 'write' | 'shell' | 'search' | 'fetch' | 'other';
export type ToolSource = 'vscode-source' | 'vscode-docs' | 'claude-docs' | 'gemini-source' | 'opencode-source' | 'codex-source' | 'copilot-docs' | 'cursor-docs' | 'assumed';
/** How a tool's input carries its edit (decides which keys are read). */
export type EditLayout = 'replace' | 'multi' | 'patch' | 'write' | 'insert' | 'notebook';

export interface ToolEntry {
  /** The canonical name workflows write (or the id itself when there is none). */
  readonly canonical: string;
  readonly kind: ToolKind;
  readonly edit?: EditLayout;
  readonly source: ToolSource;
}

const e = (canonical: string, kind: ToolKind, source: ToolSource, edit?: EditLayout): ToolEntry =>
  edit ? { canonical, kind, source, edit } : { canonical, kind, source };

/** Canonical names: Claude Code's tools (Task was renamed Agent; both kept). */
const CANONICAL: Readonly<Record<string, ToolEntry>> = {
  Read: e('Read', 'read', 'claude-docs'),
  NotebookRead: e('NotebookRead', 'read', 'claude-docs'),
  Edit: e('Edit', 'edit', 'claude-docs', 'replace'),
  MultiEdit: e('MultiEdit', 'edit', 'claude-docs', 'multi'),
  Write: e('Write', 'write', 'claude-docs', 'write'),
  NotebookEdit: e('NotebookEdit', 'edit', 'claude-docs', 'notebook'),
  Bash: e('Bash', 'shell', 'claude-docs'),
  BashOutput: e('BashOutput', 'other', 'claude-docs'),
  KillShell: e('KillShell', 'other', 'claude-docs'),
  Grep: e('Grep', 'search', 'claude-docs'),
  Glob: e('Glob', 'search', 'claude-docs'),
  LS: e('LS', 'search', 'claude-docs'),
  WebFetch: e('WebFetch', 'fetch', 'claude-docs'),
  WebSearch: e('WebSearch', 'fetch', 'claude-docs'),
  Task: e('Task', 'other', 'claude-docs'),
  TodoWrite: e('TodoWrite', 'other', 'claude-docs'),
  ExitPlanMode: e('ExitPlanMode', 'other', 'claude-docs'),
};

/** Client aliases -> canonical entry (the entry's kind/edit layout apply to the alias). */
const ALIASES: Readonly<Record<string, { to: string; source: ToolSource; edit?: EditLayout }>> = {
  Agent: { to: 'Task', source: 'claude-docs' },
  // VS Code's built-in agent tool ids as hooks report them (ToolName enum).
  run_in_terminal: { to: 'Bash', source: 'vscode-source' },
  // Tools that hand text to a shell another way: each is a shell call, so allowed_commands and the
  // shell analysis apply to it (they used to be 'other' or unknown, and escaped allowed_commands).
  send_to_terminal: { to: 'Bash', source: 'vscode-source' },
  create_and_run_task: { to: 'Bash', source: 'assumed' },
  run_task: { to: 'Bash', source: 'assumed' },
  run_vscode_command: { to: 'Bash', source: 'assumed' },
  runTests: { to: 'Bash', source: 'assumed' },
  copilot_runInTerminal: { to: 'Bash', source: 'assumed' },
  copilot_createAndRunTask: { to: 'Bash', source: 'assumed' },
  copilot_runVsCodeTask: { to: 'Bash', source: 'assumed' },
  get_terminal_output: { to: 'BashOutput', source: 'assumed' },
  kill_terminal: { to: 'KillShell', source: 'assumed' },
  create_file: { to: 'Write', source: 'vscode-docs' },
  create_directory: { to: 'Write', source: 'assumed' },
  replace_string_in_file: { to: 'Edit', source: 'vscode-docs' },
  multi_replace_string_in_file: { to: 'Edit', source: 'vscode-source', edit: 'multi' },
  apply_patch: { to: 'Edit', source: 'vscode-source', edit: 'patch' },
  insert_edit_into_file: { to: 'Edit', source: 'vscode-source', edit: 'insert' },
  read_file: { to: 'Read', source: 'vscode-source' },
  view_image: { to: 'Read', source: 'assumed' },
  list_dir: { to: 'LS', source: 'vscode-source' },
  file_search: { to: 'Glob', source: 'vscode-source' },
  grep_search: { to: 'Grep', source: 'vscode-source' },
  semantic_search: { to: 'Grep', source: 'assumed' },
  fetch_webpage: { to: 'WebFetch', source: 'vscode-source' },
  edit_notebook_file: { to: 'NotebookEdit', source: 'vscode-source' },
  runSubagent: { to: 'Task', source: 'vscode-source' },
  manage_todo_list: { to: 'TodoWrite', source: 'assumed' },
  // The Copilot extension's contributed ids (package.json languageModelTools).
  copilot_readFile: { to: 'Read', source: 'vscode-source' },
  copilot_viewImage: { to: 'Read', source: 'assumed' },
  copilot_replaceString: { to: 'Edit', source: 'vscode-source' },
  copilot_multiReplaceString: { to: 'Edit', source: 'vscode-source', edit: 'multi' },
  copilot_applyPatch: { to: 'Edit', source: 'vscode-source', edit: 'patch' },
  copilot_insertEdit: { to: 'Edit', source: 'vscode-source', edit: 'insert' },
  copilot_createFile: { to: 'Write', source: 'vscode-source' },
  copilot_createDirectory: { to: 'Write', source: 'assumed' },
  copilot_findTextInFiles: { to: 'Grep', source: 'vscode-source' },
  copilot_searchCodebase: { to: 'Grep', source: 'assumed' },
  copilot_findFiles: { to: 'Glob', source: 'vscode-source' },
  copilot_listDirectory: { to: 'LS', source: 'vscode-source' },
  copilot_fetchWebPage: { to: 'WebFetch', source: 'vscode-source' },
  copilot_editNotebook: { to: 'NotebookEdit', source: 'vscode-source' },
  // Gemini CLI's built-in tools (snake_case keys: file_path, old_string, content, command).
  read_many_files: { to: 'Read', source: 'gemini-source' },
  write_file: { to: 'Write', source: 'gemini-source' },
  replace: { to: 'Edit', source: 'gemini-source' },
  run_shell_command: { to: 'Bash', source: 'gemini-source' },
  list_directory: { to: 'LS', source: 'gemini-source' },
  glob: { to: 'Glob', source: 'gemini-source' },
  web_fetch: { to: 'WebFetch', source: 'gemini-source' },
  google_web_search: { to: 'WebSearch', source: 'gemini-source' },
  write_todos: { to: 'TodoWrite', source: 'gemini-source' },
  // OpenCode's tools (camelCase keys: filePath, oldString, newString, patchText).
  read: { to: 'Read', source: 'opencode-source' },
  write: { to: 'Write', source: 'opencode-source' },
  edit: { to: 'Edit', source: 'opencode-source' },
  bash: { to: 'Bash', source: 'opencode-source' },
  grep: { to: 'Grep', source: 'opencode-source' },
  list: { to: 'LS', source: 'opencode-source' },
  webfetch: { to: 'WebFetch', source: 'opencode-source' },
  websearch: { to: 'WebSearch', source: 'opencode-source' },
  todowrite: { to: 'TodoWrite', source: 'opencode-source' },
  task: { to: 'Task', source: 'opencode-source' },
  patch: { to: 'Edit', source: 'opencode-source', edit: 'patch' },
  // GitHub Copilot CLI's tools (`edit` and `bash` as OpenCode's above: the same keys are read).
  // Copilot CLI's `write_bash` types text into a shell session it started earlier: a shell call.
  write_bash: { to: 'Bash', source: 'copilot-docs' },
  view: { to: 'Read', source: 'copilot-docs' },
  create: { to: 'Write', source: 'copilot-docs' },
  // Cursor's preToolUse names.
  Shell: { to: 'Bash', source: 'cursor-docs' },
  Delete: { to: 'Write', source: 'cursor-docs' },
  StrReplace: { to: 'Edit', source: 'assumed' },
};

/**
 * Ids known to exist but with no canonical counterpart: they keep their own
 * name (a workflow must list them literally) but get a kind, so the policy
 * knows e.g. that running a notebook cell executes code.
 */
const OWN_NAMED: Readonly<Record<string, ToolEntry>> = {
  run_notebook_cell: e('run_notebook_cell', 'other', 'vscode-source'),
  copilot_runNotebookCell: e('copilot_runNotebookCell', 'other', 'vscode-source'),
  get_errors: e('get_errors', 'read', 'vscode-source'),
  copilot_getErrors: e('copilot_getErrors', 'read', 'vscode-source'),
};

/** stategate's own agent tools (always allowed, never counted). */
export const OWN_TOOLS: readonly string[] = [
  'statewright_get_state',
  'statewright_transition',
  'statewright_load_workflow',
  'statewright_pause',
  'statewright_list_workflows',
  'statewright_force_state',
  'stategate_invocation_done',
  'stategate_invocation_fail',
  'statewright_record_learning',
];

export type ExtraAliases = Readonly<Record<string, string>>;

/** The table entry for an id, or undefined when the id is unknown. */
export function toolEntry(id: string, extra?: ExtraAliases): ToolEntry | undefined {
  if (typeof id !== 'string') return undefined;
  const own = Object.hasOwn(CANONICAL, id) ? CANONICAL[id] : Object.hasOwn(OWN_NAMED, id) ? OWN_NAMED[id] : undefined;
  if (own) return own;
  const alias = Object.hasOwn(ALIASES, id) ? ALIASES[id] : undefined;
  if (alias) {
    const base = CANONICAL[alias.to];
    if (base) return { ...base, source: alias.source, ...(alias.edit ? { edit: alias.edit } : {}) };
  }
  // User aliases come last so they can add ids but never silently re-map built-ins.
  const target = extra && Object.hasOwn(extra, id) ? extra[id] : undefined;
  if (typeof target === 'string' && target !== id) {
    const base = toolEntry(target);
    return base ? { ...base, source: 'assumed' } : { canonical: target, kind: 'other', source: 'assumed' };
  }
  return undefined;
}

/** The canonical name of a tool id; unknown ids are returned as they are. */
export function canonicalTool(id: string, extra?: ExtraAliases): string {
  return toolEntry(id, extra)?.canonical ?? String(id);
}

/** `mcp__server__tool` (Claude Code) and `server/tool` (VS Code) -> parts. */
export function mcpParts(id: string): { server: string; tool: string } | undefined {
  const claude = /^mcp__(.+?)__(.+)$/.exec(id);
  if (claude) return { server: claude[1] ?? '', tool: claude[2] ?? '' };
  const slash = /^([^/\s]+)\/([^/\s]+)$/.exec(id);
  if (slash) return { server: slash[1] ?? '', tool: slash[2] ?? '' };
  return undefined;
}

/**
 * The name stategate's MCP server goes by in every client's configuration
 * (MCP_SERVER_NAME of clients/client-configs.ts, which the client setup
 * writes; a test holds the two equal: the policy layer does not import the
 * clients layer).
 */
export const OWN_MCP_SERVER = 'stategate';

/**
 * Is this call one of stategate's own tools (always allowed, never counted)?
 * Only stategate's own MCP server's tools are: another server's tool is an
 * ordinary tool whatever its name (`mcp__evil__statewright_pause` is decided by
 * the state's rules like any tool), or one MCP server the agent can add would
 * carry a tool past the gate. The spellings taken (each client's dialect maps
 * its own onto Claude Code's first, src/cli/hook-dialects.ts):
 * - bare (`statewright_pause`): how the VS Code extension's own
 *   language-model tools arrive (package.json languageModelTools; VS Code's
 *   hooks report a tool by the name the model called) and how the @stategate
 *   participant names them. Other clients' bare look-alikes are renamed by
 *   their dialect so they never reach here bare.
 * - `mcp__stategate__<tool>`: Claude Code, Codex (and the others, mapped).
 * - `mcp_stategate_<tool>`: VS Code's id of an MCP server's tool
 *   (`mcp_` + the server's name, lower-cased, + `_` + the tool's), which its
 *   hooks report.
 * - `stategate/<tool>`: VS Code's reference to a server's tool in prompt files and tool sets.
 */
export function isOwnTool(id: string): boolean {
  return ownToolName(id) !== undefined;
}

/** The name in OWN_TOOLS of one of stategate's own tools in any of the spellings above, else undefined. */
export function ownToolName(id: string): string | undefined {
  if (typeof id !== 'string') return undefined;
  if (OWN_TOOLS.includes(id)) return id;
  for (const prefix of [`mcp__${OWN_MCP_SERVER}__`, `mcp_${OWN_MCP_SERVER}_`, `${OWN_MCP_SERVER}/`]) {
    if (id.startsWith(prefix) && OWN_TOOLS.includes(id.slice(prefix.length))) return id.slice(prefix.length);
  }
  return undefined;
}

/** Names that stand for every alias: the canonical table, plus Agent (Task's newer name). */
function isCanonicalRule(rule: string): boolean {
  return Object.hasOwn(CANONICAL, rule) || rule === 'Agent';
}

/**
 * Does a workflow's tool name (from allowed_tools / disallowed_tools) cover
 * this call? A rule may be a canonical name (covers every alias), an exact
 * id, an MCP tool in either spelling (`mcp__gh__issue` covers `gh/issue`), or
 * a whole MCP server (`mcp__gh`, `mcp__gh__*`, `gh/*`).
 */
export function toolMatches(rule: string, callId: string, extra?: ExtraAliases): boolean {
  if (typeof rule !== 'string' || typeof callId !== 'string') return false;
  if (rule === callId) return true;
  // Only a canonical name covers its aliases; an exact client id covers itself.
  if (isCanonicalRule(rule) && canonicalTool(rule) === canonicalTool(callId, extra)) return true;
  const call = mcpParts(callId);
  if (!call) return false;
  const server = /^mcp__(.+?)(?:__\*)?$/.exec(rule)?.[1] ?? /^([^/\s]+)\/\*$/.exec(rule)?.[1];
  if (server !== undefined && !server.includes('__') && server === call.server) return true;
  const want = mcpParts(rule);
  return want !== undefined && want.server === call.server && want.tool === call.tool;
}

export interface ExtractedCall {
  readonly canonical: string;
  readonly kind: ToolKind;
  /** Every file path the call names (edit targets, read targets, search roots). */
  readonly paths: string[];
  readonly command?: string;
  readonly cwd?: string;
  readonly editShape?: EditShape;
}

type Input = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** First string among the given keys (clients disagree on camelCase vs snake_case). */
const pick = (input: Input, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = str(input[k]);
    if (v !== undefined) return v;
  }
  return undefined;
};

const PATH_KEYS = ['file_path', 'filePath', 'notebook_path', 'notebookPath', 'path', 'dirPath', 'dir_path'];
/**
 * Where a command runs, in each client's spelling: Cursor's beforeShellExecution
 * `cwd`, OpenCode's bash and Codex's shell `workdir`, `working_directory`. Its
 * relative paths and `> file` start there (policy/paths/write-plan.ts).
 */
const CWD_KEYS = ['cwd', 'working_directory', 'workingDirectory', 'workdir'];
/** Gemini CLI's run_shell_command names its folder `dir_path` (older releases `directory`); on its other tools `dir_path` is the path read. */
const SHELL_CWD_KEYS = ['dir_path', 'directory'];
const OLD_KEYS = ['old_string', 'oldString', 'old_str'];
const NEW_KEYS = ['new_string', 'newString', 'new_str'];

/** Claude Code's `replace_all`, OpenCode's `replaceAll`: every occurrence is replaced. */
const replaceAll = (input: Input): boolean => input['replace_all'] === true || input['replaceAll'] === true;

function editShape(layout: EditLayout | undefined, input: Input): EditShape | undefined {
  switch (layout) {
    case 'replace':
      return { kind: 'replace', oldText: pick(input, ...OLD_KEYS) ?? '', newText: pick(input, ...NEW_KEYS) ?? '', ...(replaceAll(input) ? { all: true } : {}) };
    case 'multi': {
      const list = Array.isArray(input['edits']) ? input['edits'] : Array.isArray(input['replacements']) ? input['replacements'] : [];
      const edits = list
        .filter((x): x is Input => typeof x === 'object' && x !== null)
        .map((x) => ({ oldText: pick(x, ...OLD_KEYS) ?? '', newText: pick(x, ...NEW_KEYS) ?? '', ...(replaceAll(x) ? { all: true } : {}) }));
      return { kind: 'multi', edits };
    }
    case 'patch':
      // VS Code `input`, OpenCode `patchText`, Codex `command` (its apply_patch carries the patch there).
      return { kind: 'patch', patch: pick(input, 'input', 'patch', 'patchText', 'command') ?? '' };
    case 'write':
      return { kind: 'write', content: pick(input, 'content', 'file_text', 'contents') ?? '' };
    case 'insert':
      return { kind: 'insert', code: pick(input, 'code') ?? '' };
    case 'notebook':
      return { kind: 'write', content: pick(input, 'new_source', 'newCode', 'new_code') ?? '' };
    default:
      return undefined;
  }
}

function callPaths(input: Input, shape: EditShape | undefined): string[] {
  const out: string[] = [];
  const add = (p: unknown): void => {
    if (typeof p === 'string' && p !== '' && !out.includes(p)) out.push(p);
  };
  for (const k of PATH_KEYS) add(input[k]);
  for (const k of ['filePaths', 'file_paths', 'paths']) if (Array.isArray(input[k])) (input[k] as unknown[]).forEach(add);
  for (const k of ['edits', 'replacements']) {
    const list = input[k];
    if (Array.isArray(list)) for (const x of list) if (typeof x === 'object' && x !== null) add(pick(x as Input, ...PATH_KEYS));
  }
  if (shape?.kind === 'patch') patchPaths(shape.patch).forEach(add);
  return out;
}

/**
 * The text a shell tool hands to a shell: `command` (most clients), `cmd`,
 * Copilot CLI's `write_bash` `input`, VS Code's `create_and_run_task`
 * `task.command` with its `args`. The arguments are joined as they are, not
 * quoted: a task of type "shell" gives them to a shell, so a `;` in one must be
 * read as the shell would read it (reading more as syntax only denies more).
 * A shell tool with none of these (`run_task`, which runs whatever tasks.json
 * says) has no command, and is denied wherever commands are checked.
 */
function shellCommand(obj: Input): string | undefined {
  const direct = pick(obj, 'command', 'cmd', 'input');
  if (direct !== undefined) return direct;
  const task = obj['task'];
  if (typeof task !== 'object' || task === null || Array.isArray(task)) return undefined;
  const t = task as Input;
  const head = str(t['command']);
  if (head === undefined) return undefined;
  const args = Array.isArray(t['args']) ? (t['args'] as unknown[]).map((a) => (typeof a === 'string' ? a : typeof a === 'object' && a !== null ? str((a as Input)['value']) ?? '' : String(a))) : [];
  return [head, ...args].join(' ');
}

/**
 * What a call does, read off its input. Never throws: garbage input yields a
 * call with no paths and no command (the policy then fails closed where it
 * needs them).
 */
export function extractCall(id: string, input: unknown, extra?: ExtraAliases): ExtractedCall {
  const entry = toolEntry(id, extra);
  const obj: Input = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Input) : {};
  const kind = entry?.kind ?? 'other';
  const shape = editShape(entry?.edit, obj);
  const command = kind === 'shell' ? shellCommand(obj) : undefined;
  const cwd = pick(obj, ...CWD_KEYS, ...(kind === 'shell' ? SHELL_CWD_KEYS : []));
  return {
    canonical: entry?.canonical ?? String(id),
    kind,
    paths: callPaths(obj, shape),
    ...(command !== undefined ? { command } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(shape ? { editShape: shape } : {}),
  };
}

/** Lines an edit call changes (0 for calls that do not edit). */
export function callEditLines(id: string, input: unknown, extra?: ExtraAliases): number {
  const shape = extractCall(id, input, extra).editShape;
  return shape ? editLineCount(shape) : 0;
}
