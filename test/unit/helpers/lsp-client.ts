/**
 * A JSON-RPC client of the language server (vscode-languageserver-protocol's
 * connection) over a pair of streams: in memory to the server in this process
 * (lsp-protocol.test.ts), or a spawned `stategate lsp --stdio` (lsp-process.test.ts).
 * Diagnostics are collected per URI, and `diagnosticsOf` waits for the next ones.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';

export interface LspClient {
  readonly connection: ProtocolConnection;
  /** The URI of every `publishDiagnostics` so far, in order. */
  readonly published: string[];
  /** Resolves with the next diagnostics published for `uri` (ask before the message that causes them). */
  diagnosticsOf(uri: string): Promise<Diagnostic[]>;
  /** Writes `text` to `dir/file` (the server reads the disk for what crosses files), opens it, and returns its URI and diagnostics. */
  open(dir: string, file: string, text: string, languageId: string): Promise<{ uri: string; diagnostics: Diagnostic[] }>;
}

export function lspClient(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): LspClient {
  const connection = createProtocolConnection(new StreamMessageReader(input), new StreamMessageWriter(output));
  const waiting = new Map<string, ((d: Diagnostic[]) => void)[]>();
  const published: string[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p.uri);
    const queue = waiting.get(p.uri) ?? [];
    waiting.delete(p.uri);
    queue.forEach((resolve) => resolve(p.diagnostics));
  });
  connection.listen();
  // A server that never publishes fails the test in 20 s rather than hanging it.
  const diagnosticsOf = (uri: string): Promise<Diagnostic[]> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} in 20 s`)), 20_000).unref();
      waiting.set(uri, [...(waiting.get(uri) ?? []), (d) => (clearTimeout(timer), resolve(d))]);
    });
  return {
    connection,
    published,
    diagnosticsOf,
    async open(dir, file, text, languageId) {
      const full = path.join(dir, file);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, text);
      const uri = pathToFileURL(full).href;
      const published = diagnosticsOf(uri);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
      return { uri, diagnostics: await published };
    },
  };
}

/** `initialize` with `dir` as the workspace folder, then `initialized`; returns the server's answer. */
export async function initialize(client: LspClient, dir: string, initializationOptions: unknown = {}): Promise<Awaited<ReturnType<ProtocolConnection['sendRequest']>>> {
  const result = await client.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
    capabilities: {},
    initializationOptions,
  });
  await client.connection.sendNotification(InitializedNotification.type, {});
  return result;
}
