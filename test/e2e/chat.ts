// Driving the Chat view with the scripted model (test/e2e/scripted-model):
// open the chat with the model in its picker, type a prompt as a person
// would, and read back what the model was sent each round.
import assert from 'node:assert/strict';
import type { VsCode } from './harness';

export interface Received {
  readonly model: string;
  readonly tools: string[];
  readonly messages: { role: string; parts: ({ kind: 'text'; value: string } | { kind: 'call'; name: string; input: unknown } | { kind: 'result'; callId: string; text: string })[] }[];
}

/** The last tool result the model was sent in a request. */
export function lastResult(r: Received | undefined): string | undefined {
  const parts = r?.messages.at(-1)?.parts ?? [];
  const res = parts.filter((p) => p.kind === 'result');
  return res.length ? (res.at(-1) as { text: string }).text : undefined;
}

/** Opens the Chat view with the scripted model in its picker. */
export async function openChat(vsc: VsCode): Promise<void> {
  // VS Code resolves a provider's models lazily: until something asks, the picker offers only a Copilot sign-in.
  assert.deepEqual(await vsc.executeCommand('scriptedModel.models'), ['scripted']);
  await vsc.executeCommand('workbench.action.chat.open');
  await vsc.page.locator('.interactive-input-part').getByText('Scripted', { exact: true }).first().waitFor({ timeout: 30_000 });
}

/** Types a prompt into the chat input as a person would, replacing what is there, and sends it. */
export async function typePrompt(vsc: VsCode, prompt: string): Promise<void> {
  const input = vsc.page.locator('.interactive-input-part .monaco-editor').first();
  await input.click();
  await vsc.page.keyboard.press('Control+A');
  await vsc.page.keyboard.press('Backspace');
  await vsc.page.keyboard.type(prompt, { delay: 15 });
  await vsc.page.keyboard.press('Enter');
}

export async function received(vsc: VsCode, atLeast: number, timeoutMs = 30_000): Promise<Received[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = (await vsc.executeCommand('scriptedModel.received')) as Received[];
    if (r.length >= atLeast || Date.now() > end) return r;
    await new Promise((res) => setTimeout(res, 250));
  }
}

