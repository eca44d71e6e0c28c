/**
 * `stategate hook` answering a PreToolUse, measured from process spawn to the
 * process's exit (the client waits for both the answer and the exit), for a
 * Read, an Edit and a Bash call on a running workflow, against spawning a bare
 * `node -e 0` with the same runtime and the same stdin. Targets: p50 ≤ 1.3×
 * the baseline for Read/Edit (no shell parser loaded), ≤ 2× for Bash.
 *
 * The four kinds of process are spawned in rotation, so load on the machine
 * falls on all of them alike.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pendingRow, ratioRow, type Row } from '../row.js';
import { timeSpawn, type Spawned } from './spawn-timed.js';
import { summarise } from '../stats.js';

export interface HookOptions {
  /** The folder holding dist/ (dist/cli.js is run from there). */
  readonly root: string;
  readonly runs: number;
  /** Runs each for the CPU-time rows (perf stat task-clock); 0 or no perf: skipped. */
  readonly cpuRuns: number;
}



/** CPU time (ms) the process used, from `perf stat -e task-clock`: what the code costs, whatever the machine's load. */
export function cpuSpawn(args: readonly string[], stdin: string, cwd: string, out: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('perf', ['stat', '-x,', '-e', 'task-clock', '-o', out, '--', process.execPath, ...args], { cwd, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = readFileSync(out, 'utf8').split('\n').find((l) => l.includes('task-clock'));
      const ms = Number(line?.split(',')[0]);
      if (code !== 0 || !Number.isFinite(ms)) reject(new Error(`perf stat failed (exit ${code}): ${line ?? ''}`));
      else resolve(ms);
    });
    child.stdin.end(stdin);
  });
}

export function hasPerf(): boolean {
  const r = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '--', process.execPath, '-e', '0'], { encoding: 'utf8' });
  return r.status === 0 && /task-clock/.test(r.stderr ?? '');
}

/** The flat Statewright workflow the hook measures run (startBenchRun; hook-ab.ts starts it too). */
const WORKFLOW = {
  id: 'bench-hook',
  initial: 'work',
  states: {
    work: {
      instructions: 'Work on the change.',
      allowed_tools: ['Read', 'Grep', 'Edit', 'Bash'],
      allowed_commands: ['npm test', 'git status', 'git diff', 'ls'],
      on: { DONE: 'done' },
    },
    done: { type: 'final' },
  },
};

export interface Call {
  readonly name: string;
  readonly target: string;
  readonly input: (ws: string) => object;
}

export const CALLS: readonly Call[] = [
  { name: 'Read', target: '≤ 1.3× baseline', input: (ws) => ({ file_path: join(ws, 'src', 'app.ts') }) },
  { name: 'Edit', target: '≤ 1.3× baseline', input: (ws) => ({ file_path: join(ws, 'src', 'app.ts'), old_string: 'const a = 1;', new_string: 'const a = 2;\nconst b = 3;' }) },
  { name: 'Bash', target: '≤ 2× baseline', input: () => ({ command: 'git status --short && npm test -- --grep "hook" 2>&1' }) },
];

/** The workspace `ws` with a file to read and a run of WORKFLOW started by the CLI at `cli`. */
export function startBenchRun(ws: string, cli: string): void {
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'app.ts'), 'const a = 1;\n');
  const wfFile = join(ws, 'bench.workflow.json');
  writeFileSync(wfFile, JSON.stringify(WORKFLOW, null, 2));
  const started = spawnSync(process.execPath, [cli, 'run', '--dir', join(ws, '.stategate'), 'start', wfFile], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`could not start the bench run: ${started.stderr || started.stdout}`);
}

/** Claude Code's PreToolUse input for call `c` in `ws`. */
export function hookPayload(ws: string, c: Call): string {
  return JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', cwd: ws, transcript_path: join(ws, 't.jsonl'), tool_name: c.name, tool_input: c.input(ws) });
}

