/**
 * Engine offsets -> LSP ranges and locations, in an open document or in another
 * file (definitions and related information that point elsewhere).
 */
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Location, Range } from 'vscode-languageserver';
import type { SourceLoc } from '../engine/index.js';
import { documentPath } from './documents.js';

type Span = Pick<SourceLoc, 'start' | 'end'>;

export function toRange(doc: TextDocument, loc: Span): Range {
  return { start: doc.positionAt(loc.start), end: doc.positionAt(loc.end) };
}

/** The open documents, by URI (TextDocuments.get), and all of them (TextDocuments.all). */
export interface OpenDocuments {
  get(uri: string): TextDocument | undefined;
  all(): TextDocument[];
}

/**
 * A place given as offsets, in `doc` (no `file`) or in another file: an open
 * document converts its own offsets; a closed file is read from disk.
 */
export function locationOf(doc: TextDocument, target: { readonly file?: string; readonly loc: Span }, open: OpenDocuments): Location {
  const file = target.file;
  if (file === undefined || file === documentPath(doc.uri)) return { uri: doc.uri, range: toRange(doc, target.loc) };
  const other = open.all().find((d) => documentPath(d.uri) === file);
  if (other) return { uri: other.uri, range: toRange(other, target.loc) };
  const uri = pathToFileURL(file).href;
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // gone since it was resolved: point at its start
  }
  return { uri, range: toRange(TextDocument.create(uri, '', 0, text), text ? target.loc : { start: 0, end: 0 }) };
}
