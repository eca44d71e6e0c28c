/**
 * One model turn through vscode.lm: the request with the offered tools, and
 * the streamed answer gathered into its text and tool calls. Shared by the
 * participant's tool loop and the pipeline runner (each with its own reason
 * shown to the person).
 */
import * as vscode from 'vscode';
import type { ModelTurn } from './participant-loop.js';

export async function askModel(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  tools: vscode.LanguageModelChatTool[],
  justification: string,
  token: vscode.CancellationToken,
): Promise<ModelTurn> {
  const response = await model.sendRequest(messages, { tools, justification }, token);
  let text = '';
  const calls: { callId: string; name: string; input: unknown }[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push({ callId: part.callId, name: part.name, input: part.input });
  }
  return { text, calls };
}