export async function measureHook(opts: HookOptions): Promise<Row[]> {
  const cli = join(opts.root, 'dist', 'cli.js');
  const ws = mkdtempSync(join(tmpdir(), 'stategate-bench-hook-'));
  try {
    startBenchRun(ws, cli);
    const payload = (c: Call): string => hookPayload(ws, c);
    // As installed: the VSIX ships no code cache (.vscodeignore), so none the build made is used here; the
    // calls below, the first under this runtime, write the hook's own (src/cli/code-cache.ts), as a user's
    // first calls do. A checkout's dist/ (no run.mjs snapshot) has them written again the same way.
    clearCodeCaches(join(opts.root, 'dist', 'cli'));
    // Each call must be answered, and allowed, before it is timed; one that is not is reported as pending.
    const pending = new Map<string, string>();
    for (const c of CALLS) {
      const r = await timeSpawn([cli, 'hook', '--client', 'claude'], payload(c), ws);
      if (r.code !== 0 || /"deny"/.test(r.stdout)) pending.set(c.name, `the hook does not allow the ${c.name} call yet: ${denialReason(r)}`);
    }
    const ready = CALLS.filter((c) => !pending.has(c.name));
    const kinds = [
      { name: 'baseline', args: ['-e', '0'], stdin: payload(CALLS[0]!) },
      ...ready.map((c) => ({ name: c.name, args: [cli, 'hook', '--client', 'claude'], stdin: payload(c) })),
    ];
    const samples = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
    for (let i = 0; i < opts.runs; i++) {
      // Rotate the order each round.
      for (let j = 0; j < kinds.length; j++) {
        const k = kinds[(i + j) % kinds.length]!;
        const r = await timeSpawn(k.args, k.stdin, ws);
        if (r.code !== 0) throw new Error(`${k.name} exited ${r.code}: ${r.stderr}`);
        samples.get(k.name)!.push(r.ms);
      }
    }
    const base = summarise(samples.get('baseline')!);
    const baselineName = `node -e 0 (${process.version})`;
    const rows: Row[] = [];
    for (const c of CALLS) {
      const why = pending.get(c.name);
      if (why !== undefined) {
        rows.push(pendingRow(`hook PreToolUse ${c.name}, spawn to answer`, c.target, why));
        continue;
      }
      const s = summarise(samples.get(c.name)!);
      const limit = c.name === 'Bash' ? 2 : 1.3;
      const measure = `hook PreToolUse ${c.name}, spawn to answer`;
      rows.push(ratioRow({ measure, stat: 'p50', unit: 'ms', value: s.p50, baseline: base.p50, baselineName, target: c.target, pass: s.p50 <= limit * base.p50, note: `${opts.runs} runs each; as installed (code caches written by the first calls)` }));
      rows.push(ratioRow({ measure, stat: 'p95', unit: 'ms', value: s.p95, baseline: base.p95, baselineName, target: '(informative)' }));
    }
    if (opts.cpuRuns > 0 && hasPerf()) {
      const cpu = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
      const out = join(ws, 'perf.txt');
      for (let i = 0; i < opts.cpuRuns; i++) {
        for (let j = 0; j < kinds.length; j++) {
          const k = kinds[(i + j) % kinds.length]!;
          cpu.get(k.name)!.push(await cpuSpawn(k.args, k.stdin, ws, out));
        }
      }
      const cpuBase = summarise(cpu.get('baseline')!);
      for (const c of ready) {
        const s = summarise(cpu.get(c.name)!);
        rows.push(
          ratioRow({
            measure: `hook PreToolUse ${c.name}, CPU time (perf task-clock)`,
            stat: 'p50',
            unit: 'ms',
            value: s.p50,
            baseline: cpuBase.p50,
            baselineName: 'node -e 0, CPU time',
            target: '(informative: CPU time, not spawn to answer)',
            note: `${opts.cpuRuns} runs each; CPU time does not grow with the machine's load as wall time does`,
          }),
        );
      }
    }
    return rows;
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

/** Removes the V8 code caches beside the hook's bundles (src/cli/code-cache.ts). */
export function clearCodeCaches(distCli: string): void {
  for (const f of existsSync(distCli) ? readdirSync(distCli) : []) if (f.endsWith('.cache')) rmSync(join(distCli, f), { force: true });
}

function denialReason(r: Spawned): string {
  try {
    const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecisionReason?: string } };
    return out.hookSpecificOutput?.permissionDecisionReason ?? `exit ${r.code}`;
  } catch {
    return `exit ${r.code}: ${(r.stderr || r.stdout).split('\n')[0]}`;
  }
}
