/**
 * The layers of docs/architecture.md, held by a test (the repository has no
 * linter): the engine imports nothing of the shells around it and never
 * 'vscode'; src/cli/, src/vscode/, src/protocol.ts and webview/ reach the engine only
 * through src/engine/index.ts (except the lazily loaded parts, which the
 * bundles split off by file); and no module of src/ takes part in an import
 * cycle. The import scanner and the cycle finder are checked on made-up
 * inputs first, so a scanner that saw nothing could not pass the real checks.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const repo = path.resolve(__dirname, '..', '..');

/**
 * Parts the bundles load on first use by requiring their own file (scripts/build.mjs). The
 * index re-exports only their types: a value re-export would pull them into every bundle
 * that imports the index. The CLI's validate and export commands import the checker by its
 * file (each command is a bundle of its own).
 */
const LAZY_ENGINE_PARTS = ['src/engine/check/check-file.ts', 'src/engine/shell/gate.ts', 'src/engine/shell/parser.ts'];

/**
 * Engine files the webview imports by their own file: the index reaches modules that need
 * node (the browser bundle cannot resolve them), and these import nothing at run time (held
 * below), so the panel shares them with the CLI instead of keeping a copy.
 */
const BROWSER_ENGINE_PARTS = ['src/engine/export/layout.ts'];

interface ImportSite {
  /** The specifier as written. */
  readonly spec: string;
  /** `static` for import/export ... from, `lazy` for require() and import(). */
  readonly how: 'static' | 'lazy';
}

/** Every module specifier a TypeScript file names, static or lazy. Comments are skipped. */
function importsOf(text: string): ImportSite[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: ImportSite[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*'([^']+)'|^\s*import\s*'([^']+)'/gm)) out.push({ spec: (m[1] ?? m[2])!, how: 'static' });
  for (const m of code.matchAll(/\b(?:require|import)\(\s*'([^']+)'\s*\)/g)) out.push({ spec: m[1]!, how: 'lazy' });
  return out;
}

/** The repository-relative .ts file a relative specifier names, or undefined for a package. */
function resolveSpec(fromFile: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const abs = path.join(path.dirname(fromFile), spec.replace(/\.js$/, '.ts'));
  return path.relative(repo, abs).split(path.sep).join('/');
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(path.relative(repo, p).split(path.sep).join('/'));
    }
  };
  walk(path.join(repo, dir));
  return out.sort();
}

/** Strongly connected components with more than one module, or a module importing itself. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const sourceFiles = [...tsFiles('src'), ...tsFiles('webview')];
const importsByFile = new Map(sourceFiles.map((f) => [f, importsOf(fs.readFileSync(path.join(repo, f), 'utf8'))]));

test('the scanner sees static, type-only, re-export and lazy imports, and skips comments', () => {
  const sites = importsOf(
    [
      "import type { A } from './a.js';",
      "import { B,\n  C } from '../b.js';",
      "export * from './c.js';",
      "import 'side-effect';",
      "// import { D } from './commented.js';",
      '/* import { E } from "./block.js"; */',
      "const f = require('./f.js') as typeof import('./g.js');",
    ].join('\n'),
  );
  assert.deepEqual(sites, [
    { spec: './a.js', how: 'static' },
    { spec: '../b.js', how: 'static' },
    { spec: './c.js', how: 'static' },
    { spec: 'side-effect', how: 'static' },
    { spec: './f.js', how: 'lazy' },
    { spec: './g.js', how: 'lazy' },
  ]);
});

test('the cycle finder finds a cycle of four and a self-import, and nothing in a tree', () => {
  const withCycles = new Map([
    ['progress', ['fork', 'run']],
    ['fork', ['invoke']],
    ['invoke', ['interrupts']],
    ['interrupts', ['progress']],
    ['run', []],
    ['self', ['self']],
  ]);
  assert.deepEqual(cycles(withCycles), [['fork', 'interrupts', 'invoke', 'progress'], ['self']]);
  assert.deepEqual(cycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), []);
});

test('the scan covers the engine, the shells and the webview', () => {
  const engine = sourceFiles.filter((f) => f.startsWith('src/engine/'));
  assert.ok(engine.length > 80, `only ${engine.length} engine files found`);
  assert.ok(sourceFiles.some((f) => f.startsWith('src/vscode/')) && sourceFiles.some((f) => f.startsWith('src/cli/')) && sourceFiles.some((f) => f.startsWith('webview/')));
  assert.ok([...importsByFile.values()].flat().length > 500);
});

test('the engine never imports vscode, the CLI, the extension or the webview', () => {
  const wrong: string[] = [];
  for (const [file, sites] of importsByFile) {
    if (!file.startsWith('src/engine/')) continue;
    for (const { spec } of sites) {
      const target = resolveSpec(file, spec);
      if (spec === 'vscode' || (target !== undefined && !target.startsWith('src/engine/'))) wrong.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the shells reach the engine only through src/engine/index.ts (lazy parts by their own file)', () => {
  const wrong: string[] = [];
  for (const [file, sites] of importsByFile) {
    if (file.startsWith('src/engine/')) continue;
    for (const { spec, how } of sites) {
      const target = resolveSpec(file, spec);
      if (target === undefined || !target.startsWith('src/engine/')) continue;
      if (target === 'src/engine/index.ts') continue;
      if (LAZY_ENGINE_PARTS.includes(target) && (how === 'lazy' || file.startsWith('src/cli/'))) continue;
      if (BROWSER_ENGINE_PARTS.includes(target) && file.startsWith('webview/')) continue;
      wrong.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the engine parts the webview imports by file import nothing at run time', () => {
  for (const part of BROWSER_ENGINE_PARTS) {
    const code = fs.readFileSync(path.join(repo, part), 'utf8');
    const runtime = code.split('\n').filter((line) => /^\s*(import|export)\b[^;]*\bfrom\s*'/.test(line) && !/^\s*(import|export) type\b/.test(line));
    assert.deepEqual(runtime, [], `${part} must import only types (the webview bundles it for the browser)`);
    assert.ok(!/\brequire\(|\bimport\(/.test(code.replace(/typeof import\(/g, '')), `${part} must not load modules lazily either`);
  }
});

test('no module of src/ or webview/ takes part in an import cycle', () => {
  const graph = new Map<string, string[]>();
  for (const [file, sites] of importsByFile) {
    const deps = sites.filter((s) => s.how === 'static').map((s) => resolveSpec(file, s.spec)).filter((t): t is string => t !== undefined && importsByFile.has(t));
    graph.set(file, deps);
  }
  assert.deepEqual(cycles(graph), []);
});
