/**
 * `stategate lsp [--stdio]`: the language server (src/lsp/server.ts) over
 * stdin/stdout, for any LSP client (Neovim, Helix, Emacs, ...); docs/editors.md
 * says how to start it. The VS Code extension runs the same server, over node IPC.
 */
import { parse } from './args.js';
import type { ExitCode, Output } from './io.js';
import type { Command } from './commands.js';

const USAGE = 'stategate lsp [--stdio]';

export const command: Command = {
  name: 'lsp',
  answersInJson: () => false,
  run(args: readonly string[], out: Output): Promise<ExitCode> {
    // `--stdio` is what LSP clients conventionally pass; stdio is the only transport, so it is also the default.
    const parsed = parse(args, { stdio: { type: 'boolean' } }, USAGE);
    if (parsed.values.help) {
      out.stdout(`usage: ${USAGE}\n\nThe stategate language server on stdin/stdout: diagnostics, completion, hover, definition,\nreferences, rename, outline and quick fixes for workflow, statechart and flow files.\nStart it from your editor's LSP client (docs/editors.md). It reads files and runs nothing.\n`);
      return Promise.resolve(0);
    }
    // stdout is the protocol's: a stray console.log (ours or a library's) goes to stderr instead.
    for (const k of ['log', 'info', 'debug'] as const) console[k] = console.error;
    // The server's own bundle (dist/lsp-server.js, which the build points this require at), not a second copy of it.
    (require('../lsp/main.js') as typeof import('../lsp/main.js')).serveStdio();
    return new Promise<ExitCode>(() => {});
  },
};
