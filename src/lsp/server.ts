/**
 * The stategate language server: diagnostics, completion, hover, definition,
 * references, rename, outline, code lenses and quick fixes for every format
 * stategate reads, each a thin adapter over the pure language service in
 * src/engine/language/. It only reads files: nothing here runs a workflow, a
 * handler or a command, so it is as safe in an untrusted workspace as a linter.
 * The connection is the caller's: node IPC from the VS Code extension (main.ts),
 * stdio from `stategate lsp` (src/cli/lsp-command.ts), in-memory streams in tests.
 */
import { FileChangeType, TextDocuments, TextDocumentSyncKind, DidChangeWatchedFilesNotification, type Connection, type InitializeParams, type InitializeResult } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActions } from './actions.js';
import { JSON_SYNTAX_NOTIFICATION, LENS_COMMANDS, PROCESS_ID_REQUEST, type ServerOptions } from './commands.js';
import { COMPLETION_TRIGGERS, completion } from './completion.js';
import type { ServerContext } from './context.js';
import { DiagnosticsPublisher } from './diagnostics.js';
import { AnalysedDocuments, documentPath } from './documents.js';
import { hover } from './hover.js';
import { lenses } from './lenses.js';
import { definition, references } from './navigation.js';
import { prepare, rename } from './rename.js';
import { SchemaDocs } from './schemas.js';
import { symbols } from './symbols.js';
import { WORKFLOW_GLOB, WorkspaceWorkflows } from './workspace-index.js';
import { VERSION } from '../cli/version.js';

/** The workspace folders the client named, as paths (file URIs only: the server reads the disk). */
function foldersOf(params: InitializeParams): string[] {
  const uris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  return uris.filter((u) => u.startsWith('file:')).map(documentPath);
}

/** Wires the server's handlers to `connection` and starts listening. */
export function serve(connection: Connection): void {
  const open = new TextDocuments(TextDocument);
  const docs = new AnalysedDocuments();
  let ctx: ServerContext | undefined;
  let watchFiles = false;
  const diagnostics = new DiagnosticsPublisher(connection, docs, open);
  /** Every handler runs after `initialize`, which the protocol guarantees; a request that outruns it gets nothing. */
  const withDoc = <T>(uri: string, answer: (c: ServerContext, doc: TextDocument) => T): T | null => {
    const doc = open.get(uri);
    return ctx && doc ? answer(ctx, doc) : null;
  };

  connection.onInitialize((params): InitializeResult => {
    const options = (params.initializationOptions ?? {}) as ServerOptions;
    const commands = new Set((options.commands ?? []).filter((c) => (LENS_COMMANDS as readonly string[]).includes(c)));
    ctx = { docs, open, workspace: new WorkspaceWorkflows(foldersOf(params)), schemas: new SchemaDocs(options.schemaDir), commands };
    diagnostics.editorReportsJsonSyntax = options.editorReportsJsonSyntax === true;
    watchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: COMPLETION_TRIGGERS },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: { label: 'stategate workflow' },
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: ['quickfix'] },
      },
      serverInfo: { name: 'stategate', version: VERSION },
    };
  });
  connection.onInitialized(() => {
    // The client watches the workflow files the cross-file features read, and tells the server of changes.
    if (watchFiles) void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: WORKFLOW_GLOB }] });
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const c of changes) if (c.uri.startsWith('file:')) ctx?.workspace.changed(documentPath(c.uri), c.type === FileChangeType.Deleted);
    diagnostics.scheduleAll();
  });
  connection.onRequest(PROCESS_ID_REQUEST, () => process.pid);
  connection.onNotification(JSON_SYNTAX_NOTIFICATION, (reports: unknown) => {
    diagnostics.editorReportsJsonSyntax = reports === true;
    diagnostics.recheckAll();
  });

  open.onDidOpen(({ document }) => diagnostics.update(document));
  open.onDidChangeContent(({ document }) => diagnostics.schedule(document));
  open.onDidSave(() => diagnostics.scheduleAll());
  open.onDidClose(({ document }) => diagnostics.close(document.uri));

  connection.onCompletion((p) => withDoc(p.textDocument.uri, (c, doc) => completion(c, doc, doc.offsetAt(p.position))));
  connection.onHover((p) => withDoc(p.textDocument.uri, (c, doc) => hover(c, doc, doc.offsetAt(p.position))));
  connection.onDefinition((p) => withDoc(p.textDocument.uri, (c, doc) => definition(c, doc, doc.offsetAt(p.position))));
  connection.onReferences((p) => withDoc(p.textDocument.uri, (c, doc) => references(c, doc, doc.offsetAt(p.position), p.context.includeDeclaration)));
  connection.onPrepareRename((p) => withDoc(p.textDocument.uri, (c, doc) => prepare(c, doc, doc.offsetAt(p.position))));
  connection.onRenameRequest((p) => withDoc(p.textDocument.uri, (c, doc) => rename(c, doc, doc.offsetAt(p.position), p.newName)));
  connection.onDocumentSymbol((p) => withDoc(p.textDocument.uri, (c, doc) => symbols(c, doc)));
  connection.onCodeLens((p) => withDoc(p.textDocument.uri, (c, doc) => lenses(c, doc)));
  connection.onCodeAction((p) => withDoc(p.textDocument.uri, (c, doc) => codeActions(c, doc, p.context.diagnostics)));
  connection.onShutdown(() => diagnostics.dispose());

  open.listen(connection);
  connection.listen();
}
