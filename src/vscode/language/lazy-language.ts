/**
 * Starts the language client (dist/extension-lsp-client.js, see
 * scripts/build.mjs) with the first document of ours: a JSON document, a
 * statechart or flow in YAML, `.stategate/flow-tools.yaml`, or a YAML file
 * whose root names one of our formats, open at activation or opened (or
 * typed into) later. Activation loads none of it and starts no process; the
 * server decides by content which JSON documents are workflows.
 */
import * as vscode from 'vscode';
import type { DocumentSelector } from 'vscode-languageclient';
import { fileKind, kindGlob } from '../../engine/index.js';
import type { LanguageServerHandle } from './client.js';

/**
 * The documents the client shows the server. Every JSON document: a workflow may be named anything
 * and say so by its `$schema` or its content. Statecharts and flows by name, in any case as the
 * engine reads names (their editor language is `yaml` or `json`, but a person may have set another),
 * and every YAML document, whose content may name one of our formats. The server decides by name and
 * content which of them are ours.
 */
const SELECTOR: DocumentSelector = [
  { language: 'json' },
  { language: 'jsonc' },
  { pattern: kindGlob('statechart') },
  { pattern: kindGlob('flow') },
  { language: 'yaml' },
];
/** A root key that names one of our formats: cheap enough to ask of every YAML document opened. */
const FORMAT_ROOT = /^(?:statechart|start-at|initial)[ \t]*:/m;

type Client = typeof import('./client.js');

/** The language server, once started; undefined until the first document of ours. */
export interface LanguageFeatures {
  readonly server: () => LanguageServerHandle | undefined;
}

export function registerLanguageFeatures(context: vscode.ExtensionContext): LanguageFeatures {
  let server: LanguageServerHandle | undefined;
  const start = (): void => {
    if (server) return;
    triggers.forEach((t) => t.dispose());
    server = (require('./client.js') as Client).startLanguageClient(context, SELECTOR);
  };
  const ours = (doc: vscode.TextDocument): boolean =>
    doc.languageId === 'json' || doc.languageId === 'jsonc' || fileKind(doc.uri.path) === 'statechart' || fileKind(doc.uri.path) === 'flow' || /\/\.stategate\/flow-tools\.yaml$/.test(doc.uri.path) || (doc.languageId === 'yaml' && FORMAT_ROOT.test(doc.getText()));
  const triggers = [
    vscode.workspace.onDidOpenTextDocument((doc) => void (ours(doc) && start())),
    // A plain YAML file becomes ours when its root key is typed.
    vscode.workspace.onDidChangeTextDocument((e) => void (e.document.languageId === 'yaml' && ours(e.document) && start())),
  ];
  context.subscriptions.push(...triggers);
  // Documents open before activation: looked at right after activate() returns, not during it.
  setImmediate(() => void (!server && vscode.workspace.textDocuments.some(ours) && start()));
  return { server: () => server };
}
