/**
 * stategate's agent tools as VS Code language-model tools (contributed in
 * package.json `languageModelTools`, implemented here), so Copilot's agent
 * mode and any participant can read the state and move the workflow on.
 * Each is a thin adapter over `invokeAgentTool`; the confirmation message
 * says what will happen ("Transition READY: planning → implementing").
 * activate() registers them by the names package.json lists and hands each
 * call to these (extension.ts).
 */
import * as vscode from 'vscode';
import { activeIsDebug, AGENT_TOOLS, describeAgentCall, invokeAgentTool, type AgentSession } from '../../engine/index.js';
import type { RunService } from '../runtime/run-service.js';

/**
 * VS Code gives a tool no stable id of the chat session that calls it, so
 * tools called from Copilot share one session per window (a fork branch
 * bound through statewright_load_workflow holds for them all). The
 * @stategate participant keeps its own session per conversation.
 */
const windowSession: AgentSession = {};

export type AgentTool = vscode.LanguageModelTool<Record<string, unknown>>;

/** The tools by name. */
export function lmTools(service: RunService): Map<string, AgentTool> {
  return new Map(
    AGENT_TOOLS.map((spec): [string, AgentTool] => [spec.name, {
      async prepareInvocation(options) {
        // No confirmation: these tools are always allowed, and approval of a transition is the workflow's job.
        return { invocationMessage: await describeAgentCall(service.runner, spec.name, options.input, windowSession) };
      },
      async invoke(options) {
        // Restricted Mode starts and changes no runs (package.json capabilities); reading them is fine.
        if (!spec.readOnly && !vscode.workspace.isTrusted) return textResult(`${spec.name} is not available in Restricted Mode: trust the workspace to let agents change the run.`);
        if (spec.debugOnly && !(await activeIsDebug(service.runner))) {
          return textResult(`${spec.name} is only available while the active workflow's meta.debug is true.`);
        }
        const out = await service.act((runner) => invokeAgentTool(runner, spec.name, options.input, windowSession));
        return textResult(out.text);
      },
    }]),
  );
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
