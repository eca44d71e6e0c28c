/**
 * Engine offsets -> VS Code ranges and locations, in an open document or in
 * another file (for definitions and related information that point elsewhere).
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { type SourceLoc, LineIndex } from '../../engine/index.js';
import { documentPath } from './documents.js';

export function toRange(doc: vscode.TextDocument, loc: Pick<SourceLoc, 'start' | 'end'>): vscode.Range {
  return new vscode.Range(doc.positionAt(loc.start), doc.positionAt(loc.end));
}

/**
 * A place given as offsets, in `doc` (no `file`) or in another file: an open
 * document converts its own offsets; a closed file is read from disk.
 */
export function locationOf(doc: vscode.TextDocument, target: { readonly file?: string; readonly loc: Pick<SourceLoc, 'start' | 'end'> }): vscode.Location {
  const file = target.file;
  if (file === undefined || file === documentPath(doc)) return new vscode.Location(doc.uri, toRange(doc, target.loc));
  const open = vscode.workspace.textDocuments.find((d) => documentPath(d) === file);
  if (open) return new vscode.Location(open.uri, toRange(open, target.loc));
  let index: LineIndex | undefined;
  try {
    index = new LineIndex(fs.readFileSync(file, 'utf8'));
  } catch {
    index = undefined; // gone since it was resolved: point at its start
  }
  const pos = (o: number): vscode.Position => {
    const p = index?.positionAt(o) ?? { line: 0, character: 0 };
    return new vscode.Position(p.line, p.character);
  };
  return new vscode.Location(vscode.Uri.file(file), new vscode.Range(pos(target.loc.start), pos(target.loc.end)));
}
