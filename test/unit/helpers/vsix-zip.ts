// A VSIX's zip entries by their exact names, and a VSIX written back from
// them, with the zip libraries vsce itself packages with (yauzl, yazl). vsce's
// own readZip lowercases every name, which a rewritten copy must not do: the
// VSIX manifest points at entries by their case (extension/LICENSE.txt).
import * as fs from 'node:fs';
import { buffer } from 'node:stream/consumers';

interface ZipEntry {
  fileName: string;
  /** The central directory's extra fields of this entry (ZIP64 sizes, timestamps, Unix ids…). */
  extraFields: { id: number; data: Buffer }[];
}
interface ZipReader {
  readEntry(): void;
  on(event: 'entry', listener: (entry: ZipEntry) => void): void;
  once(event: 'end', listener: () => void): void;
  once(event: 'error', listener: (err: Error) => void): void;
  openReadStream(entry: ZipEntry, callback: (err: Error | null, stream: NodeJS.ReadableStream) => void): void;
}
const yauzl = require('yauzl') as {
  fromBuffer(zip: Buffer, options: { lazyEntries: true }, callback: (err: Error | null, reader: ZipReader) => void): void;
};
const yazl = require('yazl') as {
  ZipFile: new () => {
    addBuffer(data: Buffer, name: string, options?: { forceZip64Format?: boolean }): void;
    end(): void;
    outputStream: NodeJS.ReadableStream;
  };
};

export interface VsixEntry {
  readonly data: Buffer;
  readonly extraFields: number;
}

/** Every entry of a zip, in its order, by its exact name (rejects what is no zip). */
export function readZipEntries(zip: Buffer): Promise<Map<string, VsixEntry>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, reader) => {
      if (err) return reject(err);
      const entries = new Map<string, VsixEntry>();
      reader.once('error', reject);
      reader.once('end', () => resolve(entries));
      reader.on('entry', (entry) => {
        reader.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          buffer(stream).then((data) => {
            entries.set(entry.fileName, { data, extraFields: entry.extraFields.length });
            reader.readEntry();
          }, reject);
        });
      });
      reader.readEntry();
    });
  });
}

/** Write `entries` as a zip to `file`; `zip64` gives every entry a ZIP64 extra field, as some zip tools do. */
export async function writeZip(entries: ReadonlyMap<string, Buffer>, file: string, opts: { zip64?: boolean } = {}): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name, { forceZip64Format: opts.zip64 ?? false });
  zip.end();
  fs.writeFileSync(file, await buffer(zip.outputStream));
}
