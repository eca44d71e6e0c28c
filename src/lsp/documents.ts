/**
 * Which open documents the server checks (workflows, statecharts, flows, and the
 * registries that name them: `manifest.json` with `workflows`, `.stategate/flow-tools.yaml`),
 * and their analysis (parse + schema + rules) cached per document version, so
 * every request about the same keystroke shares one check.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { declaresWorkflowSchema, fileKind, isFlowToolRegistryFile, isPlainDataFile, isRegistryManifestDocument, isWorkflowPath, MANIFEST_FILE, sniffFormat, type CheckResult, type WorkflowFormat } from '../engine/index.js';
import { checkFile } from './check.js';

/** The path the engine sees: the file system path, or the URI's path for untitled and remote documents. */
export function documentPath(uri: string): string {
  if (uri.startsWith('file:')) return fileURLToPath(uri);
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

function isJson(doc: TextDocument): boolean {
  return doc.languageId === 'json' || doc.languageId === 'jsonc';
}

function pathOf(doc: TextDocument): string {
  return documentPath(doc.uri);
}

/** Named `manifest.json` (by the path's last part: on Windows a file system path has backslashes). */
function isManifestName(file: string): boolean {
  return path.basename(file) === MANIFEST_FILE;
}

export interface Analysis extends CheckResult {
  readonly text: string;
  readonly file: string;
  readonly version: number;
}

export class AnalysedDocuments {
  private readonly cache = new Map<string, Analysis>();
  private readonly sniffed = new Map<string, { version: number; format: WorkflowFormat | undefined }>();

  /** The analysis of a workflow, statechart or flow document at its current version; undefined for other documents (registries included). */
  analyze(doc: TextDocument): Analysis | undefined {
    if (!this.isWorkflow(doc) && !this.isStatechart(doc) && !this.isFlow(doc)) return undefined;
    const analysis = this.check(doc);
    return analysis.format === 'registry' ? undefined : analysis;
  }

  /** The analysis behind a document's diagnostics: a workflow's or a registry's; undefined for documents that are none of ours. */
  diagnose(doc: TextDocument): Analysis | undefined {
    return this.isChecked(doc) ? this.check(doc) : undefined;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
    this.sniffed.delete(uri);
  }

  /** Whether the document gets diagnostics from stategate. */
  isChecked(doc: TextDocument): boolean {
    return this.isWorkflow(doc) || this.isStatechart(doc) || this.isFlow(doc) || this.isRegistry(doc) || isFlowToolRegistryFile(pathOf(doc));
  }

  /**
   * The format a plain `.yaml`/`.yml`/`.json` document names by its content
   * (`statechart:`, `start-at` with tools, `initial` with `states`), per version;
   * undefined for typed names and for files that are none of ours.
   */
  private contentFormat(doc: TextDocument): WorkflowFormat | undefined {
    const file = pathOf(doc);
    if (!isPlainDataFile(file) || isManifestName(file)) return undefined;
    const hit = this.sniffed.get(doc.uri);
    if (hit?.version === doc.version) return hit.format;
    const format = sniffFormat(doc.getText(), file);
    if (this.sniffed.size > 256) this.sniffed.clear(); // a bound, as for the analyses
    this.sniffed.set(doc.uri, { version: doc.version, format });
    return format;
  }

  /** `*.workflow.json` (in any case: file-kinds.ts), `.stategate/workflows/*.json` (not the registry manifest), JSON naming the workflow schema, or a plain file with `initial` and `states`. */
  private isWorkflow(doc: TextDocument): boolean {
    if (this.contentFormat(doc) === 'statewright') return true;
    if (!isJson(doc)) return false;
    const file = pathOf(doc);
    if (isWorkflowPath(file) && !isManifestName(file)) return true;
    // `$schema` sits at the top of a file by convention; reading the head keeps this cheap on big files.
    return declaresWorkflowSchema(doc.getText({ start: { line: 0, character: 0 }, end: { line: 40, character: 0 } }));
  }

  private isStatechart(doc: TextDocument): boolean {
    return fileKind(pathOf(doc)) === 'statechart' || this.contentFormat(doc) === 'statechart';
  }

  private isFlow(doc: TextDocument): boolean {
    return fileKind(pathOf(doc)) === 'flow' || this.contentFormat(doc) === 'flow';
  }

  /** A `manifest.json` with a top-level `workflows` (other tools' manifest.json files are left alone). */
  private isRegistry(doc: TextDocument): boolean {
    const file = pathOf(doc);
    return isJson(doc) && isManifestName(file) && isRegistryManifestDocument(doc.getText(), file);
  }

  private check(doc: TextDocument): Analysis {
    const hit = this.cache.get(doc.uri);
    if (hit?.version === doc.version) return hit;
    const text = doc.getText();
    const file = pathOf(doc);
    let result: CheckResult;
    try {
      result = checkFile(text, file);
    } catch (e) {
      // The engine promises not to throw; if it ever does, say so in the diagnostics instead of failing every request.
      result = { format: 'statewright', diagnostics: [{ severity: 'error', code: 'internal-error', message: `stategate could not check this file: ${String(e)}`, loc: { pointer: '', start: 0, end: 0 } }] };
    }
    const analysis: Analysis = { ...result, text, file, version: doc.version };
    if (this.cache.size > 256) this.cache.clear(); // a bound, should a client never close what it opened
    this.cache.set(doc.uri, analysis);
    return analysis;
  }
}
