/**
 * The hook's bundles with V8's code cache, made where the hook runs. A hook is a process per tool
 * call, and on Node 20 (no `module.enableCompileCache`) it compiles dist/cli/hook.js and every
 * function its decision runs, every time: about a tenth of a Read's CPU. So the first hook process
 * under a given runtime keeps V8's cache of the bundle after its decision (with every function that
 * decision compiled), and later processes start from it. docs/design/hook-code-cache.md says why it
 * is trusted; in short:
 *
 * - Beside the bundle (`hook.js.<key>.cache`), where only whoever may change the bundle may change
 *   it: the bundle's folder is one of the gate's protected places (util/paths/enforcement-files.ts),
 *   read-only in the sandbox. A folder the hook cannot write (a system install) means no cache.
 * - Keyed by the bundle's bytes, the runtime (Node and V8 versions, architecture) and every flag that
 *   may reach V8 (the process's execArgv, NODE_OPTIONS, the flags this process set through
 *   `setV8Flags`): V8's own check of the source is by its length alone, so a cache of another text of
 *   the same length would run that text's code. The file's header repeats the key and carries the
 *   payload's sha256, because V8 (a release build) does not verify a code cache's checksum: a file
 *   that does not match is ignored, and replaced after the decision.
 * - Written atomically (a temporary file renamed over the name) after the decision, only when no
 *   usable cache was read: a concurrent hook reads a whole file or none, and only the first call pays.
 *
 * Only for a bundle that runs no `import()`: on Node 20 a function V8 took from a code cache cannot
 * import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, even with `importModuleDynamically` or
 * vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER). hook.js has none; the shell bundle
 * (dist/cli/hook-shell.js, src/cli/runner-factory.ts) takes web-tree-sitter's CommonJS glue, whose one
 * import() is never run (scripts/build.mjs). test/unit/hook-bundle.test.ts holds both.
 *
 * This module is bundled twice (into dist/cli.js, which loads hook.js, and into hook.js, which loads
 * the shell bundle), so what one process shares (the flags it set, the caches to write) lives on
 * `globalThis` under a registered symbol.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import * as vm from 'node:vm';

/**
 * CommonJS's wrapper, as Node's own loader writes it: the cache is V8's for exactly this text
 * (test/unit/hook-bundle.test.ts holds that it is accepted).
 */
export const CJS_WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'] as const;

/**
 * How a bundle was loaded: with its code cache; without one (none for this key); with a file of
 * another key or a payload that does not match its header (`mismatched`, never handed to V8); or with
 * one V8 refused (`rejected`). Node's own compile cache, where there is one, is `node`.
 */
export type CacheUse = 'used' | 'none' | 'mismatched' | 'rejected' | 'node';

const MAGIC = 'stategate-v8-code-cache 1';
/** The header: magic, key and the payload's sha256, one line each. */
const HEADER_BYTES = MAGIC.length + 1 + 64 + 1 + 64 + 1;

interface PendingWrite {
  readonly cacheFile: string;
  readonly key: string;
  readonly script: vm.Script;
  /** The flags this process had set when the bundle compiled: a cache made under others would not be taken. */
  readonly flags: string;
}

interface Shared {
  /** The V8 flags this process set (setV8Flags), in order. */
  readonly flags: string[];
  readonly pending: PendingWrite[];
}

function shared(): Shared {
  const slot = Symbol.for('stategate.code-cache');
  const g = globalThis as { [slot]?: Shared };
  return (g[slot] ??= { flags: [], pending: [] });
}

/** `v8.setFlagsFromString`, noted so that the bundles compiled from now on are cached under a key that names the flag. */
export function setV8Flags(flag: string): void {
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString(flag);
  const { flags } = shared();
  if (!flags.includes(flag)) flags.push(flag);
}

/** The key of a bundle's cache in this process: its bytes, the runtime and the flags V8 may have been given. */
export function cacheKey(source: Buffer): string {
  const runtime = [process.version, process.versions.v8, process.arch, process.platform, JSON.stringify(process.execArgv), process.env.NODE_OPTIONS ?? '', shared().flags.join(' ')].join('\n');
  return createHash('sha256').update(source).update('\0').update(runtime).digest('hex');
}

/** Where a bundle's cache for `key` lives: beside it, named by the key. */
export function cacheFileOf(file: string, key: string): string {
  return `${file}.${key.slice(0, 16)}.cache`;
}

