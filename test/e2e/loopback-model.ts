// The part every scripted model stand-in shares (fake-gemini.ts, fake-openai.ts):
// an HTTP server on 127.0.0.1 (a random port) that reads each request's body,
// parses it as JSON when it is JSON, keeps every request (method, path, body;
// never the headers, which carry the client's key) and hands it to the
// stand-in's own `answer`, which writes the reply in its API's shape. A
// request `answer` does not take gets a 404 naming it, so a test that fails
// shows what else the client asked for.
import * as http from 'node:http';
import { listenOnLoopback, readBody } from './loopback-server.js';

export interface ModelRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  /** The query, `?`…, or ''. */
  readonly query: string;
  /** The JSON body, or the text when it is not JSON, or undefined when empty. */
  readonly body: unknown;
}

/** Writes the reply and returns true, or returns false for a request it does not serve. */
export type Answer = (request: ModelRequest, res: http.ServerResponse) => boolean;

export interface LoopbackModel {
  readonly url: string;
  readonly requests: ModelRequest[];
  close(): Promise<void>;
}

/** One server-sent event (`event:` omitted when the API names events only in the data). */
export function writeSse(res: http.ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

export function writeJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startLoopbackModel(answer: Answer): Promise<LoopbackModel> {
  const requests: ModelRequest[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '';
      const cut = url.indexOf('?');
      const request: ModelRequest = { method: req.method ?? '', path: cut < 0 ? url : url.slice(0, cut), query: cut < 0 ? '' : url.slice(cut), body: await readBody(req) };
      requests.push(request);
      if (!answer(request, res)) writeJson(res, 404, { error: { message: `loopback model: no ${request.method} ${request.path}` } });
    })().catch((err: unknown) => {
      if (!res.headersSent) writeJson(res, 500, { error: { message: String(err) } });
      else res.end();
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, requests, close };
}
