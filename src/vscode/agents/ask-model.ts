/**
 * One model turn through vscode.lm: the request with the offered tools, and
 * the streamed answer gathered into its text and tool calls. Shared by the
 * participant's tool loop and the pipeline runner (each with its own reason
 * shown to the person). VS Code's API reports no usage, so the turn's tokens
 * are counted with the model's own tokenizer (countTokens: every message sent,
 * and the answer's text and calls) and priced with `stategate.modelPrices`.
 */
import * as vscode from 'vscode';
import { priceFor, usageReport, type ModelPrices, type UsageReport } from '../../engine/index.js';
import type { ModelTurn } from './participant-loop.js';

export async function askModel(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  tools: vscode.LanguageModelChatTool[],
  justification: string,
  token: vscode.CancellationToken,
  prices?: ModelPrices,
): Promise<ModelTurn> {
  const response = await model.sendRequest(messages, { tools, justification }, token);
  let text = '';
  const calls: { callId: string; name: string; input: unknown }[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push({ callId: part.callId, name: part.name, input: part.input });
  }
  const usage = prices ? await countUsage(model, messages, text, calls, prices, token) : undefined;
  return { text, calls, ...(usage ? { usage } : {}) };
}

/** The turn's tokens (in: the messages sent; out: the text and the calls as JSON), priced; undefined when the model cannot count. */
async function countUsage(model: vscode.LanguageModelChat, messages: readonly vscode.LanguageModelChatMessage[], text: string, calls: readonly unknown[], prices: ModelPrices, token: vscode.CancellationToken): Promise<UsageReport | undefined> {
  try {
    let input = 0;
    for (const m of messages) input += await model.countTokens(m, token);
    const output = (text ? await model.countTokens(text, token) : 0) + (calls.length ? await model.countTokens(JSON.stringify(calls), token) : 0);
    const name = { id: model.id, family: model.family, vendor: model.vendor };
    return usageReport(name, input, output, priceFor(prices, name));
  } catch {
    return undefined;
  }
}
