/**
 * Which open documents stategate checks (workflows, and the registry
 * manifests that name them for `invoke`), and their analysis (parse + schema
 * + rules) cached per document version, so every provider asking about the
 * same keystroke shares one check.
 */
import * as vscode from 'vscode';
import { isRegistryManifestDocument, MANIFEST_FILE, declaresWorkflowSchema, isFlowToolRegistryFile, isPlainDataFile, isWorkflowPath, sniffFormat, type CheckResult, type WorkflowFormat } from '../../engine/index.js';
import { checkFile } from './lazy-check.js';

export const STATECHART_FILE = /\.statechart\.(ya?ml|json)$/i;
export const FLOW_FILE = /\.flow\.(ya?ml|json)$/i;

function isJson(doc: vscode.TextDocument): boolean {
  return doc.languageId === 'json' || doc.languageId === 'jsonc';
}

/**
 * The format a plain `.yaml`/`.yml`/`.json` document names by its content
 * (`statechart:`, `start-at` with tools, `initial` with `states`), per
 * version; undefined for typed names and for files that are none of ours,
 * which get nothing from stategate (no Problems, no lenses).
 */
const sniffed = new Map<string, { version: number; format: WorkflowFormat | undefined }>();
export function contentFormat(doc: vscode.TextDocument): WorkflowFormat | undefined {
  if (!isPlainDataFile(doc.uri.path) || doc.uri.path.endsWith(`/${MANIFEST_FILE}`)) return undefined;
  const key = doc.uri.toString();
  const hit = sniffed.get(key);
  if (hit?.version === doc.version) return hit.format;
  const format = sniffFormat(doc.getText(), doc.uri.path);
  if (sniffed.size > 256) sniffed.clear(); // closed documents are never told about: a bound instead
  sniffed.set(key, { version: doc.version, format });
  return format;
}

/** `*.workflow.json`, `.stategate/workflows/*.json` (not the registry manifest), JSON naming the workflow schema, or a plain file with `initial` and `states`. */
export function isWorkflowDocument(doc: vscode.TextDocument): boolean {
  if (contentFormat(doc) === 'statewright') return true;
  if (!isJson(doc)) return false;
  if (isWorkflowPath(doc.uri.path) && !doc.uri.path.endsWith(`/${MANIFEST_FILE}`)) return true;
  // `$schema` sits at the top of a file by convention; reading the head keeps this cheap on big files.
  return declaresWorkflowSchema(doc.getText(new vscode.Range(0, 0, 40, 0)));
}

/** `*.statechart.yaml|yml|json`, or a plain YAML/JSON file with a `statechart:` root. */
export function isStatechartDocument(doc: vscode.TextDocument): boolean {
  return STATECHART_FILE.test(doc.uri.path) || contentFormat(doc) === 'statechart';
}

/** `*.flow.yaml|yml|json`, or a plain YAML/JSON file with `start-at` and states with `tool`. */
export function isFlowDocument(doc: vscode.TextDocument): boolean {
  return FLOW_FILE.test(doc.uri.path) || contentFormat(doc) === 'flow';
}

/** A `manifest.json` with a top-level `workflows` (other tools' manifest.json files are left alone). */
export function isRegistryDocument(doc: vscode.TextDocument): boolean {
  return isJson(doc) && doc.uri.path.endsWith(`/${MANIFEST_FILE}`) && isRegistryManifestDocument(doc.getText(), doc.uri.path);
}

/** `.stategate/flow-tools.yaml`, the custom flow tools (checked as a registry: Problems, no other feature). */
export function isFlowToolsDocument(doc: vscode.TextDocument): boolean {
  return isFlowToolRegistryFile(documentPath(doc));
}

/** Whether stategate shows Problems for the document. */
export function isCheckedDocument(doc: vscode.TextDocument): boolean {
  return isWorkflowDocument(doc) || isStatechartDocument(doc) || isFlowDocument(doc) || isRegistryDocument(doc) || isFlowToolsDocument(doc);
}

export interface Analysis extends CheckResult {
  readonly text: string;
  readonly file: string;
  readonly version: number;
}

/** The path the engine sees: the file system path, or the URI's path for untitled and remote documents. */
export function documentPath(doc: vscode.TextDocument): string {
  return doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.path;
}

export class WorkflowDocuments {
  private readonly cache = new Map<string, Analysis>();

  /** The analysis of a workflow, statechart or flow document at its current version; undefined for other documents (manifests included). */
  analyze(doc: vscode.TextDocument): Analysis | undefined {
    if (!isWorkflowDocument(doc) && !isStatechartDocument(doc) && !isFlowDocument(doc)) return undefined;
    const analysis = this.check(doc);
    return analysis.format === 'registry' ? undefined : analysis;
  }

  /** The analysis behind a document's Problems: a workflow's or a registry manifest's. */
  diagnose(doc: vscode.TextDocument): Analysis | undefined {
    return isCheckedDocument(doc) ? this.check(doc) : undefined;
  }

  forget(doc: vscode.TextDocument): void {
    this.cache.delete(doc.uri.toString());
  }

  private check(doc: vscode.TextDocument): Analysis {
    const key = doc.uri.toString();
    const hit = this.cache.get(key);
    if (hit?.version === doc.version) return hit;
    const text = doc.getText();
    const file = documentPath(doc);
    let result: CheckResult;
    try {
      result = checkFile(text, file);
    } catch (e) {
      // The engine promises not to throw; if it ever does, say so in Problems instead of breaking every provider.
      result = { format: 'statewright', diagnostics: [{ severity: 'error', code: 'internal-error', message: `stategate could not check this file: ${String(e)}`, loc: { pointer: '', start: 0, end: 0 } }] };
    }
    const analysis: Analysis = { ...result, text, file, version: doc.version };
    this.cache.set(key, analysis);
    return analysis;
  }
}
