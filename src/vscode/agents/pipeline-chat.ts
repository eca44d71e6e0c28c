/**
 * `@stategate /run <workflow> <task>` in VS Code: pipeline-loop.ts with the
 * request's model, VS Code's tools, and the chat stream: each stage a section
 * with its result, a completion's errors, a grant's Approve / Deny buttons
 * (grant-buttons.ts), the run's end.
 */
import * as vscode from 'vscode';
import { describeLiveRun, findWorkflow, findWorkflows, isLiveRun, isOwnTool, REPLACED_RUN_LISTED, stateNames } from '../../engine/index.js';
import type { RunService } from '../runtime/run-service.js';
import { ANSWER_GRANT_COMMAND, type GrantWaiters } from './grant-buttons.js';
import type { TranscriptEntry } from './participant-loop.js';
import { askModel } from './ask-model.js';
import { parseRunPrompt, runPipeline, type OfferedTool, type PipelineEvent } from './pipeline-loop.js';
import { maxParallelStages, modelPrices, securityMode, toolAliases } from './settings.js';

type ToMessages = (system: string, transcript: readonly TranscriptEntry[]) => vscode.LanguageModelChatMessage[];

function definitions(tools: readonly OfferedTool[]): vscode.LanguageModelChatTool[] {
  const out: vscode.LanguageModelChatTool[] = [];
  for (const t of tools) {
    if (t.completion) out.push({ name: t.name, description: t.completion.description, inputSchema: t.completion.inputSchema as object });
    else {
      const info = vscode.lm.tools.find((x) => x.name === t.name);
      if (info) out.push({ name: t.name, description: info.description, ...(info.inputSchema ? { inputSchema: info.inputSchema } : {}) });
    }
  }
  return out;
}

function where(e: { state: string; branch?: string }): string {
  return e.branch ? `${e.state} (branch ${e.branch})` : e.state;
}

function show(stream: vscode.ChatResponseStream, e: PipelineEvent): void {
  switch (e.kind) {
    case 'stage':
      stream.markdown(`\n\n### Stage ${where(e)}${e.attempt > 1 ? `, attempt ${e.attempt}` : ''}${e.securityMode === 'yolo' ? ' (security mode yolo)' : ''}\n\n`);
      return;
    case 'text':
      stream.markdown(e.text);
      return;
    case 'denied':
      stream.markdown(`\n\n> **stategate denied \`${e.tool}\`** in ${e.state}: ${e.reason}\n\n`);
      return;
    case 'completion':
      stream.markdown(e.accepted ? `\n\n**${where(e)} result:**\n\n\`\`\`json\n${JSON.stringify(e.payload, null, 2)}\n\`\`\`\n\n` : `\n\n> **Completion refused** in ${where(e)}: ${e.text}\n\n`);
      return;
    case 'grant':
      stream.markdown(`\n\n> Grant for \`${e.tool}\` in ${e.state}: ${e.approved ? 'approved (this call, once)' : e.by === 'headless' ? 'no answer: denied' : 'denied'}\n\n`);
      return;
    case 'notice':
      stream.markdown(`\n\n> ${e.text}\n\n`);
      return;
    case 'stage_failed':
      stream.markdown(`\n\n> **Stage ${where(e)} failed:** ${e.reason}\n\n`);
      return;
    case 'end':
      stream.markdown(`\n\n**Pipeline ${e.status}** in state "${e.state}".\n\n`);
      return;
  }
}


export async function runPipelineRequest(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  service: RunService,
  waiters: GrantWaiters,
  toMessages: ToMessages,
): Promise<vscode.ChatResult> {
  const runner = service.runner;
  const parsed = parseRunPrompt(request.prompt);
  const found = parsed && findWorkflow(runner.workspaceRoot, parsed.workflow);
  if (!parsed || !found) {
    const known = findWorkflows(runner.workspaceRoot).map((w) => `\`${w.id}\``);
    stream.markdown(`Usage: \`@stategate /run [--replace] <workflow> <task>\`. ${parsed ? `No workflow named \`${parsed.workflow}\`. ` : ''}Workflows here: ${known.join(', ') || '(none)'}.`);
    return {};
  }
  const aliases = toolAliases();
  const mode = securityMode();
  const prices = modelPrices();
  const active = await runner.active();
  if (!parsed.replace && active.kind === 'ok' && isLiveRun(active.run)) {
    // Never discard a live run from the chat: say what it is and how to replace it on purpose.
    stream.markdown(`A run is active: ${describeLiveRun(active.run, Date.now(), stateNames(runner.env.load(active.run.workflow.definitionText)))}. It was not replaced. To replace it, send \`@stategate /run --replace ${parsed.workflow} ${parsed.task}\`, or stop it first (stategate: Stop Workflow Run). ${REPLACED_RUN_LISTED}`);
    return {};
  }
  try {
    await runPipeline(found.file, parsed.task, {
      runner,
      ...(parsed.replace ? { replace: true } : {}),
      ...(aliases ? { aliases } : {}),
      ...(mode ? { securityMode: mode } : {}),
      concurrency: maxParallelStages(),
      toolIds: () => vscode.lm.tools.map((t) => t.name).filter((n) => !isOwnTool(n)),
      ask: ({ system, transcript, tools }) => askModel(request.model, toMessages(system, transcript), definitions(tools), 'stategate runs a stage of a workflow pipeline.', token, prices),
      invoke: async (name, input) => {
        stream.progress(`Running ${name}`);
        const result = await vscode.lm.invokeTool(name, { input: (input ?? {}) as object, toolInvocationToken: request.toolInvocationToken }, token);
        return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      },
      report: (e) => show(stream, e),
      askGrant: (q) => {
        stream.markdown(`\n\n**Stage ${q.state} wants \`${q.tool}\`**, which is outside its tools: \`${q.summary}\`\n\n`);
        stream.button({ command: ANSWER_GRANT_COMMAND, title: `Approve ${q.tool}`, arguments: [q.proposalId, true] });
        stream.button({ command: ANSWER_GRANT_COMMAND, title: 'Deny', arguments: [q.proposalId, false] });
        return waiters.wait(q.proposalId, token);
      },
      changed: () => service.refresh(true),
      cancelled: () => token.isCancellationRequested,
    });
  } catch (err) {
    stream.markdown(`\n\n**The pipeline could not run:** ${(err as Error)?.message ?? String(err)}\n\n`);
  }
  return {};
}
