/**
 * Registers the authoring providers at activation with stand-ins that load
 * the language features (dist/extension-language.js, see scripts/build.mjs)
 * on first use: the first JSON document or YAML statechart open or opened (for
 * its Problems), or the first request of a provider. Activation loads none of it.
 */
import * as vscode from 'vscode';
import { WORKFLOW_SELECTOR } from '../contributions.js';
import type { LanguageFeatures } from './index.js';

/** Statecharts in YAML have the editor's `yaml` language; the JSON ones are JSON documents already. */
const STATECHART_YAML: vscode.DocumentFilter = { pattern: '**/*.statechart.{yaml,yml}' };
/** Flows in YAML likewise (`*.flow.json` are JSON documents). */
const FLOW_YAML: vscode.DocumentFilter = { pattern: '**/*.flow.{yaml,yml}' };
/** Plain YAML files are ours when their content says so (documents.ts asks before any provider answers). */
const PLAIN_YAML: vscode.DocumentFilter = { language: 'yaml' };
/** A root key that names one of our formats: cheap enough to ask of every YAML document opened. */
const FORMAT_ROOT = /^(?:statechart|start-at|initial)[ \t]*:/m;

type Language = typeof import('./index.js');

export function registerLanguageFeatures(context: vscode.ExtensionContext): void {
  let features: LanguageFeatures | undefined;
  const load = (): LanguageFeatures => {
    if (!features) {
      firstJson.dispose();
      features = (require('./index.js') as Language).startLanguageFeatures(context);
    }
    return features;
  };
  const isJson = (doc: vscode.TextDocument): boolean =>
    doc.languageId === 'json' || doc.languageId === 'jsonc' || /\.(statechart|flow)\.ya?ml$/i.test(doc.uri.path) || /\/\.stategate\/flow-tools\.yaml$/.test(doc.uri.path) || (doc.languageId === 'yaml' && FORMAT_ROOT.test(doc.getText()));
  // Loading checks every open workflow document and follows them from then on (diagnostics.ts).
  const firstJson = vscode.workspace.onDidOpenTextDocument((doc) => void (isJson(doc) && load()));
  // Documents open before activation: looked at right after activate() returns, not during it.
  setImmediate(() => void (!features && vscode.workspace.textDocuments.some(isJson) && load()));
  const sel: vscode.DocumentSelector = [...(WORKFLOW_SELECTOR as vscode.DocumentFilter[]), STATECHART_YAML, FLOW_YAML, PLAIN_YAML];
  context.subscriptions.push(
    firstJson,
    // `"` opens a string where a name goes; `:` and `,` start a value or the next array item; `{` a flow's `{{ var }}`.
    vscode.languages.registerCompletionItemProvider(sel, { provideCompletionItems: (doc, pos) => load().completion.provideCompletionItems(doc, pos) }, '"', ':', ',', '.', '{'),
    vscode.languages.registerHoverProvider(sel, { provideHover: (doc, pos) => load().hover.provideHover(doc, pos) }),
    vscode.languages.registerDefinitionProvider(sel, { provideDefinition: (doc, pos) => load().navigation.provideDefinition(doc, pos) }),
    vscode.languages.registerReferenceProvider(sel, { provideReferences: (doc, pos, ctx) => load().navigation.provideReferences(doc, pos, ctx) }),
    vscode.languages.registerRenameProvider(sel, {
      prepareRename: (doc, pos) => load().rename.prepareRename(doc, pos),
      provideRenameEdits: (doc, pos, name) => load().rename.provideRenameEdits(doc, pos, name),
    }),
    vscode.languages.registerDocumentSymbolProvider(sel, { provideDocumentSymbols: (doc) => load().symbols.provideDocumentSymbols(doc) }, { label: 'stategate workflow' }),
    vscode.languages.registerCodeLensProvider(sel, { provideCodeLenses: (doc) => load().lenses.provideCodeLenses(doc) }),
    vscode.languages.registerCodeActionsProvider(sel, { provideCodeActions: (doc, range, ctx) => load().actions.provideCodeActions(doc, range, ctx) }, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
  );
}