/** The payload of a cache file whose header names `key` and matches its payload, else undefined. */
function payloadOf(data: Buffer, key: string): Buffer | undefined {
  if (data.length <= HEADER_BYTES) return undefined;
  const [magic, fileKey, digest] = data.subarray(0, HEADER_BYTES - 1).toString('latin1').split('\n');
  if (magic !== MAGIC || fileKey !== key) return undefined;
  const payload = data.subarray(HEADER_BYTES);
  return createHash('sha256').update(payload).digest('hex') === digest ? payload : undefined;
}

/**
 * A bundle's text. esbuild writes ASCII (it escapes the rest), which decodes as Latin-1 byte for byte
 * into a one-byte string: about a third of decoding it as UTF-8, on every call.
 */
function textOf(source: Buffer): string {
  const { isAscii } = require('node:buffer') as { isAscii?: (b: Buffer) => boolean };
  return isAscii?.(source) ? source.toString('latin1') : source.toString('utf8');
}

/**
 * `require(file)` for a hook bundle, from its code cache when one for this process's key sits beside
 * it; otherwise compiled, and its cache written by `writeCodeCaches` once the decision is made. On a
 * Node with a compile cache of its own, a plain `require` (Node caches it, src/cli/main.ts).
 */
export function requireWithCodeCache(file: string): { exports: unknown; cache: CacheUse } {
  if ('enableCompileCache' in (require('node:module') as object)) return { exports: require(file) as unknown, cache: 'node' };
  const source = fs.readFileSync(file);
  const key = cacheKey(source);
  const cacheFile = cacheFileOf(file, key);
  let data: Buffer | undefined;
  try {
    data = fs.readFileSync(cacheFile);
  } catch {
    data = undefined;
  }
  const cachedData = data && payloadOf(data, key);
  const script = new vm.Script(CJS_WRAPPER[0] + textOf(source) + CJS_WRAPPER[1], { filename: file, ...(cachedData ? { cachedData } : {}) });
  const cache: CacheUse = !data ? 'none' : !cachedData ? 'mismatched' : script.cachedDataRejected ? 'rejected' : 'used';
  if (cache !== 'used') shared().pending.push({ cacheFile, key, script, flags: shared().flags.join(' ') });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, cache };
}

/**
 * Writes the caches of the bundles this process compiled without one, now that the decision has run
 * (so they hold its functions). A bundle compiled before this process set a flag is skipped: its cache
 * would carry the new flag and be refused by every process that does not set it (a Read's, for
 * hook.js compiled before a Bash call set Liftoff only); the next such process writes it. Never
 * throws: a folder that cannot be written (a system install, a full disk) means no cache.
 */
export function writeCodeCaches(): void {
  const { pending, flags } = shared();
  for (const w of pending.splice(0)) {
    if (w.flags !== flags.join(' ')) continue;
    const temp = `${w.cacheFile}.${process.pid}-${Math.random().toString(36).slice(2)}.partial.cache`;
    try {
      const payload = w.script.createCachedData();
      const header = `${MAGIC}\n${w.key}\n${createHash('sha256').update(payload).digest('hex')}\n`;
      fs.writeFileSync(temp, Buffer.concat([Buffer.from(header, 'latin1'), payload]), { flag: 'wx', mode: 0o644 });
      fs.renameSync(temp, w.cacheFile);
      pruneOthers(w.cacheFile);
    } catch {
      try {
        fs.rmSync(temp, { force: true });
      } catch {
        // Nothing was written, or the folder cannot be changed: either way there is no cache.
      }
    }
  }
}

/** How many caches of one bundle may sit beside it (one per runtime and flags that ran it): the newest are kept. */
const KEEP_PER_BUNDLE = 4;

/**
 * Removes the oldest caches of the bundle `cacheFile` is for beyond KEEP_PER_BUNDLE, so runtimes and
 * flags that no longer run it (a Node upgraded, a test's preload) do not pile up. Only after a write.
 */
function pruneOthers(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const bundle = `${path.basename(cacheFile).replace(/\.[0-9a-f]{16}\.cache$/, '')}.`;
  const isOwn = (f: string): boolean => f.startsWith(bundle) && /^[0-9a-f]{16}\.cache$/.test(f.slice(bundle.length));
  const caches = fs.readdirSync(dir).filter(isOwn).map((f) => {
    const file = path.join(dir, f);
    return { file, at: fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
  });
  for (const old of caches.sort((a, b) => b.at - a.at).slice(KEEP_PER_BUNDLE)) fs.rmSync(old.file, { force: true });
}
