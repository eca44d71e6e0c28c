/**
 * Every client's hook dialect: how its input on stdin becomes one `HookInput`
 * (events, tool names and input shapes in the one tool table's terms), and how
 * each decision goes back in the form that client reads. hook-command.ts
 * decides once; this file only translates.
 *
 * Sources (docs/agents.md has the table):
 * - VS Code, Claude Code: hook-protocol.ts.
 * - Codex 0.171 (openai/codex hook_runtime.rs, its hook output schemas): input
 *   as Claude Code's (`hook_event_name`, `session_id`, `tool_name`,
 *   `tool_input`, `tool_use_id`); a deny is `hookSpecificOutput.
 *   permissionDecision: "deny"`; **allow prints nothing** (an "allow" without
 *   `updatedInput` counts as a failed hook there). Codex does apply
 *   `updatedInput`, but only beside `permissionDecision: "allow"` (its output
 *   parser refuses either without the other), and that "allow" would approve
 *   the call: so no rewrite for Codex, neither the sandbox nor the environment
 *   rules (src/engine/sandbox/clients.ts).
 *   Seen live (test/e2e/codex-cli.test.ts): exactly these inputs.
 * - Gemini CLI 0.61 (bundle: HookEventHandler.createBaseInput,
 *   DefaultHookOutput): events BeforeTool / AfterTool / BeforeAgent /
 *   AfterAgent / SessionStart; `{decision: "deny", reason}` blocks; stdout is
 *   read before the exit code, so a fail-closed answer must carry the deny
 *   JSON too; `hookSpecificOutput.additionalContext` of AfterTool is appended
 *   to the tool's result (an interrupt reaches the model there).
 * - Copilot CLI 1.0 (GitHub's "Copilot CLI hooks reference"): input
 *   `{timestamp, cwd, toolName, toolArgs}` with `toolArgs` a JSON string and no
 *   event name, so each entry names its event (`--event preToolUse`); answer
 *   `{permissionDecision: "deny", permissionDecisionReason}`. Seen live in
 *   1.0.102 (test/e2e/copilot-cli.test.ts): `toolArgs` came as an object, and
 *   the input has `sessionId`; objectInput takes both forms.
 * - Cursor (its hooks documentation): `hook_event_name` in camelCase,
 *   `conversation_id`, `workspace_roots`; preToolUse `tool_name`/`tool_input`;
 *   the specific events beforeShellExecution `{command, cwd}`, beforeReadFile
 *   `{file_path}`, beforeMCPExecution `{tool_name, tool_input (JSON text)}`,
 *   afterFileEdit `{file_path, edits}`; answer `{permission, user_message,
 *   agent_message}`, sessionStart / postToolUse `{additional_context}`, stop
 *   `{followup_message}`.
 * - OpenCode: our own plugin (src/engine/clients/opencode-plugin.ts) sends
 *   Claude-shaped events and reads `{decision, reason?, context?}`.
 */
import { isOwnTool, MCP_SERVER_NAME, OWN_TOOLS, type HookClientName } from '../engine/index.js';
import { HOOK_EVENTS, HookInputError, parseHookInput, parseHookObject, preToolOutput, contextOutput, stopOutput, type HookEventName, type HookInput, type PreToolAnswer } from './hook-protocol.js';

/** What the hook process prints and how it exits. */
export interface Reply {
  readonly stdout?: object;
  readonly stderr?: string;
  readonly exit: 0 | 2;
}

export interface Dialect {
  /** The client's raw input, with `event` when the command line named it (Copilot). */
  parse(raw: Record<string, unknown>, event?: string): HookInput;
  pre(answer: PreToolAnswer, notices?: string): Reply;
  /** Briefing (SessionStart, UserPromptSubmit) and after-call notes (PostToolUse). */
  context(input: HookInput, text: string, interrupted?: boolean): Reply;
  stop(input: HookInput, reason: string, block: boolean): Reply;
  /** A PreToolUse that could not be decided: denied in the client's own terms, and exit 2. */
  failClosed(reason: string): Reply;
  /**
   * A call denied only for being outside the live stage's tools (a one-shot
   * grant would let it through): put to the person through the client's own
   * prompt where it has one (`ask`), else denied with `deny`.
   */
  outsideStage(input: HookInput, ask: string, deny: string): Reply;
}

