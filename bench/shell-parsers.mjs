// One-off benchmark: what a shell parser costs a fresh process (a hook is a
// new process per tool call, so load time matters as much as parse time).
// Usage: node bench/shell-parsers.mjs [--extra DIR]
//   --extra DIR: a node_modules folder holding sh-syntax and mvdan-sh, measured
//   too when present (they are not project dependencies).
// Each variant runs RUNS times in its own process; medians are printed.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extraIdx = process.argv.indexOf('--extra');
const extra = extraIdx > 0 ? process.argv[extraIdx + 1] : undefined;
const RUNS = 7;
const CMD = `FOO=1 npm test -- -w 2>/dev/null | grep x && echo $(ls \`pwd\`) ; bash -c 'pytest -q' || cat <<EOF\n$HOME\nEOF`;

// Each probe prints JSON timings on stdout; the parent measures wall time.
const treeSitter = (mode) => `
const v8 = require('node:v8');
if (${JSON.stringify(mode)} === 'liftoff') v8.setFlagsFromString('--liftoff-only');
const t0 = performance.now();
const { Parser, Language } = require(${JSON.stringify(join(root, 'node_modules/web-tree-sitter/tree-sitter.cjs'))});
const t1 = performance.now();
(async () => {
  await Parser.init();
  const t2 = performance.now();
  const lang = await Language.load(${JSON.stringify(join(root, 'node_modules/tree-sitter-bash/tree-sitter-bash.wasm'))});
  const p = new Parser(); p.setLanguage(lang);
  const t3 = performance.now();
  p.parse(${JSON.stringify(CMD)}).delete();
  const t4 = performance.now();
  for (let i = 0; i < 1000; i++) p.parse(${JSON.stringify(CMD)}).delete();
  const t5 = performance.now();
  process.stdout.write(JSON.stringify({ import: t1 - t0, init: t2 - t1, language: t3 - t2, first: t4 - t3, each: (t5 - t4) / 1000 }));
  if (${JSON.stringify(mode)} === 'exit') process.exit(0);
})();`;

const shSyntax = (dir) => `
const t0 = performance.now();
import(${JSON.stringify(join(dir, 'sh-syntax/lib/index.js'))}).then(async ({ parse }) => {
  const t1 = performance.now();
  await parse(${JSON.stringify(CMD)});
  const t2 = performance.now();
  for (let i = 0; i < 50; i++) await parse(${JSON.stringify(CMD)});
  const t3 = performance.now();
  process.stdout.write(JSON.stringify({ import: t1 - t0, first: t2 - t1, each: (t3 - t2) / 50 }));
});`;

const mvdan = (dir) => `
const t0 = performance.now();
const sh = require(${JSON.stringify(join(dir, 'mvdan-sh'))});
const t1 = performance.now();
const p = sh.syntax.NewParser();
p.Parse(${JSON.stringify(CMD)}, 'x.sh');
const t2 = performance.now();
for (let i = 0; i < 200; i++) p.Parse(${JSON.stringify(CMD)}, 'x.sh');
const t3 = performance.now();
process.stdout.write(JSON.stringify({ import: t1 - t0, first: t2 - t1, each: (t3 - t2) / 200 }));`;

const variants = [
  ['node -e 0 (baseline)', '0'],
  ['web-tree-sitter 0.25, plain exit', treeSitter('plain')],
  ['web-tree-sitter 0.25, --liftoff-only set at run time', treeSitter('liftoff')],
  ['web-tree-sitter 0.25, process.exit after answering', treeSitter('exit')],
];
if (extra) variants.push(['sh-syntax (Go WASM)', shSyntax(extra)], ['mvdan-sh (GopherJS)', mvdan(extra)]);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, code] of variants) {
  const walls = [];
  const parts = {};
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    walls.push(performance.now() - t);
    if (r.status !== 0) { console.log(name, 'failed:', r.stderr.slice(0, 300)); break; }
    if (r.stdout) for (const [k, v] of Object.entries(JSON.parse(r.stdout))) (parts[k] ??= []).push(v);
  }
  const detail = Object.entries(parts).map(([k, v]) => `${k} ${median(v).toFixed(k === 'each' ? 3 : 1)}`).join(', ');
  console.log(`${name}: process ${median(walls).toFixed(0)} ms${detail ? ` (${detail} ms)` : ''}`);
}
