// A scripted stand-in for the Gemini API (generativelanguage v1beta) on
// loopback, for the real Gemini CLI (GOOGLE_GEMINI_BASE_URL points it here).
// The main conversation is the request that declares Gemini CLI's tools
// (`write_file` among them): its n-th model turn gets `script(n, request)`.
// Everything else Gemini CLI asks on the side (routing, summaries) gets a short
// JSON text. Streamed requests (`:streamGenerateContent?alt=sse`) are answered
// as one server-sent event, the others as one JSON body. The server itself is
// loopback-model.ts.
import { startLoopbackModel, writeJson, writeSse } from './loopback-model';

export type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };
export interface GenerateRequest {
  contents?: { role?: string; parts?: Record<string, unknown>[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
  systemInstruction?: unknown;
}

export interface FakeGemini {
  readonly url: string;
  /** Main-conversation requests, in order. */
  readonly main: GenerateRequest[];
  close(): Promise<void>;
}

/** The function names a request declares. */
export function declared(r: GenerateRequest): string[] {
  return (r.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
}

/** The function responses a request carries (what the tools answered), in order. */
export function functionResponses(r: GenerateRequest): { name: string; response: unknown }[] {
  return (r.contents ?? []).flatMap((c) => (c.parts ?? []).flatMap((p) => (p['functionResponse'] ? [p['functionResponse'] as { name: string; response: unknown }] : [])));
}

export async function startFakeGemini(script: (turn: number, request: GenerateRequest) => Part): Promise<FakeGemini> {
  const main: GenerateRequest[] = [];
  const server = await startLoopbackModel((req, res) => {
    const request = (req.body && typeof req.body === 'object' ? req.body : {}) as GenerateRequest;
    const isMain = declared(request).includes('write_file');
    let part: Part = { text: '{}' };
    if (isMain) {
      main.push(request);
      part = script((request.contents ?? []).filter((c) => c.role === 'model').length, request);
    }
    const chunk = { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } };
    if (req.query.includes('alt=sse')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeSse(res, chunk);
      res.end();
    } else writeJson(res, 200, chunk);
    return true;
  });
  return { url: server.url, main, close: server.close };
}
