// Bundles the extension (vscode external), the CLI and the webview with esbuild.
// The CLI is what the agent hook runs once per tool call, so it must start
// fast: dist/cli.js is a tiny dispatcher and each command is its own minified
// bundle (dist/cli/<name>.js), so a hook never loads the MCP SDK.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import nodeModule from 'node:module';

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
  // jsonc-parser's UMD build hides its requires from bundlers; its ESM build bundles.
  mainFields: ['module', 'main'],
};

// web-tree-sitter is ESM and asks for import.meta.url, which a CommonJS bundle lacks: give it this file's URL.
const importMetaUrl = { banner: { js: "var __importMetaUrl = require('url').pathToFileURL(__filename).href;" }, define: { 'import.meta.url': '__importMetaUrl' } };
const cliCommon = { minify: true, banner: importMetaUrl.banner, define: { ...importMetaUrl.define, 'process.env.STATEGATE_BUNDLED': '"1"' } };
// The shell bundle takes web-tree-sitter's CommonJS build (its package's `require` export) rather than
// the ES module esbuild picks for an `import`: the ES module's glue runs `import("module")` when it loads,
// which starts Node's ESM loader in every shell call, and on Node 20 no function taken from V8's code
// cache may run an import() (src/cli/code-cache.ts). The CommonJS glue requires its built-ins; its one
// import() (fs/promises, in Language.load given a path) is never run: src/engine/shell/parser.ts hands
// Language.load the grammar's bytes.
const treeSitterForRequire = {
  name: 'tree-sitter-for-require',
  setup(b) {
    b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: nodeModule.createRequire(import.meta.url).resolve('web-tree-sitter') }));
  },
};
// The hook (a process per tool call) leaves out of its bundle what deciding a Read or an Edit never
// runs: the workflow checker (ajv's compiled schema, the semantic rules), which only starting a run
// needs, the shell analysis with its parser's JS, which only a shell call needs, picomatch, which
// only matching a path against a glob needs (interrupts, path rules, enforcement files), the `yaml`
// package, which only a YAML workflow needs (formats/yaml-tree.ts), the format loaders, which only a
// definition without a compiled file needs (formats/loaders.ts, store/compiled-definitions.ts), ajv, which only a
// stage's completion payload needs, the statechart interpreter with expr and jsep, which only a
// statechart run needs (statechart/lazy.ts), and the PostgreSQL store's code and its client, which
// only a shared store needs (store/store-choice.ts, store/postgres/pg-session.ts). The engine requires
// them lazily (runner.ts, runner-factory.ts, interrupts.ts, ...); here those requires point at bundles of
// their own beside hook.js. Such a bundle has its own copy of the modules it shares with hook.js: no
// `instanceof` across them (store/store-error.ts). test/unit/hook-bundle.test.ts holds what stays out.
// The shell bundle also exports configureShellParser, so the parser the factory configures is the one
// the analysis uses.
const lazyHookParts = {
  name: 'lazy-hook-parts',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/check\/check-file\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]runs[\\/]runner\.ts$/.test(a.importer) ? { path: './hook-check.js', external: true } : undefined));
    b.onResolve({ filter: /^\.\.\/engine\/shell\/(gate|parser)\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]cli[\\/]runner-factory\.ts$/.test(a.importer) ? { path: './hook-shell.js', external: true } : undefined));
    // Every engine file requires picomatch where it matches (interrupts, path globs, enforcement files, shell write paths).
    b.onResolve({ filter: /^picomatch$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]/.test(a.importer) ? { path: './hook-picomatch.js', external: true } : undefined));
    b.onResolve({ filter: /^\.\/yaml-package\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]formats[\\/]yaml-tree\.ts$/.test(a.importer) ? { path: './hook-yaml.js', external: true } : undefined));
    b.onResolve({ filter: /^\.\/lazy-parts\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]statechart[\\/]lazy\.ts$/.test(a.importer) ? { path: './hook-statechart.js', external: true } : undefined));
    b.onResolve({ filter: /^\.\/postgres\/pg-storage\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]store[\\/]store-choice\.ts$/.test(a.importer) ? { path: './hook-pg-store.js', external: true } : undefined));
    b.onResolve({ filter: /^postgres$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]store[\\/]postgres[\\/]pg-session\.ts$/.test(a.importer) ? { path: './hook-postgres.js', external: true } : undefined));
    // The format loaders (jsonc, the YAML reader, every format's loader): only a definition that has no compiled file (store/compiled-definitions.ts), a start or a reload needs them.
    b.onResolve({ filter: /^\.\.\/formats\/loaders\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]/.test(a.importer) ? { path: './hook-formats.js', external: true } : undefined));
    b.onResolve({ filter: /^\.\/payload-ajv\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]engine[\\/]pipeline[\\/]payload-check\.ts$/.test(a.importer) ? { path: './hook-ajv.js', external: true } : undefined));
  },
};
// Node's built-in modules, each wrapped once. esbuild turns every `import * as fs from 'node:fs'` of an
// external module into `__toESM(require('node:fs'))`, which copies each property of the module as a getter
// (fs has about 100) at that import site: hook.js has 46 such sites, a few ms of every hook call's start-up.
// Here an import of `node:x` is of a module that re-exports it (`export * from 'node:x'`), bundled once:
// one copy per built-in. (`require('node:x')` calls are left as they are.)
const builtinsOnce = {
  name: 'builtins-once',
  setup(b) {
    b.onResolve({ filter: /^node:[\w/]+$/ }, (a) => {
      if (a.namespace === 'builtin-once') return { path: a.path, external: true };
      return a.kind === 'import-statement' ? { path: a.path, namespace: 'builtin-once' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin-once' }, (a) => ({ contents: `export * from ${JSON.stringify(a.path)};\n`, loader: 'js' }));
  },
};
// elkjs (1.5 MB) ships once, as dist/elk.js (its own UMD build, minified): the CLI's SVG export and the
// extension host's require it (lazyExtensionRequires below), and the panel's webview loads it as a script of its own (window.ELK).
const elkOnce = {
  name: 'elk-once',
  setup(b) {
    b.onResolve({ filter: /^elkjs\/lib\/elk\.bundled\.js$/ }, (a) => {
      if (a.kind !== 'require-call') return undefined;
      return /src[\\/]cli[\\/]export-command\.ts$/.test(a.importer) ? { path: '../elk.js', external: true } : undefined;
    });
  },
};
// The engine, once: dist/engine.js is src/engine/index.ts (the one surface the shells may import), and
// the CLI's commands (all but the hook) and the extension's lazily loaded bundles require it instead of
// each carrying a copy. The hook keeps its own, trimmed to what deciding a call runs (a process per tool
// call: it must not compile the rest), and so does the activation bundle (it uses a few hundred bytes).
const sharedEngine = (file) => ({
  name: 'shared-engine',
  setup(b) {
    b.onResolve({ filter: /(^|\/)engine\/index\.js$/ }, (a) => (/src[\\/](cli|vscode|lsp)[\\/]/.test(a.importer) ? { path: file, external: true } : undefined));
  },
});
// What the engine itself requires lazily, pointed at the hook's bundles of it, which ship anyway.
const ENGINE_LAZY_PARTS = [
  [/src[\\/]engine[\\/]runs[\\/]runner\.ts$/, '../check/check-file.js', './cli/hook-check.js'],
  [/src[\\/]engine[\\/]flow[\\/]load\.ts$/, '../check/check-file.js', './cli/hook-check.js'],
  // Every engine file that matches globs requires picomatch where it matches (interrupts, path rules, enforcement files, shell write paths).
  [/src[\\/]engine[\\/]/, 'picomatch', './cli/hook-picomatch.js'],
  [/src[\\/]engine[\\/]formats[\\/]yaml-tree\.ts$/, './yaml-package.js', './cli/hook-yaml.js'],
  [/src[\\/]engine[\\/]pipeline[\\/]payload-check\.ts$/, './payload-ajv.js', './cli/hook-ajv.js'],
  [/src[\\/]engine[\\/]store[\\/]postgres[\\/]pg-session\.ts$/, 'postgres', './cli/hook-postgres.js'],
  // The MCP SDK's client, for MCP handlers of statecharts only (src/engine/handlers/mcp-call.ts).
  [/src[\\/]engine[\\/]handlers[\\/]mcp-call\.ts$/, './mcp-client.js', './cli/mcp-client.js'],
];
const engineLazyParts = {
  name: 'engine-lazy-parts',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => {
      if (a.kind !== 'require-call') return undefined;
      const hit = ENGINE_LAZY_PARTS.find(([importer, spec]) => spec === a.path && importer.test(a.importer));
      return hit ? { path: hit[2], external: true } : undefined;
    });
  },
};
// The CLI's commands get the shell analysis and the checker the way the extension does: the hook's bundles of them.
const cliShellParts = {
  name: 'cli-shell-parts',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/engine\/shell\/(gate|parser)\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]cli[\\/]runner-factory\.ts$/.test(a.importer) ? { path: './hook-shell.js', external: true } : undefined));
    b.onResolve({ filter: /^\.\.\/engine\/check\/check-file\.js$/ }, (a) => (/src[\\/](cli|lsp)[\\/]/.test(a.importer) ? { path: './hook-check.js', external: true } : undefined));
  },
};
// The language server as the VS Code extension starts it (node IPC; src/lsp/main.ts): the engine from
// engine.js and the checker from the hook's bundle, like the CLI's commands (`stategate lsp` is
// dist/cli/lsp.js, the same server on stdio).
// `stategate lsp` (dist/cli/lsp.js) requires the server's bundle rather than carrying a copy of it (~200 KB of the VSIX).
const lspServerOnce = {
  name: 'lsp-server-once',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/lsp\/main\.js$/ }, (a) => (a.kind === 'require-call' && /src[\\/]cli[\\/]lsp-command\.ts$/.test(a.importer) ? { path: '../lsp-server.js', external: true } : undefined));
  },
};
const lspCheck = {
  name: 'lsp-check',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/engine\/check\/check-file\.js$/ }, (a) => (/src[\\/]lsp[\\/]/.test(a.importer) ? { path: './cli/hook-check.js', external: true } : undefined));
  },
};
const entries = [
  { ...cliCommon, entryPoints: ['src/lsp/main.ts'], outfile: 'dist/lsp-server.js', plugins: [sharedEngine('./engine.js'), lspCheck] },
  // The dispatcher every hook call runs first: its built-ins wrapped once too (builtinsOnce).
  { ...cliCommon, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [builtinsOnce] },
  { ...cliCommon, entryPoints: ['src/engine/index.ts'], outfile: 'dist/engine.js', plugins: [engineLazyParts] },
  ...['validate', 'run', 'mcp', 'lsp', 'export', 'flow', 'enable', 'disable', 'store', 'trust'].map((name) => ({ ...cliCommon, entryPoints: [`src/cli/${name}-command.ts`], outfile: `dist/cli/${name}.js`, plugins: [elkOnce, sharedEngine('../engine.js'), cliShellParts, lspServerOnce] })),
  { ...cliCommon, entryPoints: ['src/cli/hook-command.ts'], outfile: 'dist/cli/hook.js', plugins: [lazyHookParts, builtinsOnce] },
  { ...cliCommon, entryPoints: ['src/engine/check/check-file.ts'], outfile: 'dist/cli/hook-check.js' },
  { ...cliCommon, entryPoints: ['node_modules/picomatch/index.js'], outfile: 'dist/cli/hook-picomatch.js' },
  { ...cliCommon, entryPoints: ['src/engine/formats/yaml-package.ts'], outfile: 'dist/cli/hook-yaml.js' },
  { ...cliCommon, entryPoints: ['src/engine/formats/loaders.ts'], outfile: 'dist/cli/hook-formats.js', plugins: [lazyHookParts] },
  { ...cliCommon, entryPoints: ['src/engine/pipeline/payload-ajv.ts'], outfile: 'dist/cli/hook-ajv.js' },
  { ...cliCommon, entryPoints: ['node_modules/postgres/cjs/src/index.js'], outfile: 'dist/cli/hook-postgres.js' },
  { ...cliCommon, entryPoints: ['src/engine/statechart/lazy-parts.ts'], outfile: 'dist/cli/hook-statechart.js' },
  { ...cliCommon, entryPoints: ['src/engine/handlers/mcp-client.ts'], outfile: 'dist/cli/mcp-client.js' },
  // The PostgreSQL store's own code: it requires the driver from hook-postgres.js, as hook.js would.
  { ...cliCommon, entryPoints: ['src/engine/store/postgres/pg-storage.ts'], outfile: 'dist/cli/hook-pg-store.js', plugins: [lazyHookParts] },
  {
    ...cliCommon,
    plugins: [treeSitterForRequire],
    stdin: { contents: "export { analyseForPolicy, rewriteForPolicy } from './src/engine/shell/gate.js';\nexport { configureShellParser } from './src/engine/shell/parser.js';\n", resolveDir: '.', sourcefile: 'hook-shell.ts', loader: 'ts' },
    outfile: 'dist/cli/hook-shell.js',
  },
];
// The extension, likewise: dist/extension.js is what activation loads, and it only registers (commands,
// providers, tools, the participant, the panel's view) with stand-ins. What they run is in bundles of
// their own, loaded on first use by a require the plugin below points at them:
//   extension-lsp-client.js  the language client (src/vscode/language/lazy-language.ts), which starts the
//                          language server (dist/lsp-server.js) in a process of its own: no check runs in the host
//   extension-runs.js      run service, status bar, run commands, agents, panel (src/vscode/runtime/lazy-runs.ts),
//                          loaded right after activation when a folder is open
//   extension-flows.js     flow runs, their terminals and the Flows view (src/vscode/flows/lazy-flows.ts)
//   cli/hook-check.js      the workflow checker (the engine's runs/runner.ts and flow/load.ts, when a run starts):
//                          the hook's bundle of it, shipped anyway, so the VSIX carries it once
//   cli/hook-shell.js      the shell analysis (lazy-shell.ts; only the participant's shell calls), likewise
//   elk.js                 elkjs, for the SVG export of a statechart run (panel/chart-svg.ts; elkOnce above)
//   cli/hook-picomatch.js  picomatch (wherever the engine matches globs; the hook's bundle, shipped anyway)
const lazyExtensionRequires = [
  [/src[\\/]vscode[\\/]language[\\/]lazy-language\.ts$/, './client.js', './extension-lsp-client.js'],
  [/src[\\/]vscode[\\/]runtime[\\/]lazy-runs\.ts$/, './runs.js', './extension-runs.js'],
  [/src[\\/]vscode[\\/]flows[\\/]lazy-flows\.ts$/, './index.js', './extension-flows.js'],
  [/src[\\/]vscode[\\/]runtime[\\/]lazy-shell\.ts$/, '../../engine/shell/gate.js', './cli/hook-shell.js'],
  [/src[\\/]vscode[\\/]panel[\\/]chart-svg\.ts$/, 'elkjs/lib/elk.bundled.js', './elk.js'],
  // Engine files a bundle still carries itself (the activation bundle's few): their lazy parts as engine.js has them.
  ...ENGINE_LAZY_PARTS,
];
const lazyExtensionParts = {
  name: 'lazy-extension-parts',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${lazyExtensionRequires.map(([, spec]) => spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`) }, (a) => {
      if (a.kind !== 'require-call') return undefined;
      const hit = lazyExtensionRequires.find(([importer, spec]) => spec === a.path && importer.test(a.importer));
      return hit ? { path: hit[2], external: true } : undefined;
    });
  },
};
if (existsSync('src/vscode/extension.ts')) {
  const ext = { external: ['vscode'], plugins: [lazyExtensionParts] };
  entries.push({ ...ext, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js' });
  const withEngine = { external: ['vscode'], plugins: [lazyExtensionParts, sharedEngine('./engine.js')] };
  entries.push({ ...ext, entryPoints: ['src/vscode/language/client.ts'], outfile: 'dist/extension-lsp-client.js' });
  entries.push({ ...withEngine, ...importMetaUrl, entryPoints: ['src/vscode/runtime/runs.ts'], outfile: 'dist/extension-runs.js' });
  entries.push({ ...withEngine, ...importMetaUrl, entryPoints: ['src/vscode/flows/index.ts'], outfile: 'dist/extension-flows.js' });
}
// elkjs's own UMD build, minified and nothing else (no bundling: it must stay a script the webview can load, which sets window.ELK).
entries.push({ entryPoints: ['node_modules/elkjs/lib/elk.bundled.js'], outfile: 'dist/elk.js', bundle: false, format: undefined, minify: true, sourcemap: false });
if (existsSync('webview/main.ts')) {
  // The state panel's webview: lit components for the browser, one classic script (CSP: nonce'd, no modules needed).
  // elkjs is the page's other script (dist/elk.js, window.ELK; src/vscode/panel/html.ts), not part of this one.
  const elkFromPage = {
    name: 'elk-from-page',
    setup(b) {
      b.onResolve({ filter: /^elkjs\/lib\/elk\.bundled\.js$/ }, () => ({ path: 'elk-from-page', namespace: 'elk-from-page' }));
      b.onLoad({ filter: /.*/, namespace: 'elk-from-page' }, () => ({ contents: 'export default globalThis.ELK;', loader: 'js' }));
    },
  };
  entries.push({ entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022', mainFields: ['browser', 'module', 'main'], plugins: [elkFromPage] });
  // Its codicon font, which the webview loads as a stylesheet (the icons of @vscode-elements need it by id).
  entries.push({ entryPoints: ['node_modules/@vscode/codicons/dist/codicon.css'], outfile: 'dist/codicon.css', loader: { '.ttf': 'file' }, assetNames: '[name]', sourcemap: false });
}
// `--metafile=DIR`: each bundle's esbuild metafile written to DIR/<bundle>.json, to see what a bundle carries
// (`npx esbuild --analyze`-style: node -e 'console.log(require("esbuild").analyzeMetafileSync(require("./DIR/hook.json")))').
const metaDir = process.argv.find((a) => a.startsWith('--metafile='))?.slice('--metafile='.length);
for (const e of entries) {
  const result = await build({ ...common, ...e, ...(metaDir ? { metafile: true } : {}) });
  if (metaDir && e.outfile) {
    mkdirSync(metaDir, { recursive: true });
    writeFileSync(`${metaDir}/${e.outfile.replace(/^dist\//, '').replace(/\//g, '-').replace(/\.\w+$/, '')}.json`, JSON.stringify(result.metafile));
  }
}
// The bash parser's WASM files go in dist/, once: the extension's bundles load them from beside them, the
// CLI's from the folder above theirs (src/engine/shell/parser.ts looks in both).
mkdirSync('dist/cli', { recursive: true });
for (const [from, name] of [['node_modules/web-tree-sitter/tree-sitter.wasm', 'tree-sitter.wasm'], ['node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'tree-sitter-bash.wasm']]) {
  copyFileSync(from, `dist/${name}`);
  rmSync(`dist/cli/${name}`, { force: true });
}
// Bundles of earlier layouts that no build writes any more (a stale one would be packaged).
for (const stale of ['dist/extension-check.js', 'dist/extension-shell.js', 'dist/extension-elk.js', 'dist/extension-language.js']) {
  rmSync(stale, { force: true });
  rmSync(`${stale}.map`, { force: true });
}
// The hook's V8 code caches (src/cli/code-cache.ts): the hook writes them beside its bundles on its first
// call under a runtime, so the build only clears those of the bundles it replaced and, on a Node without a
// compile cache of its own (Node 20), warms this checkout's with one Read and one Bash call. The VSIX ships
// none (.vscodeignore): an installed extension writes its own on its first call.
const codeCacheArgs = 'enableCompileCache' in nodeModule ? ['--clear'] : [];
if (spawnSync(process.execPath, ['scripts/hook-code-cache.cjs', ...codeCacheArgs], { stdio: 'inherit' }).status !== 0) {
  console.warn('build: the hook\'s code caches were not warmed (see above); its first call in this checkout writes them');
}
if (watch) console.log('watch mode is not implemented; rerun npm run build');
