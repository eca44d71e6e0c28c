/**
 * The extension's FlowHost (src/engine/flow/host.ts): the command-line host's
 * process effects (bash in a process group, `claude -p`, `gh`) with VS Code's
 * own where it has them: `ask-user` as an input box, `claude`/`codex`/`gemini`
 * through vscode.lm (streamed into the run's terminal), `get-gh-issue` through
 * VS Code's GitHub sign-in, falling back to `gh`.
 */
import * as vscode from 'vscode';
import type { AskRequest, FlowHost, FlowSink, IssueRequest, PromptRequest, ToolOutcome } from '../../engine/index.js';
import { fetchIssue } from './github-issue.js';
import { chooseModel } from './model-choice.js';
import { hasApi } from '../editor-apis.js';

/** A CancellationToken that follows an AbortSignal. */
function tokenOf(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = (): void => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return { token: source.token, dispose: () => (signal.removeEventListener('abort', cancel), source.dispose()) };
}

const fail = (message: string, exitCode = 1): ToolOutcome => ({ exitCode, stdout: '', message });

/** `ask-user`: an input box; Escape (or a stop) fails the state with a message naming it. */
export async function askInInputBox(req: AskRequest, flow: string): Promise<ToolOutcome> {
  const t = tokenOf(req.signal);
  try {
    const answer = await vscode.window.showInputBox({ title: `Flow ${flow}: ${req.state}`, prompt: req.question, placeHolder: 'Your answer (Enter to send, Escape to fail this state)', ignoreFocusOut: true }, t.token);
    if (answer === undefined) return fail(`ask-user "${req.state}": no answer (the input box was ${req.signal.aborted ? 'closed by a stop' : 'cancelled'}).`);
    return { exitCode: 0, stdout: answer };
  } finally {
    t.dispose();
  }
}

/** `claude`/`codex`/`gemini`: the chosen model's answer, each chunk streamed to the sink as it comes. */
export async function promptModel(req: PromptRequest, sink: FlowSink): Promise<ToolOutcome> {
  if (!hasApi('chat models')) return fail(`${req.vendor} "${req.state}": this editor offers extensions no language models (vscode.lm), so this state cannot prompt one in this editor.`);
  const models = await vscode.lm.selectChatModels();
  const choice = chooseModel(models, req.vendor, req.model);
  if ('why' in choice) return fail(`${req.vendor} "${req.state}": ${choice.why}`);
  const model = choice.model;
  sink.progress(`  model: ${model.name} (${model.vendor}/${model.family})`);
  const t = tokenOf(req.signal);
  try {
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(req.prompt)], { justification: `The flow state "${req.state}" sends its prompt to a language model.` }, t.token);
    let text = '';
    for await (const chunk of response.text) {
      text += chunk;
      sink.output(req.state, chunk, 'stdout');
    }
    if (text !== '' && !text.endsWith('\n')) sink.output(req.state, '\n', 'stdout');
    return { exitCode: 0, stdout: text };
  } catch (err) {
    if (req.signal.aborted) return fail(`${req.vendor} "${req.state}": stopped.`, 130);
    const why = err instanceof vscode.LanguageModelError ? `${err.code}: ${err.message}` : ((err as Error)?.message ?? String(err));
    return fail(`${req.vendor} "${req.state}": the model ${model.id} failed (${why}).`);
  } finally {
    t.dispose();
  }
}

/** `get-gh-issue`: VS Code's GitHub sign-in if there is one (never prompting), else `gh`, else a message saying how to get either. */
export async function issueThroughGitHub(req: IssueRequest, viaGh: (req: IssueRequest) => Promise<ToolOutcome>): Promise<ToolOutcome> {
  let session: vscode.AuthenticationSession | undefined;
  try {
    session = await vscode.authentication.getSession('github', ['repo'], { createIfNone: false, silent: true });
  } catch {
    session = undefined; // no GitHub authentication provider (e.g. a VS Code without it)
  }
  if (session) return fetchIssue(req, session.accessToken);
  const out = await viaGh(req);
  // 127: gh is not installed (effects/gh-issue.ts); the way forward in VS Code includes the sign-in.
  if (out.exitCode !== 127) return out;
  return fail(`get-gh-issue "${req.state}": no GitHub sign-in in VS Code and no \`gh\` on PATH. Sign in to GitHub (Accounts menu, then run the flow again), or install the GitHub CLI and run \`gh auth login\`.`, 127);
}

/** `base` is the command-line host's effects (f3's node host), rebound to this run's sink. */
export function vscodeFlowHost(base: FlowHost, flow: string): FlowHost {
  return {
    workspace: base.workspace,
    sink: base.sink,
    runCommand: (req) => base.runCommand(req),
    claudeCode: (req) => base.claudeCode(req),
    askUser: (req) => askInInputBox(req, flow),
    prompt: (req) => promptModel(req, base.sink),
    ghIssue: (req) => issueThroughGitHub(req, (r) => base.ghIssue(r)),
    now: () => base.now(),
  };
}
