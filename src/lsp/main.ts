/**
 * The language server's process (dist/lsp-server.js). The VS Code extension
 * starts this file itself, over node IPC (src/vscode/language/client.ts):
 * `createConnection` reads the transport from the command line (`--node-ipc`,
 * `--stdio`, `--socket=N`), as the client passes it. `stategate lsp` loads the
 * same bundle and serves it on stdin/stdout (src/cli/lsp-command.ts), so the
 * server ships once.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { serve } from './server.js';

/** The server on this process's stdin and stdout; the connection ends the process on `exit` or a closed stdin. */
export function serveStdio(): void {
  serve(createConnection(ProposedFeatures.all, process.stdin, process.stdout));
}

if (require.main === module) serve(createConnection(ProposedFeatures.all));
