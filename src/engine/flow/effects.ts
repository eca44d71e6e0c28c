/**
 * The tools that leave the runner, each handed to the host (host.ts) with its
 * arguments already templated: bash, ask-user (answered from `--answers`
 * first), the model prompts, claude-code, get-gh-issue. The control tools
 * (switch, pause, parallel, sub-flow) are the runner's own (runner.ts).
 */
import type { JsonObject } from '../model/index.js';
import type { FlowHost, ModelVendor, ToolOutcome } from './host.js';
import { asText } from './template.js';
import type { CustomFlowTool } from '../formats/flow-tool-registry.js';
import { customToolCommand } from './custom-tool.js';

/** What one effect needs to know of the run it is part of. */
export interface EffectContext {
  readonly host: FlowHost;
  readonly answers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** A command started: its process group is recorded so another process can stop it. */
  recordPgid(pgid: number): void;
}

export interface EffectCall {
  /** The state's path (`deploy/check`). */
  readonly path: string;
  /** The state's own name (the last part of the path), for `--answers`. */
  readonly name: string;
  readonly tool: string;
  /** Templated. */
  readonly args: JsonObject;
  /** The registered tool, when `tool` is a custom one (.stategate/flow-tools.yaml). */
  readonly custom?: CustomFlowTool;
}

const VENDORS: readonly string[] = ['claude', 'codex', 'gemini'] satisfies readonly ModelVendor[];

export function isEffectTool(tool: string): boolean {
  return ['bash', 'ask-user', 'claude-code', 'get-gh-issue', ...VENDORS].includes(tool);
}

export async function runEffect(ctx: EffectContext, call: EffectCall): Promise<ToolOutcome> {
  const { host, signal } = ctx;
  const arg = (key: string): string => asText(call.args[key]);
  const optional = (key: string): string | undefined => (call.args[key] === undefined ? undefined : arg(key));
  // A custom tool is a bash command the registry wrote, with the state's arguments put in.
  if (call.custom) return host.runCommand({ state: call.path, command: customToolCommand(call.custom, call.args), cwd: host.workspace, signal, onStarted: (pgid) => ctx.recordPgid(pgid) });
  switch (call.tool) {
    case 'bash':
      return host.runCommand({ state: call.path, command: arg('command'), cwd: host.workspace, signal, onStarted: (pgid) => ctx.recordPgid(pgid) });
    case 'ask-user': {
      const answer = ctx.answers[call.path] ?? ctx.answers[call.name];
      if (answer !== undefined) return { exitCode: 0, stdout: answer };
      return host.askUser({ state: call.path, question: arg('question'), signal });
    }
    case 'claude-code':
      return host.claudeCode(promptRequest(ctx, call, 'claude', optional('model')));
    case 'get-gh-issue': {
      const repo = optional('repo');
      return host.ghIssue({ state: call.path, issueNumber: arg('issue-number'), cwd: host.workspace, signal, ...(repo !== undefined ? { repo } : {}) });
    }
    default:
      if (VENDORS.includes(call.tool)) return host.prompt(promptRequest(ctx, call, call.tool as ModelVendor, optional('model')));
      return { exitCode: 1, stdout: '', message: `\`${call.tool}\` cannot run here: only ${['bash', 'ask-user', ...VENDORS, 'claude-code', 'get-gh-issue'].map((t) => `\`${t}\``).join(', ')} run as a parallel task` };
  }
}

function promptRequest(ctx: EffectContext, call: EffectCall, vendor: ModelVendor, model: string | undefined) {
  return { state: call.path, vendor, prompt: asText(call.args.prompt), cwd: ctx.host.workspace, signal: ctx.signal, ...(model !== undefined ? { model } : {}) };
}
