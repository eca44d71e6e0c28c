/**
 * A/B of two builds of the agent hook (two checkouts' dist/), interleaved in
 * one loop on the same machine: `node -e 0`, then each build's hook deciding
 * the Read, the Edit and the Bash call of bench/measures/hook.ts on a run of its flat
 * Statewright workflow, the order rotated each round. Prints each kind's p50
 * and p95 (ms) and the p50 ratio to `node -e 0`, and checks first that both
 * builds answer each call alike (allowed, same output). With `perf`, each
 * round also spawns each kind once under `perf stat -e task-clock`: the CPU
 * time, which a busy machine inflates less than the wall time. Both builds run as installed: the code
 * caches in their dist/cli/ are removed first (so run it on copies you may change, not on a checkout
 * others use), and each build's first calls write its hook's own.
 *
 *   flock /tmp/stategate-heavy.lock node --import tsx bench/hook-ab.ts --runs 15 /work/main /work/wt-x
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CALLS, clearCodeCaches, cpuSpawn, hasPerf, hookPayload, startBenchRun, type Call } from './measures/hook.js';
import { timeSpawn } from './measures/spawn-timed.js';
import { summarise } from './stats.js';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 15;
const roots = args.map((a) => resolve(a));
if (roots.length !== 2 || !Number.isInteger(runs) || runs < 1) {
  process.stderr.write('usage: node --import tsx bench/hook-ab.ts [--runs N] ROOT_A ROOT_B   (each ROOT holds a built dist/)\n');
  process.exit(2);
}
const [rootA, rootB] = roots as [string, string];
const calls = CALLS; // Read, Edit and Bash

async function main(): Promise<void> {
  const ws = mkdtempSync(join(tmpdir(), 'stategate-hook-ab-'));
  try {
    // As installed: no code cache the build made; the check calls below, each build's first, write the
    // hook's own where the build writes them (src/cli/code-cache.ts), as a user's first calls do.
    for (const root of roots) clearCodeCaches(join(root, 'dist', 'cli'));
    startBenchRun(ws, join(rootA, 'dist', 'cli.js'));
    const payload = (c: Call): string => hookPayload(ws, c);
    const hook = (root: string): string[] => [join(root, 'dist', 'cli.js'), 'hook', '--client', 'claude'];

    // Both builds must answer each call, and alike, before anything is timed.
    for (const c of calls) {
      const [a, b] = [await timeSpawn(hook(rootA), payload(c), ws), await timeSpawn(hook(rootB), payload(c), ws)];
      if (a.code !== 0 || /"deny"/.test(a.stdout)) throw new Error(`A does not allow the ${c.name} call: ${a.stdout}${a.stderr}`);
      if (a.code !== b.code || a.stdout !== b.stdout) throw new Error(`the builds answer the ${c.name} call differently:\nA ${a.code} ${a.stdout}\nB ${b.code} ${b.stdout}`);
    }
    const kinds = [
      { name: 'node -e 0', args: ['-e', '0'], stdin: payload(calls[0]!) },
      ...calls.flatMap((c) => [
        { name: `A ${c.name}`, args: hook(rootA), stdin: payload(c) },
        { name: `B ${c.name}`, args: hook(rootB), stdin: payload(c) },
      ]),
    ];
    const samples = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
    const cpu = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
    const perf = hasPerf();
    const perfOut = join(ws, 'perf.txt');
    for (let i = 0; i < runs; i++) {
      for (let j = 0; j < kinds.length; j++) {
        const k = kinds[(i + j) % kinds.length]!;
        const r = await timeSpawn(k.args, k.stdin, ws);
        if (r.code !== 0) throw new Error(`${k.name} exited ${r.code}: ${r.stderr}`);
        samples.get(k.name)!.push(r.ms);
        if (perf) cpu.get(k.name)!.push(await cpuSpawn(k.args, k.stdin, ws, perfOut));
      }
    }
    process.stdout.write(`A = ${rootA}\nB = ${rootB}\n${runs} interleaved rounds, ${process.version}\n`);
    const table = (title: string, data: Map<string, number[]>): void => {
      const base = summarise(data.get('node -e 0')!).p50;
      process.stdout.write(`\n${title}\n\n| kind | p50 ms | p95 ms | p50 / node -e 0 |\n|---|---|---|---|\n`);
      for (const k of kinds) {
        const s = summarise(data.get(k.name)!);
        process.stdout.write(`| ${k.name} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${(s.p50 / base).toFixed(2)}x |\n`);
      }
    };
    table('Wall time, spawn to exit', samples);
    if (perf) table('CPU time (perf stat -e task-clock)', cpu);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
