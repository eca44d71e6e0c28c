/**
 * The language server's process as the VS Code extension starts it
 * (dist/lsp-server.js, over node IPC: src/vscode/language/client.ts).
 * `createConnection` reads the transport from the command line
 * (`--node-ipc`, `--stdio`, `--socket=N`), as the client passes it.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { serve } from './server.js';

serve(createConnection(ProposedFeatures.all));
