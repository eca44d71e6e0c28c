/**
 * A fake Anthropic Messages API on 127.0.0.1 (random port) for driving the
 * real Claude Code CLI without a network: `ANTHROPIC_BASE_URL=<url>`.
 *
 * - POST /v1/messages: the reply comes from `script(request)`; an SSE stream
 *   when the request says `stream: true` (message_start, content_block_start,
 *   content_block_delta with text_delta / input_json_delta, content_block_stop,
 *   message_delta with the stop_reason, message_stop), one JSON message otherwise.
 * - POST /v1/messages/count_tokens: a rough count.
 * - anything else: 404 with an Anthropic-shaped error (logged, so a test sees
 *   what else the client asked for).
 * Every request (method, url, headers without credentials, parsed body) is kept
 * in `requests` and, with `logFile`, appended to it as one JSON line.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import { listenOnLoopback, readBody } from './loopback-server.js';

export type Block = { readonly type: 'text'; readonly text: string } | { readonly type: 'tool_use'; readonly name: string; readonly input: unknown };

export interface MessagesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly system?: unknown;
  readonly tools?: readonly { readonly name: string }[];
  readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
  readonly [key: string]: unknown;
}

export interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

/** What the model says to one request: its content blocks (a tool_use makes stop_reason "tool_use"). */
export type Script = (request: MessagesRequest) => readonly Block[];

export interface FakeAnthropic {
  readonly url: string;
  readonly requests: LoggedRequest[];
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization']);

/**
 * The tool_result blocks sent since the model's last turn (the user messages
 * after the last assistant message: Claude Code may follow them with a
 * `system` message, e.g. a hook's context).
 */
export function toolResults(request: MessagesRequest): { tool_use_id: string; is_error: boolean; text: string }[] {
  const messages = request.messages ?? [];
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  return messages
    .slice(lastAssistant + 1)
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) => m.content as Record<string, unknown>[])
    .filter((b) => b && b['type'] === 'tool_result')
    .map((b) => ({ tool_use_id: String(b['tool_use_id']), is_error: b['is_error'] === true, text: blockText(b['content']) }));
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string' ? (c as { text: string }).text : '')).join('');
  return '';
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_fake${Date.now().toString(36)}${(counter++).toString(36).padStart(4, '0')}`;

function contentBlocks(blocks: readonly Block[]): Record<string, unknown>[] {
  return blocks.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'tool_use', id: nextId('toolu'), name: b.name, input: b.input }));
}

function roughTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
}

function sse(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function answerMessages(req: MessagesRequest, blocks: readonly Block[], res: http.ServerResponse): void {
  const content = contentBlocks(blocks);
  const stopReason = content.some((b) => b['type'] === 'tool_use') ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: roughTokens(req.messages), output_tokens: roughTokens(content), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: nextId('msg'), type: 'message', role: 'assistant', model: req.model ?? 'claude-fake', content, stop_reason: stopReason, stop_sequence: null, usage };
  const headers = { 'request-id': nextId('req'), 'anthropic-organization-id': 'fake-org' };
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  sse(res, 'message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block['type'] === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block['text'] } });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block['input']);
      // Two deltas, as a real stream splits the JSON: the client must join them.
      const cut = Math.floor(json.length / 2);
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(0, cut) } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(cut) } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

export async function startFakeAnthropic(script: Script, options: { logFile?: string } = {}): Promise<FakeAnthropic> {
  const requests: LoggedRequest[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !SECRET_HEADERS.has(k)));
      const logged: LoggedRequest = { method: req.method ?? '', url: req.url ?? '', headers, body };
      requests.push(logged);
      if (options.logFile) fs.appendFileSync(options.logFile, `${JSON.stringify(logged)}\n`);
      const pathname = (req.url ?? '').split('?')[0];
      if (req.method === 'POST' && pathname === '/v1/messages') {
        answerMessages(body as MessagesRequest, script(body as MessagesRequest), res);
      } else if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: roughTokens(body) }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `fake-anthropic: no ${req.method} ${pathname}` } }));
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, requests, close };
}
