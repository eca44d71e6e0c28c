/**
 * The hook's bundle with V8's code cache. A hook is a process per tool call, and on Node 20
 * (no `module.enableCompileCache`) it compiles dist/cli/hook.js and every function its decision
 * runs, every time: about a tenth of a Read's time. The build runs one decision and keeps V8's
 * cache of the bundle as it then was (scripts/hook-code-cache.cjs): dist/cli/hook.js.cache.
 *
 * The cache sits beside the bundle, where only whoever may change the bundle may change it: the
 * bundle's folder is one of the gate's protected places (util/paths/enforcement-files.ts, read-only
 * in the sandbox). V8 refuses a cache made by another V8, with other flags or for another source,
 * and the bundle is then compiled as usual: the cache only ever saves time.
 *
 * Only for a bundle without `import()`: on Node 20 a function V8 took from a code cache cannot
 * import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, even with `importModuleDynamically`), which is
 * why the shell bundle (web-tree-sitter's glue imports `module` and `fs/promises`) loads as before.
 * test/unit/hook-bundle.test.ts holds that hook.js has none.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import * as vm from 'node:vm';

/**
 * CommonJS's wrapper, as Node's own loader writes it: the cache is V8's for exactly this text, so
 * scripts/hook-code-cache.cjs wraps the bundle the same way (test/unit/hook-bundle.test.ts holds that it is accepted).
 */
export const CJS_WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'] as const;

/** How a bundle was loaded: with its code cache, without one (none beside it), or with one V8 refused. */
export type CacheUse = 'used' | 'none' | 'rejected';

/** `require(file)` for a bundle whose code cache (`file.cache`) may sit beside it. */
export function requireWithCodeCache(file: string): { exports: unknown; cache: CacheUse } {
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(`${file}.cache`);
  } catch {
    return { exports: require(file) as unknown, cache: 'none' };
  }
  const script = new vm.Script(CJS_WRAPPER[0] + fs.readFileSync(file, 'utf8') + CJS_WRAPPER[1], { filename: file, cachedData });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, cache: script.cachedDataRejected ? 'rejected' : 'used' };
}
