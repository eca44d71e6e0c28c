/**
 * Crash-safe file writes: a reader never sees a half-written file.
 * Write to a temp file beside the target, fsync it, rename over the target,
 * fsync the directory so the rename itself survives a power cut.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * `hexChars` random hex digits (Math.random, 32 bits per 8 digits: V8 seeds it
 * per process from the system's entropy), for temp-file names, run ids and
 * lock tokens. None is a secret, so none needs crypto randomness, and loading
 * `node:crypto` costs a hook process (one per tool call) a measurable part of
 * its start-up.
 */
export function uniqueHex(hexChars: number): string {
  let out = '';
  while (out.length < hexChars) out += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  return out.slice(0, hexChars);
}

/**
 * `durable: false` skips the fsyncs: a reader still never sees a half-written
 * file and a killed writer leaves the old one, but a power cut may lose the
 * write. For files derived from others that the next write rebuilds (the run
 * record, record/record-file.ts), where two fsyncs would cost more than the
 * rest of a hook's commit.
 */
export function writeFileAtomic(file: string, data: string, opts: { durable?: boolean } = {}): void {
  const durable = opts.durable !== false;
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${uniqueHex(8)}.tmp`);
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, data);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* nothing to clean */
    }
    throw err;
  }
  if (durable) fsyncDir(dir);
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Append lines and fsync. Callers hold the run's lock, so appends never interleave. */
export function appendLinesDurable(file: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const fd = fs.openSync(file, 'a');
  try {
    fs.writeSync(fd, lines.map((l) => `${l}\n`).join(''));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
