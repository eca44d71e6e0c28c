/**
 * Lazy access to the bash parser (web-tree-sitter + tree-sitter-bash, both
 * WASM). Nothing loads until a shell command is actually decided: most tool
 * calls never pay for it. `loadShellParser()` is the one async step; parsing
 * itself is synchronous.
 *
 * Measured (bench/shell-parsers.mjs, docs/enforcement.md): load + first parse
 * is ~25 ms, but V8's background tier-up of the WASM keeps a short-lived
 * process alive ~0.5-1 s at exit. The CLI's hook sets V8's `--liftoff-only`
 * before it loads this (src/cli/runner-factory.ts, as part of the shell bundle's
 * code-cache key), so the process exits at once; never in the extension host,
 * where it would slow every other extension's WASM.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node as TsNode, Parser as TsParser } from 'web-tree-sitter';

export type SyntaxNode = TsNode;

export interface ShellParser {
  /**
   * Parses `source` and hands the root to `use` (undefined if the parser gave
   * up). The tree is freed when `use` returns, so nested calls (a `bash -c`
   * body parsed while walking its parent) are safe.
   */
  withTree<T>(source: string, use: (root: SyntaxNode | undefined) => T): T;
}

interface ParserOptions {
  /** Where `tree-sitter.wasm` and `tree-sitter-bash.wasm` sit (e.g. next to a bundle). */
  readonly wasmDir?: string;
}

let options: ParserOptions = {};
let loading: Promise<ShellParser> | undefined;

/** Call before the first load; later calls have no effect on an already loaded parser. */
export function configureShellParser(opts: ParserOptions): void {
  options = { ...options, ...opts };
}

/**
 * First existing candidate: the configured dir, next to this file/bundle, the folder above it (the CLI's
 * bundles in dist/cli/ share the one copy in dist/, scripts/build.mjs), then node_modules.
 */
function wasmPath(file: string, pkgSubpath: string): string {
  const here = typeof __dirname === 'string' ? __dirname : undefined;
  const dirs = [options.wasmDir, here, here && join(here, '..')].filter((d): d is string => !!d);
  for (const dir of dirs) {
    const p = join(dir, file);
    if (existsSync(p)) return p;
  }
  return require.resolve(pkgSubpath);
}

async function load(): Promise<ShellParser> {
  const { Parser, Language } = await import('web-tree-sitter');
  const core = wasmPath('tree-sitter.wasm', 'web-tree-sitter/tree-sitter.wasm');
  await Parser.init({ locateFile: () => core } as unknown as Parameters<typeof Parser.init>[0]);
  // The bytes, not the path: given a path, web-tree-sitter reads it through an import() of fs/promises,
  // which no function from the shell bundle's code cache may run on Node 20 (scripts/build.mjs).
  const bash = await Language.load(readFileSync(wasmPath('tree-sitter-bash.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm')));
  const parser: TsParser = new Parser();
  parser.setLanguage(bash);
  return {
    withTree<T>(source: string, use: (root: SyntaxNode | undefined) => T): T {
      let tree: ReturnType<TsParser['parse']> = null;
      try {
        tree = parser.parse(source);
      } catch {
        tree = null;
      }
      try {
        return use(tree?.rootNode);
      } finally {
        tree?.delete();
      }
    },
  };
}

/** The shared parser, loaded on first use. A failed load is retried next time. */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
