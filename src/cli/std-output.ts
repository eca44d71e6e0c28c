/**
 * The CLI's answers written to file descriptors 1 and 2 directly, for as long
 * as nothing in the process has made `process.stdout` / `process.stderr`.
 *
 * Node makes those streams on first use, and for a pipe (what every agent
 * client gives a hook) each is a socket: `net`, `pipe_wrap` and their stream
 * modules, about a millisecond of CPU for a process that lives 60-120 ms and
 * writes one line. A direct `writeSync` is what Node's stream does for a pipe on
 * Linux anyway (synchronous writes).
 *
 * Order is kept: once a stream exists (a library asked for it, such as the MCP
 * SDK or the language server's connection, or a write could not complete at
 * once), every later write goes through that stream, and before it exists
 * nothing can be queued in it. The getters are noted once, by the CLI's entry
 * (main.ts); a process whose entry is not the CLI (a test calling main()) never
 * writes directly.
 *
 * The note is shared through a global symbol: each command is its own bundle
 * with its own copy of this module, and all of them write through the copy
 * whose note the entry made.
 */
import * as fs from 'node:fs';

type StdName = 'stdout' | 'stderr';

interface Shared {
  /** Whether the stream has been made (or may have been: the entry did not note the getter). */
  readonly made: Record<StdName, boolean>;
}

const KEY = Symbol.for('stategate.std-output');

function shared(): Shared {
  const g = globalThis as { [KEY]?: Shared };
  return (g[KEY] ??= { made: { stdout: true, stderr: true } });
}

/** Wraps `process.stdout`'s and `process.stderr`'s getters so that their first use is noted; until then writes go to the descriptors. */
export function noteStdStreamUse(): void {
  for (const name of ['stdout', 'stderr'] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name);
    const get = own?.get;
    if (!own?.configurable || !get) continue;
    const { made } = shared();
    made[name] = false;
    Object.defineProperty(process, name, {
      ...own,
      get() {
        made[name] = true;
        return get.call(process);
      },
    });
  }
}

/** Whether `process[name]` has been made in this process (true when the entry never noted it). */
export function stdStreamMade(name: StdName): boolean {
  return shared().made[name];
}

/**
 * Writes `text` to standard output or error: straight to the descriptor while the
 * stream has not been made; through the stream from then on, or for what a
 * descriptor would not take at once (a non-blocking pipe that is full).
 */
export function writeStd(name: StdName, text: string): void {
  let rest: string | Buffer = text;
  if (!stdStreamMade(name)) {
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += fs.writeSync(name === 'stdout' ? 1 : 2, bytes, done);
      return;
    } catch (err) {
      // The reader is gone: nothing can be said to it (the stream would fail the same way, later).
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
      // Bytes, not text: `done` may fall inside a character.
      rest = bytes.subarray(done);
    }
  }
  process[name].write(rest);
}
