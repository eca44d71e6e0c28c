/**
 * The statechart fuzzer's slowest YAML documents (test/fixtures/yaml-slow, or
 * the files given), each checked N times (default 5) in isolation: the least
 * CPU time of the `yaml` package's parse of the original text as it was
 * (`parseWithYaml(text, false)`), of the parse used now, and of the whole
 * check. CPU time, not wall time: this machine is shared, and a loaded one
 * makes wall times of single documents meaningless.
 *
 *   node --import tsx bench/slow-yaml-documents.ts [files...]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseWithYaml } from '../src/engine/formats/yaml-package';
import { checkWorkflowFile } from '../src/engine/check/check-file';

const N = Number(process.env.N ?? 5);
const dir = path.join(__dirname, '..', 'test', 'fixtures', 'yaml-slow');
const files = process.argv.length > 2 ? process.argv.slice(2) : fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => path.join(dir, f));

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The least CPU time of N runs of `f`. */
function least(f: () => unknown): number {
  let min = Infinity;
  for (let i = 0; i < N; i++) {
    const started = cpuMs();
    f();
    min = Math.min(min, cpuMs() - started);
  }
  return min;
}

let worst = 0;
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  const name = path.join(path.dirname(file), `x.statechart.${file.endsWith('.json') ? 'json' : 'yaml'}`);
  const before = least(() => parseWithYaml(text, false));
  const now = least(() => parseWithYaml(text));
  const check = least(() => checkWorkflowFile(text, name));
  worst = Math.max(worst, check);
  console.log(`${path.basename(file).padEnd(40)} ${String(text.length).padStart(7)} chars  package parse ${before.toFixed(1).padStart(6)} ms  parse now ${now.toFixed(1).padStart(6)} ms  check ${check.toFixed(1).padStart(6)} ms`);
}
console.log(`slowest check: ${worst.toFixed(1)} ms CPU (${files.length} documents, least of ${N} runs each)`);
