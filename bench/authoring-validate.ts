/**
 * What validation as you type costs on a large workflow: a generated
 * 1,000-state file, checked (parse + schema + semantic rules) after a one-character
 * edit, as the editor does on each debounced update; plus the language
 * service calls an editor makes after an edit (outline, lenses, a completion,
 * a hover). Prints median and p95 per operation, wall and CPU time.
 * Target: 20 ms per update.
 *
 *   node --import tsx bench/authoring-validate.ts [states] [runs]
 */
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { checkWorkflowFile } from '../src/engine/check/check-file.js';
import { codeLenses, completionsAt, documentSymbols, hoverAt } from '../src/engine/language/index.js';

const STATES = Number(process.argv[2] ?? 1000);
const RUNS = Math.max(30, Number(process.argv[3] ?? 50));

/** A chain of states using every transition shape: simple, guarded, branched, plus an interrupt handler. */
function generate(n: number): string {
  const states: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? `s${i + 1}` : 'done';
    const on: Record<string, unknown> =
      i % 3 === 0
        ? { NEXT: next, FAIL: 'failed' }
        : i % 3 === 1
          ? { NEXT: { target: next, guard: 'ready' }, SKIP: [{ target: next, guards: ['ready', 'small'] }, { target: `s${i}` }] }
          : { NEXT: next, BACK: `s${Math.max(0, i - 1)}` };
    states[`s${i}`] = { instructions: `Step ${i}: do the work of step ${i}.`, allowed_tools: ['Read', 'Edit', 'Bash'], max_iterations: 20, on };
  }
  states['fix'] = { instructions: 'Handle the interrupt.', on: { FIXED: '$return' } };
  states['done'] = { type: 'final' };
  states['failed'] = { type: 'final' };
  return JSON.stringify(
    {
      id: 'big',
      initial: 's0',
      context: { ready: false, size: 1 },
      states,
      guards: { ready: { field: 'ready', op: 'eq', value: true }, small: { field: 'size', op: 'lt', value: 10 } },
      interrupts: { env: { trigger: { file_pattern: '**/*.env' }, target: 'fix' } },
      meta: { failure_states: ['failed'] },
    },
    null,
    2,
  );
}

function stats(samples: number[]): { min: number; median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
  return { min: s[0] ?? NaN, median: at(0.5), p95: at(0.95) };
}

/**
 * Wall time, and this process's CPU time (user + system): on a shared machine
 * other processes stretch the wall time, while the CPU time stays what the
 * work itself costs.
 */
function measure(label: string, run: (i: number) => void): void {
  for (let i = 0; i < 5; i++) run(i); // warm-up (JIT)
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    run(i);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const w = stats(wall);
  const c = stats(cpu);
  const f = (n: number) => n.toFixed(2).padStart(7);
  // The minimum is the cost with the machine to itself, the best estimate when others load it.
  console.log(`${label.padEnd(44)} wall min ${f(w.min)} median ${f(w.median)} p95 ${f(w.p95)} ms | cpu median ${f(c.median)} p95 ${f(c.p95)} ms`);
}

const base = generate(STATES);
if (process.env['BENCH_WRITE']) {
  // To look at the generated file, or profile it elsewhere.
  writeFileSync(process.env['BENCH_WRITE'], base);
  process.exit(0);
}
// Each update edits one character, so nothing can be served from a cache keyed by the text.
const edited = (i: number) => base.replace('Step 500:', `Step ${i % 10}00:`);
console.log(`${STATES} states, ${(base.length / 1024).toFixed(0)} KiB, ${RUNS} runs, node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`);
const first = checkWorkflowFile(base, 'big.workflow.json', { resolveInvoke: false });
const errors = first.diagnostics.filter((d) => d.severity === 'error');
if (!first.workflow || errors.length) throw new Error(`generated workflow does not validate: ${errors.map((d) => d.code).join()}`);

measure('check (parse + schema + semantic) per update', (i) => void checkWorkflowFile(edited(i), 'big.workflow.json', { resolveInvoke: false }));
const results = Array.from({ length: RUNS + 5 }, (_, i) => ({ text: edited(i), wf: checkWorkflowFile(edited(i), 'big.workflow.json', { resolveInvoke: false }).workflow }));
const target = base.indexOf('"target": "s') + 11;
measure('outline (document symbols)', (i) => void documentSymbols(results[i]?.wf ?? first.workflow!));
measure('code lenses', (i) => void codeLenses(results[i]?.wf ?? first.workflow!));
measure('completion at a target (fresh IR)', (i) => void completionsAt(results[i]?.text ?? base, results[i]?.wf, target));
measure('hover on a state (fresh IR)', (i) => void hoverAt(results[i]?.text ?? base, results[i]?.wf ?? first.workflow!, target));
