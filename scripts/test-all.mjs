#!/usr/bin/env node
/**
 * `npm test`: the lint (the layers of src/, .dependency-cruiser.cjs), the
 * type check, the unit tests, the end-to-end tests in a real VS Code and the
 * soak, in that order, stopping at the first that fails (as
 * `a && b && c` would), then a table of how long each stage took, printed
 * whether the run passed or not: the suite has a time budget (25 minutes on
 * two cores), and a stage that grows should show where.
 */
import { spawnSync } from 'node:child_process';

const STAGES = ['lint', 'typecheck', 'test:unit', 'test:e2e', 'test:soak'];

/** m:ss */
function clock(ms) {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const rows = [];
let exitCode = 0;
const started = Date.now();
for (const stage of STAGES) {
  const t0 = Date.now();
  const r = spawnSync('npm', ['run', stage], { stdio: 'inherit', shell: process.platform === 'win32' });
  const failed = r.status !== 0;
  rows.push({ stage, ms: Date.now() - t0, result: failed ? `failed (${r.signal ?? `exit ${r.status ?? r.error?.message}`})` : 'passed' });
  if (failed) {
    exitCode = r.status || 1;
    break;
  }
}
for (const stage of STAGES.slice(rows.length)) rows.push({ stage, ms: undefined, result: 'not run' });

const width = Math.max(...STAGES.map((s) => s.length), 'total'.length);
const lines = rows.map((r) => `${r.stage.padEnd(width)}  ${(r.ms === undefined ? '-' : clock(r.ms)).padStart(6)}  ${r.result}`);
process.stdout.write(`\nnpm test, time per stage:\n${lines.join('\n')}\n${'total'.padEnd(width)}  ${clock(Date.now() - started).padStart(6)}\n`);
process.exit(exitCode);
