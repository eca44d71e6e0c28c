// A scripted stand-in for OpenAI's APIs on loopback, for the real Codex CLI
// (the Responses API, `POST …/responses`, streamed) and OpenCode (an
// OpenAI-compatible provider: `POST …/chat/completions`, streamed). The server is
// loopback-model.ts.
//
// The main conversation is a request that declares tools: its n-th model turn
// (n = the assistant turns already in its input) gets `script(n, request)`, one
// tool call or a text. Requests without tools (titles, summaries) get a short
// text. Shapes: the Responses stream as Codex 0.171 reads it (response.created,
// response.output_item.done with a `function_call` or `message` item,
// response.completed with usage), and the Chat Completions stream (deltas with
// `tool_calls`, a finish_reason, `data: [DONE]`).
import type * as http from 'node:http';
import { startLoopbackModel, writeJson, writeSse, type LoopbackModel, type ModelRequest } from './loopback-model';

/**
 * One model turn: a text, a function call (`namespace`: Codex groups an MCP server's tools under one,
 * `mcp__<server>`), or a freeform tool call (Responses `custom_tool_call`, Codex's `apply_patch`: raw text in).
 */
export type Turn = { text: string } | { call: { name: string; args: Record<string, unknown>; namespace?: string } } | { custom: { name: string; input: string } };

/** A Responses API request (the parts read here). */
export interface ResponsesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly instructions?: string;
  readonly tools?: readonly { readonly type?: string; readonly name?: string }[];
  readonly input?: readonly Record<string, unknown>[];
}

/** A Chat Completions request (the parts read here). */
export interface ChatRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly tools?: readonly { readonly type?: string; readonly function?: { readonly name?: string } }[];
  readonly messages?: readonly Record<string, unknown>[];
}

export interface FakeOpenAI extends LoopbackModel {
  /** Main-conversation requests (those that declare tools), in order, of either API. */
  readonly main: (ResponsesRequest | ChatRequest)[];
}

/** The tool names a request of either API declares. */
export function declaredTools(r: ResponsesRequest | ChatRequest): string[] {
  return (r.tools ?? []).map((t) => ('function' in t && t.function?.name) || ('name' in t && t.name) || '').filter((n) => n !== '');
}

/** What each tool call answered, in order: Responses `function_call_output` / `custom_tool_call_output`, Chat `tool` messages. */
export function toolOutputs(r: ResponsesRequest | ChatRequest): { callId: string; output: string }[] {
  if ('input' in r && Array.isArray(r.input)) {
    return r.input
      .filter((i) => i['type'] === 'function_call_output' || i['type'] === 'custom_tool_call_output')
      .map((i) => ({ callId: String(i['call_id']), output: typeof i['output'] === 'string' ? i['output'] : JSON.stringify(i['output']) }));
  }
  return ((r as ChatRequest).messages ?? [])
    .filter((m) => m['role'] === 'tool')
    .map((m) => ({ callId: String(m['tool_call_id']), output: typeof m['content'] === 'string' ? m['content'] : JSON.stringify(m['content']) }));
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_fake${(counter++).toString(36).padStart(4, '0')}`;

function answerResponses(request: ResponsesRequest, turn: Turn, res: http.ServerResponse): void {
  const id = nextId('resp');
  const item =
    'call' in turn
      ? { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: turn.call.name, ...(turn.call.namespace ? { namespace: turn.call.namespace } : {}), arguments: JSON.stringify(turn.call.args), status: 'completed' }
      : 'custom' in turn
        ? { type: 'custom_tool_call', id: nextId('ctc'), call_id: nextId('call'), name: turn.custom.name, input: turn.custom.input, status: 'completed' }
        : { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] };
  const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  writeSse(res, { type: 'response.created', response: { id, object: 'response', status: 'in_progress', model: request.model ?? 'fake' } }, 'response.created');
  writeSse(res, { type: 'response.output_item.added', output_index: 0, item }, 'response.output_item.added');
  writeSse(res, { type: 'response.output_item.done', output_index: 0, item }, 'response.output_item.done');
  writeSse(res, { type: 'response.completed', response: { id, object: 'response', status: 'completed', model: request.model ?? 'fake', output: [item], usage } }, 'response.completed');
  res.end();
}

function answerChat(request: ChatRequest, turn: Turn, res: http.ServerResponse): void {
  if ('custom' in turn) throw new Error('fake-openai: Chat Completions has no freeform tool calls; script a function call');
  const id = nextId('chatcmpl');
  const base = { id, object: 'chat.completion.chunk', created: 0, model: request.model ?? 'fake' };
  const delta = 'call' in turn ? { role: 'assistant', tool_calls: [{ index: 0, id: nextId('call'), type: 'function', function: { name: turn.call.name, arguments: JSON.stringify(turn.call.args) } }] } : { role: 'assistant', content: turn.text };
  const finish = 'call' in turn ? 'tool_calls' : 'stop';
  if (request.stream === false) {
    const message = 'call' in turn ? { role: 'assistant', content: null, tool_calls: delta.tool_calls } : { role: 'assistant', content: turn.text };
    writeJson(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  writeSse(res, { ...base, choices: [{ index: 0, delta, finish_reason: null }] });
  writeSse(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  writeSse(res, '[DONE]');
  res.end();
}

/** Assistant turns already in a request: Responses `function_call` / assistant `message` items, Chat assistant messages. */
function turnsSoFar(r: ResponsesRequest | ChatRequest): number {
  if ('input' in r && Array.isArray(r.input)) return r.input.filter((i) => i['type'] === 'function_call' || i['type'] === 'custom_tool_call' || (i['type'] === 'message' && i['role'] === 'assistant')).length;
  return ((r as ChatRequest).messages ?? []).filter((m) => m['role'] === 'assistant').length;
}

export async function startFakeOpenAI(script: (turn: number, request: ResponsesRequest | ChatRequest) => Turn): Promise<FakeOpenAI> {
  const main: (ResponsesRequest | ChatRequest)[] = [];
  const pick = (body: unknown): { request: ResponsesRequest & ChatRequest; turn: Turn } => {
    const request = (body && typeof body === 'object' ? body : {}) as ResponsesRequest & ChatRequest;
    if (declaredTools(request).length === 0) return { request, turn: { text: 'ok' } };
    main.push(request);
    return { request, turn: script(turnsSoFar(request), request) };
  };
  const server = await startLoopbackModel((req: ModelRequest, res) => {
    if (req.method === 'POST' && req.path.endsWith('/responses')) {
      const { request, turn } = pick(req.body);
      answerResponses(request, turn, res);
      return true;
    }
    if (req.method === 'POST' && req.path.endsWith('/chat/completions')) {
      const { request, turn } = pick(req.body);
      answerChat(request, turn, res);
      return true;
    }
    if (req.method === 'GET' && req.path.endsWith('/models')) {
      writeJson(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] });
      return true;
    }
    return false;
  });
  return { ...server, main };
}
