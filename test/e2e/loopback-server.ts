// What every scripted model stand-in does around its own API (loopback-model.ts
// for fake-gemini.ts and fake-openai.ts, and fake-anthropic.ts): read a
// request's body, and listen on 127.0.0.1 at a random port with a close that
// drops open connections instead of waiting for the client to end them.
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

/** The body as JSON when it parses, else the text; undefined when empty. */
export async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function listenOnLoopback(server: http.Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // close() alone would wait for the connections still open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
