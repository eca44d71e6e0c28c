// Bundles the extension (vscode external) and the CLI with esbuild.
// The CLI bundle is what the agent hook and the MCP server run, so it must
// start fast: one file, no runtime module resolution.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

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

const entries = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
];
if (existsSync('src/vscode/extension.ts')) {
  entries.push({ entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] });
}
if (existsSync('webview/main.ts')) {
  // The state panel's webview: lit components for the browser, one classic script (CSP: nonce'd, no modules needed).
  entries.push({ entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022', mainFields: ['browser', 'module', 'main'] });
}
for (const e of entries) {
  await build({ ...common, ...e });
}
if (watch) console.log('watch mode is not implemented; rerun npm run build');
