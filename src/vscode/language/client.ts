/**
 * The language client: starts the stategate language server (dist/lsp-server.js,
 * src/lsp/) in a process of its own over node IPC, and lets vscode-languageclient
 * register the editor's providers for it. Everything the authoring features
 * compute (checks included) happens in that process, never on the extension
 * host's thread. A bundle of its own (dist/extension-lsp-client.js), loaded by
 * lazy-language.ts with the first document of ours.
 */
import * as vscode from 'vscode';
import { LanguageClient, RevealOutputChannelOn, TransportKind, type DocumentSelector, type LanguageClientOptions, type Middleware, type ServerOptions } from 'vscode-languageclient/node';
import { JSON_SYNTAX_NOTIFICATION, LENS_COMMANDS, PROCESS_ID_REQUEST, RUN_FLOW_COMMAND, SHOW_PANEL_COMMAND, SHOW_REFERENCES_COMMAND, START_RUN_COMMAND, type ServerOptions as InitializationOptions } from '../../lsp/commands.js';

export interface LanguageServerHandle {
  /** The server's process id, once it answers (undefined if it never started). */
  processId(): Promise<number | undefined>;
}

export function startLanguageClient(context: vscode.ExtensionContext, documentSelector: DocumentSelector): LanguageServerHandle {
  const module = context.asAbsolutePath('dist/lsp-server.js');
  const server: ServerOptions = { run: { module, transport: TransportKind.ipc }, debug: { module, transport: TransportKind.ipc } };
  const initializationOptions: InitializationOptions = { commands: [...LENS_COMMANDS], schemaDir: context.asAbsolutePath('schemas'), editorReportsJsonSyntax: jsonServiceValidates() };
  let client: LanguageClient | undefined;
  const options: LanguageClientOptions = {
    documentSelector,
    initializationOptions,
    diagnosticCollectionName: 'stategate',
    // A person editing a workflow should not have an output channel thrown at them; the Output view has it.
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: lensArguments(() => client),
  };
  client = new LanguageClient('stategate', 'stategate language server', server, options);
  const started = client.start();
  context.subscriptions.push({ dispose: () => void client?.stop() });
  // VS Code's JSON service reports a JSON document's syntax errors while json.validate.enable is on: the server leaves them to it.
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('json.validate.enable')) void started.then(() => client?.sendNotification(JSON_SYNTAX_NOTIFICATION, jsonServiceValidates()));
    }),
  );
  return {
    processId: async () => {
      await started;
      return client?.sendRequest<number>(PROCESS_ID_REQUEST);
    },
  };
}

/** Whether VS Code's JSON language service checks JSON documents (and so reports their syntax errors). */
function jsonServiceValidates(): boolean {
  return vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true);
}

/**
 * A lens's command arguments arrive as JSON (URIs as strings, LSP positions and
 * locations): turned into the editor's types here, which the commands take. The
 * diagram lens is dropped while no `stategate.showPanel` is registered (the panel
 * belongs to another part of the extension, which may register it later).
 */
function lensArguments(client: () => LanguageClient | undefined): Middleware {
  return {
    async provideCodeLenses(doc, token, next) {
      const lenses = await next(doc, token);
      const c = client();
      if (!lenses || !c) return lenses;
      const p2c = c.protocol2CodeConverter;
      const panel = (await vscode.commands.getCommands(true)).includes(SHOW_PANEL_COMMAND);
      const out: vscode.CodeLens[] = [];
      for (const lens of lenses) {
        const cmd = lens.command;
        if (!cmd) continue;
        if (cmd.command === SHOW_PANEL_COMMAND && !panel) continue;
        const args = cmd.arguments ?? [];
        if ([START_RUN_COMMAND, RUN_FLOW_COMMAND, SHOW_PANEL_COMMAND].includes(cmd.command)) cmd.arguments = [p2c.asUri(String(args[0]))];
        if (cmd.command === SHOW_REFERENCES_COMMAND) cmd.arguments = [p2c.asUri(String(args[0])), p2c.asPosition(args[1]), (args[2] as unknown[]).map((l) => p2c.asLocation(l as never))];
        out.push(lens);
      }
      return out;
    },
  };
}
