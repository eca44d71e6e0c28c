/**
 * What the extension host loads carries no checker: the authoring features run
 * in the language server's own process (dist/lsp-server.js, src/lsp/), and the
 * host's bundles (dist/extension*.js, scripts/build.mjs) carry only the client.
 * Read from the bundles' source maps (the build always writes them), as
 * hook-bundle.test.ts reads the hook's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, requireBuiltCli } from './helpers/cli';

const DIST = path.join(REPO_ROOT, 'dist');

/** The source files a bundle was built from (its source map's `sources`), as paths from the repository (node_modules/... for packages). */
function sourcesOf(bundle: string): string[] {
  requireBuiltCli();
  const map = JSON.parse(fs.readFileSync(path.join(DIST, `${bundle}.map`), 'utf8')) as { sources: string[] };
  return map.sources.map((s) => {
    const rel = path.relative(REPO_ROOT, path.resolve(path.dirname(path.join(DIST, bundle)), s)).split(path.sep).join('/');
    const pkg = rel.lastIndexOf('node_modules/'); // node_modules may be a link to another checkout
    return pkg >= 0 ? rel.slice(pkg) : rel;
  });
}

/** What checking a document takes: the checker and its rules, the compiled schemas' ajv, the language service, the YAML reader, the server. */
const CHECKER: readonly [what: string, marks: RegExp][] = [
  ['the checker (src/engine/check/)', /^src\/engine\/check\//],
  ['the language service (src/engine/language/)', /^src\/engine\/language\//],
  ['the YAML reader (src/engine/formats/yaml-*)', /^src\/engine\/formats\/yaml-/],
  ['ajv', /^node_modules\/ajv(-formats)?\//],
  ['the language server (src/lsp/, but its command ids)', /^src\/lsp\/(?!commands\.ts$)/],
  ['vscode-languageserver', /^node_modules\/vscode-languageserver\//],
];
/** The host's bundles: the activation bundle and what it loads lazily. */
const HOST_BUNDLES = ['extension.js', 'extension-lsp-client.js', 'extension-runs.js', 'extension-flows.js'];

test('no bundle the extension host loads carries the checker, the language service or the server', () => {
  const code = fs.readFileSync(path.join(DIST, 'extension.js'), 'utf8');
  const lazy = [...code.matchAll(/require\("\.\/(extension-[\w-]+\.js)"\)/g)].map((m) => m[1]).sort();
  assert.deepEqual(lazy, HOST_BUNDLES.slice(1).sort(), 'extension.js loads these bundles and no other');
  for (const bundle of HOST_BUNDLES) {
    const sources = sourcesOf(bundle);
    for (const [what, marks] of CHECKER) assert.deepEqual(sources.filter((s) => marks.test(s)), [], `${bundle} carries ${what}`);
  }
  // The activation bundle and the client carry no YAML parser at all (the runs bundle reads custom agents' front matter with one).
  for (const bundle of ['extension.js', 'extension-lsp-client.js']) assert.deepEqual(sourcesOf(bundle).filter((s) => s.startsWith('node_modules/yaml/')), [], bundle);
  assert.ok(sourcesOf('extension-lsp-client.js').includes('node_modules/vscode-languageclient/lib/node/main.js'), 'the client bundle is the language client');
});

test('the server bundle carries the server and takes the checker from the hook\'s bundle of it; `stategate lsp` loads that bundle, no copy', () => {
  const sources = sourcesOf('lsp-server.js');
  assert.ok(sources.includes('src/lsp/server.ts'), 'lsp-server.js carries the server');
  assert.deepEqual(sources.filter((s) => /^src\/engine\/check\//.test(s)), [], 'lsp-server.js leaves the checker to ./cli/hook-check.js');
  assert.ok(fs.readFileSync(path.join(DIST, 'lsp-server.js'), 'utf8').includes('require("./cli/hook-check.js")'), 'lsp-server.js requires ./cli/hook-check.js');
  assert.deepEqual(sourcesOf('cli/lsp.js').filter((s) => s.startsWith('src/lsp/') || s.includes('vscode-languageserver')), [], 'cli/lsp.js carries no second copy of the server');
  assert.ok(fs.readFileSync(path.join(DIST, 'cli', 'lsp.js'), 'utf8').includes('require("../lsp-server.js")'), 'cli/lsp.js requires ../lsp-server.js');
});
