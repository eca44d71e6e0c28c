// A scripted language model for stategate's end-to-end tests: each request
// is answered with the next turn of a script the outer test sets
// (`scriptedModel.setScript`), and every request (messages, tool results,
// the tools offered) is recorded for the test to read (`scriptedModel.received`;
// requests with no tools, the chat's housekeeping, in `scriptedModel.utility`).
// Two plain file tools give the model something to read and edit with.
// Requests offered no tools (a flow's claude/codex/gemini state) are answered
// from a second script when the test set one (`scriptedModel.setPlainScript`),
// streamed word by word, and recorded with the housekeeping (`scriptedModel.utility`).
// A plain answer may hold at `|hold|`: the words before it are streamed, the
// rest only after `scriptedModel.release`, so a test can see a half-streamed answer.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatInformation, LmWithProviders, RequestMessage } from './lm-api';

interface ScriptCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}
interface ScriptTurn {
  readonly text?: string;
  readonly calls?: readonly ScriptCall[];
  /** Answer only a request that offers this tool (requests running at once, like a fan-out's branches, each take their own turn). */
  readonly when?: string;
}
type Part = { kind: 'text'; value: string } | { kind: 'call'; name: string; input: unknown } | { kind: 'result'; callId: string; text: string };
interface Received {
  readonly model: string;
  readonly tools: string[];
  readonly messages: { role: string; parts: Part[] }[];
}

const MODEL: ChatInformation = {
  id: 'scripted',
  name: 'Scripted',
  family: 'scripted',
  version: '1',
  maxInputTokens: 200_000,
  maxOutputTokens: 8_000,
  capabilities: { toolCalling: true },
};

let script: ScriptTurn[] = [];
let plainScript: string[] = [];
const received: Received[] = [];
const utility: Received[] = [];
let calls = 0;
const HOLD = '|hold|';
/** Releases a plain answer held at HOLD (set while one is held). */
let release: (() => void) | undefined;

/** Text of a result's parts; other part kinds (prompt-tsx, data) as JSON, so a test sees everything the model got. */
function textOf(parts: readonly unknown[]): string {
  return parts.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : JSON.stringify(p))).join('');
}

function describe(message: RequestMessage): { role: string; parts: Part[] } {
  const parts: Part[] = [];
  for (const p of message.content) {
    if (p instanceof vscode.LanguageModelTextPart) parts.push({ kind: 'text', value: p.value });
    else if (p instanceof vscode.LanguageModelToolCallPart) parts.push({ kind: 'call', name: p.name, input: p.input });
    else if (p instanceof vscode.LanguageModelToolResultPart) parts.push({ kind: 'result', callId: p.callId, text: textOf(p.content) });
    else parts.push({ kind: 'text', value: JSON.stringify(p) });
  }
  return { role: message.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'assistant', parts };
}

function workspacePath(p: unknown): string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  return path.resolve(root, String(p ?? ''));
}

export function activate(context: vscode.ExtensionContext): void {
  const lm = vscode.lm as unknown as LmWithProviders;
  context.subscriptions.push(
    lm.registerLanguageModelChatProvider('scripted', {
      provideLanguageModelChatInformation: () => [MODEL],
      async provideLanguageModelChatResponse(model, messages, options, progress) {
        const request = { model: model.id, tools: (options.tools ?? []).map((t) => t.name), messages: messages.map(describe) };
        // Requests without tools are the chat's own housekeeping (titles, summaries): answered, kept apart, no script turn spent.
        if (request.tools.length === 0) {
          utility.push(request);
          const answer = plainScript.shift();
          if (answer === undefined) progress.report(new vscode.LanguageModelTextPart('Scripted'));
          else {
            const [before, after] = answer.includes(HOLD) ? answer.split(HOLD, 2) : [answer, undefined];
            for (const word of before!.match(/\S+\s*/g) ?? []) progress.report(new vscode.LanguageModelTextPart(word));
            if (after === undefined) return;
            await new Promise<void>((resolve) => (release = resolve));
            for (const word of after.match(/\S+\s*/g) ?? []) progress.report(new vscode.LanguageModelTextPart(word));
          }
          return;
        }
        received.push(request);
        const at = script.findIndex((t) => t.when === undefined || request.tools.includes(t.when));
        const turn = at < 0 ? { text: 'The script is over.' } : script.splice(at, 1)[0]!;
        if (turn.text) progress.report(new vscode.LanguageModelTextPart(turn.text));
        for (const c of turn.calls ?? []) progress.report(new vscode.LanguageModelToolCallPart(`call-${++calls}`, c.name, c.input));
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
    }),
    vscode.lm.registerTool<{ filePath: string }>('scripted_readFile', {
      invoke: (o) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(fs.readFileSync(workspacePath(o.input.filePath), 'utf8'))]),
    }),
    vscode.lm.registerTool<{ filePath: string; content: string }>('scripted_writeFile', {
      invoke: (o) => {
        const file = workspacePath(o.input.filePath);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, o.input.content);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`wrote ${o.input.content.length} characters to ${o.input.filePath}`)]);
      },
    }),
    vscode.commands.registerCommand('scriptedModel.setScript', (turns: ScriptTurn[]) => {
      script = [...turns];
      received.length = 0;
      return true;
    }),
    vscode.commands.registerCommand('scriptedModel.setPlainScript', (answers: string[]) => {
      plainScript = [...answers];
      utility.length = 0;
      return true;
    }),
    // True when an answer was held and is now streamed on; false when none was held.
    vscode.commands.registerCommand('scriptedModel.release', () => {
      const held = release;
      release = undefined;
      held?.();
      return held !== undefined;
    }),
    vscode.commands.registerCommand('scriptedModel.received', () => received),
    vscode.commands.registerCommand('scriptedModel.utility', () => utility),
    vscode.commands.registerCommand('scriptedModel.tools', () => vscode.lm.tools.map((t) => t.name)),
    // VS Code resolves a provider's models lazily; asking for them makes the Chat view's model picker offer them.
    vscode.commands.registerCommand('scriptedModel.models', async () => (await vscode.lm.selectChatModels({ vendor: 'scripted' })).map((m) => m.id)),
  );
}

export function deactivate(): void {}