const out = (stdout?: object): Reply => (stdout ? { stdout, exit: 0 } : { exit: 0 });
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * How each client spells a tool of stategate's own MCP server (server
 * MCP_SERVER_NAME): only these spellings are stategate's tools. Sources as in
 * the header and src/engine/agent/tools.ts; VS Code's from its sources
 * (McpPrefixGenerator: an MCP tool's id is `mcp_` + the server's name,
 * lower-cased, + `_` + the tool's; its hooks report the id the model called).
 * - VS Code: bare (the extension's own language-model tools), `mcp_stategate_<tool>`, `stategate/<tool>`.
 * - Claude Code, Codex: `mcp__stategate__<tool>`.
 * - Gemini CLI: `mcp_<server>_<tool>` (0.61's bundle) only with
 *   `mcp_context.server_name` "stategate" (the name alone cannot tell server
 *   `stategate_x` + tool `y` from server `stategate` + tool `x_y`; a tool
 *   without mcp_context is not an MCP tool there), or `mcp__stategate__<tool>`
 *   (the spelling its hooks reference documents).
 * - Copilot CLI: `stategate-<tool>`. OpenCode: `stategate_<tool>`.
 * - Cursor: `MCP:stategate:<tool>`, or beforeMCPExecution naming the tool
 *   bare with the `command` of stategate's server (cursorTool).
 */
const OWN_SPELLINGS: Readonly<Record<HookClientName, readonly string[]>> = {
  vscode: ['', `mcp_${MCP_SERVER_NAME}_`, `${MCP_SERVER_NAME}/`],
  claude: [`mcp__${MCP_SERVER_NAME}__`],
  codex: [`mcp__${MCP_SERVER_NAME}__`],
  gemini: [`mcp__${MCP_SERVER_NAME}__`],
  copilot: [`${MCP_SERVER_NAME}-`],
  opencode: [`${MCP_SERVER_NAME}_`],
  cursor: [`MCP:${MCP_SERVER_NAME}:`],
};

/**
 * A client's tool name in the tool table's terms: stategate's own tools in
 * Claude Code's spelling (`mcp__stategate__<tool>`, which isOwnTool takes), and
 * a look-alike (a name isOwnTool would take that is not this client's spelling
 * of stategate's server: another server's tool, an OpenCode custom tool named
 * `statewright_pause`, VS Code's `mcp__stategate__x` of a server called
 * `_stategate_`) renamed `<client>:<name>`, an ordinary tool the state's rules
 * decide. Every other name is kept.
 */
export function ownToolSpelling(client: HookClientName, name: string): string {
  for (const prefix of OWN_SPELLINGS[client]) {
    if (!name.startsWith(prefix)) continue;
    const tool = name.slice(prefix.length);
    if (OWN_TOOLS.includes(tool)) return client === 'vscode' ? name : `mcp__${MCP_SERVER_NAME}__${tool}`;
    // Any other tool of stategate's server (a stage's completion tool) in the one spelling the
    // policy reads; a hook client's bare name is never stategate's (completion-call.ts).
    if (client !== 'vscode' && prefix !== '' && tool !== '') return `mcp__${MCP_SERVER_NAME}__${tool}`;
  }
  return isOwnTool(name) ? `${client}:${name}` : name;
}

/** A tool input that came as JSON text (Copilot's toolArgs, Cursor's MCP tool_input) as an object. */
function objectInput(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new HookInputError('the tool input is text that is not JSON');
  }
}

/** Claude-shaped input with the client's own event names mapped first. */
function claudeShaped(client: HookClientName, raw: Record<string, unknown>, events: Readonly<Record<string, HookEventName>> = {}): HookInput {
  const name = str(raw['hook_event_name']) ?? str(raw['hookEventName']);
  const mapped = name !== undefined ? events[name] : undefined;
  const input = parseHookInput(JSON.stringify(mapped ? { ...raw, hook_event_name: mapped, hookEventName: undefined } : raw), client);
  return input.toolName ? { ...input, toolName: ownToolSpelling(client, input.toolName) } : input;
}

// ---------------------------------------------------------------------------

const claudeLike = (client: 'vscode' | 'claude'): Dialect => ({
  parse: (raw) => {
    const input = parseHookInput(JSON.stringify(raw), client);
    return input.toolName ? { ...input, toolName: ownToolSpelling(client, input.toolName) } : input;
  },
  pre: (answer, notices) => out(preToolOutput(answer, notices)),
  context: (input, text, interrupted) => {
    // VS Code 1.139 drops a PostToolUse additionalContext but shows a block's reason (hook-command.ts).
    if (interrupted && input.client === 'vscode') return out({ decision: 'block', reason: text, ...contextOutput('PostToolUse', text) });
    return out(contextOutput(input.event, text));
  },
  stop: (_input, reason, block) => out(stopOutput(reason, block)),
  failClosed: (reason) => ({ stdout: preToolOutput({ decision: 'deny', reason })!, stderr: `stategate: ${reason}\n`, exit: 2 }),
  // permissionDecision "ask": Claude Code and VS Code show their own confirmation for this one call.
  outsideStage: (_input, ask) => out(preToolOutput({ decision: 'ask', reason: ask })),
});

/** A rewritten command cannot be handed back to clients without `updatedInput`: the agent is told to run it instead. */
function denyReason(answer: Exclude<PreToolAnswer, { decision: 'allow' }>): string {
  if (answer.decision === 'deny') return answer.reason;
  const command = (answer.updatedInput as { command?: unknown } | undefined)?.command;
  return typeof command === 'string' ? `${answer.reason} Run it this way instead: ${command}` : answer.reason;
}

const codex: Dialect = {
  parse: (raw) => claudeShaped('codex', raw),
  pre: (answer) => (answer.decision === 'allow' ? out() : out(preToolOutput({ decision: 'deny', reason: denyReason(answer) }))),
  context: (input, text) => out(contextOutput(input.event, text)),
  stop: (_input, reason, block) => out(block ? { decision: 'block', reason } : { systemMessage: reason }),
  failClosed: (reason) => ({ stdout: preToolOutput({ decision: 'deny', reason })!, stderr: `stategate: ${reason}\n`, exit: 2 }),
  // Codex parses permissionDecision "ask" but does not support it: the hook counts as failed and the call runs. A deny.
  outsideStage: (_input, _ask, deny) => out(preToolOutput({ decision: 'deny', reason: deny })),
};

const GEMINI_EVENTS: Readonly<Record<string, HookEventName>> = { BeforeTool: 'PreToolUse', AfterTool: 'PostToolUse', BeforeAgent: 'UserPromptSubmit', AfterAgent: 'Stop', SessionStart: 'SessionStart' };
const GEMINI_NAMES: Readonly<Partial<Record<HookEventName, string>>> = { PreToolUse: 'BeforeTool', PostToolUse: 'AfterTool', UserPromptSubmit: 'BeforeAgent', Stop: 'AfterAgent', SessionStart: 'SessionStart' };

const gemini: Dialect = {
  parse: (raw) => {
    const mcp = raw['mcp_context'] as { server_name?: unknown; tool_name?: unknown } | undefined;
    const input = claudeShaped('gemini', raw, GEMINI_EVENTS);
    // Gemini names MCP tools `mcp_<server>_<tool>`; its mcp_context says which part is which.
    if (input.toolName && typeof mcp?.server_name === 'string' && typeof mcp.tool_name === 'string') {
      const own = mcp.server_name === MCP_SERVER_NAME && OWN_TOOLS.includes(mcp.tool_name);
      return { ...input, toolName: own ? `mcp__${MCP_SERVER_NAME}__${mcp.tool_name}` : ownToolSpelling('gemini', `mcp__${mcp.server_name}__${mcp.tool_name}`) };
    }
    return input;
  },
  pre: (answer) => out(answer.decision === 'allow' ? {} : { decision: 'deny', reason: denyReason(answer) }),
  context: (input, text) => out({ hookSpecificOutput: { hookEventName: GEMINI_NAMES[input.event] ?? input.event, additionalContext: text } }),
  // AfterAgent: "block" makes Gemini go on with the reason as the next prompt.
  stop: (_input, reason, block) => out(block ? { decision: 'block', reason } : { systemMessage: reason }),
  failClosed: (reason) => ({ stdout: { decision: 'deny', reason }, stderr: `stategate: ${reason}\n`, exit: 2 }),
  // BeforeTool `decision: "ask"` makes Gemini CLI confirm the call with the person, even where it would run unasked.
  outsideStage: (_input, ask) => out({ decision: 'ask', reason: ask, systemMessage: ask }),
};

const COPILOT_EVENTS: Readonly<Record<string, HookEventName>> = { preToolUse: 'PreToolUse', postToolUse: 'PostToolUse', sessionStart: 'SessionStart', userPromptSubmitted: 'UserPromptSubmit', agentStop: 'Stop', subagentStop: 'SubagentStop' };

const copilot: Dialect = {
  parse: (raw, eventArg) => {
    // Copilot CLI's own file passes no event name: the entry's command names it.
    if (eventArg === undefined && (raw['hook_event_name'] !== undefined || raw['hookEventName'] !== undefined)) return claudeShaped('copilot', raw, COPILOT_EVENTS);
    const event = eventArg !== undefined ? COPILOT_EVENTS[eventArg] : raw['toolResult'] !== undefined ? 'PostToolUse' : raw['toolName'] !== undefined ? 'PreToolUse' : undefined;
    if (!event) throw new HookInputError(eventArg !== undefined ? `unknown Copilot CLI hook event "${eventArg}"` : 'Copilot CLI hook input without an event (the hook entry should pass --event)');
    const toolName = str(raw['toolName']);
    if ((event === 'PreToolUse' || event === 'PostToolUse') && !toolName) throw new HookInputError(`${event} hook input has no toolName`);
    const result = raw['toolResult'] as { textResultForLlm?: unknown } | undefined;
    const cwd = str(raw['cwd']);
    const sessionId = str(raw['sessionId']) ?? str(raw['session_id']);
    return {
      client: 'copilot',
      event,
      stopHookActive: raw['stop_hook_active'] === true || raw['stopHookActive'] === true,
      ...(cwd ? { cwd } : {}),
      ...(sessionId ? { sessionId } : {}),
      ...(toolName ? { toolName: ownToolSpelling('copilot', toolName) } : {}),
      ...(raw['toolArgs'] !== undefined ? { toolInput: objectInput(raw['toolArgs']) } : {}),
      ...(result !== undefined ? { toolResponse: typeof result?.textResultForLlm === 'string' ? result.textResultForLlm : result } : {}),
    };
  },
  pre: (answer) => (answer.decision === 'allow' ? out() : out({ permissionDecision: 'deny', permissionDecisionReason: denyReason(answer) })),
  context: (_input, text) => out({ additionalContext: text }),
  stop: (_input, reason, block) => out(block ? { decision: 'block', reason } : {}),
  failClosed: (reason) => ({ stdout: { permissionDecision: 'deny', permissionDecisionReason: reason }, stderr: `stategate: ${reason}\n`, exit: 2 }),
  // Copilot CLI acts only on a deny (its reference lists "ask" but does not process it): a deny.
  outsideStage: (_input, _ask, deny) => out({ permissionDecision: 'deny', permissionDecisionReason: deny }),
};

const CURSOR_EVENTS: Readonly<Record<string, HookEventName>> = {
  preToolUse: 'PreToolUse',
  beforeShellExecution: 'PreToolUse',
  beforeReadFile: 'PreToolUse',
  beforeMCPExecution: 'PreToolUse',
  postToolUse: 'PostToolUse',
  afterFileEdit: 'PostToolUse',
  sessionStart: 'SessionStart',
  beforeSubmitPrompt: 'UserPromptSubmit',
  stop: 'Stop',
};

/**
 * beforeMCPExecution's tool as `MCP:<server>:<tool>`: its `tool_name` may name
 * the tool alone, with the server's `command` (or `url`) beside it. Only a
 * command that runs stategate's server (`... cli.js mcp`, `stategate mcp`)
 * makes it stategate's; a tool whose server cannot be told is another's.
 */
function cursorMcpName(raw: Record<string, unknown>): string {
  const name = String(raw['tool_name'] ?? '');
  if (name.startsWith('MCP:')) return ownToolSpelling('cursor', name);
  const command = typeof raw['command'] === 'string' ? raw['command'] : '';
  const ours = /(^|[\s/\\'"])(stategate|cli\.js)['"]?\s+mcp(\s|$)/.test(command);
  return ownToolSpelling('cursor', ours ? `MCP:${MCP_SERVER_NAME}:${name}` : `MCP:${name}`);
}

/** Cursor's specific events carry the call in their own fields: as the tool table's calls. */
function cursorTool(name: string, raw: Record<string, unknown>): { toolName: string; toolInput: unknown } | undefined {
  switch (name) {
    case 'beforeShellExecution':
      return { toolName: 'Shell', toolInput: { command: raw['command'], ...(raw['cwd'] !== undefined ? { cwd: raw['cwd'] } : {}) } };
    case 'beforeReadFile':
      return { toolName: 'Read', toolInput: { file_path: raw['file_path'] } };
    case 'beforeMCPExecution':
      return { toolName: cursorMcpName(raw), toolInput: objectInput(raw['tool_input']) };
    case 'afterFileEdit': {
      const edits = Array.isArray(raw['edits']) ? raw['edits'] : [];
      return { toolName: 'MultiEdit', toolInput: { file_path: raw['file_path'], edits } };
    }
    default:
      return undefined;
  }
}

/** Cursor's events whose answer may be permission "ask". */
const CURSOR_ASKS: ReadonlySet<string> = new Set(['beforeShellExecution', 'beforeMCPExecution']);

const cursor: Dialect = {
  parse: (raw) => {
    const name = str(raw['hook_event_name']) ?? '';
    const event = CURSOR_EVENTS[name];
    if (!event) throw new HookInputError(`unknown Cursor hook event "${name}"`);
    const roots = Array.isArray(raw['workspace_roots']) ? (raw['workspace_roots'] as unknown[]) : [];
    const cwd = str(raw['cwd']) ?? str(roots[0]);
    const sessionId = str(raw['conversation_id']) ?? str(raw['session_id']);
    const special = cursorTool(name, raw);
    const toolName = special?.toolName ?? str(raw['tool_name']);
    if ((event === 'PreToolUse' || event === 'PostToolUse') && !toolName) throw new HookInputError(`${name} hook input has no tool_name`);
    const toolInput = special ? special.toolInput : raw['tool_input'] !== undefined ? objectInput(raw['tool_input']) : undefined;
    const response = raw['tool_output'] ?? raw['tool_response'] ?? raw['result_json'];
    const callId = str(raw['tool_use_id']);
    return {
      client: 'cursor',
      event,
      clientEvent: name,
      ...(callId ? { callId } : {}),
      stopHookActive: (typeof raw['loop_count'] === 'number' && raw['loop_count'] > 0) || raw['stop_hook_active'] === true,
      ...(cwd ? { cwd } : {}),
      ...(sessionId ? { sessionId } : {}),
      ...(toolName ? { toolName: special ? toolName : ownToolSpelling('cursor', toolName) } : {}),
      ...(toolInput !== undefined ? { toolInput } : {}),
      ...(response !== undefined ? { toolResponse: response } : {}),
    };
  },
  pre: (answer) => (answer.decision === 'allow' ? out({ permission: 'allow' }) : out({ permission: 'deny', user_message: denyReason(answer), agent_message: denyReason(answer) })),
  context: (input, text) => (input.event === 'UserPromptSubmit' ? out({ continue: true }) : out({ additional_context: text })),
  // Cursor's stop hook can only send a follow-up prompt (which makes the agent go on): a block.
  stop: (_input, reason, block) => out(block ? { followup_message: reason } : {}),
  failClosed: (reason) => ({ stdout: { permission: 'deny', user_message: reason, agent_message: reason }, stderr: `stategate: ${reason}\n`, exit: 2 }),
  // beforeShellExecution and beforeMCPExecution take permission "ask" (Cursor asks the person); its other events only allow or deny.
  outsideStage: (input, ask, deny) =>
    CURSOR_ASKS.has(input.clientEvent ?? '') ? out({ permission: 'ask', user_message: ask, agent_message: ask }) : out({ permission: 'deny', user_message: deny, agent_message: deny }),
};

const opencode: Dialect = {
  parse: (raw) => claudeShaped('opencode', raw),
  // The plugin puts updated_input (the sandboxed command) in place of the tool's arguments.
  pre: (answer) => out(answer.decision === 'allow' ? { decision: 'allow', ...(answer.updatedInput !== undefined ? { updated_input: answer.updatedInput } : {}) } : { decision: 'deny', reason: denyReason(answer) }),
  context: (_input, text) => out({ context: text }),
  stop: () => out({}),
  failClosed: (reason) => ({ stdout: { decision: 'deny', reason }, stderr: `stategate: ${reason}\n`, exit: 2 }),
  // The plugin's tool.execute.before can only let a call run or throw: a deny.
  outsideStage: (_input, _ask, deny) => out({ decision: 'deny', reason: deny }),
};

export const DIALECTS: Readonly<Record<HookClientName, Dialect>> = { vscode: claudeLike('vscode'), claude: claudeLike('claude'), codex, gemini, copilot, cursor, opencode };

/** Parse stdin for a client: JSON object or HookInputError. */
export function parseClientInput(client: HookClientName, text: string, event?: string): HookInput {
  return DIALECTS[client].parse(parseHookObject(text), event);
}

export { HOOK_EVENTS };
