/**
 * Diagnostics pushed for workflow files and registries: on open at once, and
 * after a change once typing pauses (150 ms), so fast typing costs one check,
 * not one per key. A save (or a workflow file changing on disk) rechecks every
 * open document: another file may change what an `invoke` resolves to.
 */
import type { Connection, Diagnostic as LspDiagnostic, DiagnosticRelatedInformation } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isJsonParserError, type Diagnostic } from '../engine/index.js';
import type { AnalysedDocuments } from './documents.js';
import { locationOf, toRange, type OpenDocuments } from './locations.js';

export const DEBOUNCE_MS = 150;

const SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

export class DiagnosticsPublisher {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Documents that were given diagnostics, so one that stops being ours (its `$schema` removed) is cleared. */
  private readonly shown = new Set<string>();
  /** The editor reports JSON syntax errors of json/jsonc documents itself (ServerOptions.editorReportsJsonSyntax). */
  editorReportsJsonSyntax = false;

  constructor(
    private readonly connection: Connection,
    private readonly docs: AnalysedDocuments,
    private readonly open: OpenDocuments,
  ) {}

  /** Checks and publishes now. */
  update(doc: TextDocument): void {
    const analysis = this.docs.diagnose(doc);
    if (!analysis) {
      if (this.shown.delete(doc.uri)) void this.connection.sendDiagnostics({ uri: doc.uri, diagnostics: [] });
      return;
    }
    this.shown.add(doc.uri);
    const theirs = this.editorReportsJsonSyntax && (doc.languageId === 'json' || doc.languageId === 'jsonc');
    const ours = theirs ? analysis.diagnostics.filter((d) => !isJsonParserError(d)) : analysis.diagnostics;
    void this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: ours.map((d) => this.toLsp(doc, d)) });
  }

  /** Checks once typing pauses. */
  schedule(doc: TextDocument): void {
    clearTimeout(this.timers.get(doc.uri));
    this.timers.set(doc.uri, setTimeout(() => {
      this.timers.delete(doc.uri);
      const current = this.open.get(doc.uri);
      if (current) this.update(current);
    }, DEBOUNCE_MS));
  }

  /** Every document this server checks, again now (the editor started or stopped reporting JSON syntax errors). */
  recheckAll(): void {
    for (const doc of this.open.all()) if (this.shown.has(doc.uri) || this.docs.isChecked(doc)) this.update(doc);
  }

  /** Every open document, once typing pauses (after a save, or a workflow changed on disk). */
  scheduleAll(): void {
    for (const doc of this.open.all()) if (this.shown.has(doc.uri) || this.docs.isChecked(doc)) this.schedule(doc);
  }

  close(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.docs.forget(uri);
    if (this.shown.delete(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
  }

  private toLsp(doc: TextDocument, d: Diagnostic): LspDiagnostic {
    const out: LspDiagnostic = { range: toRange(doc, d.loc), message: d.message, severity: SEVERITY[d.severity], source: 'stategate', code: d.code };
    if (d.related?.length) out.relatedInformation = d.related.map((r): DiagnosticRelatedInformation => ({ location: locationOf(doc, r, this.open), message: r.message }));
    return out;
  }
}
