/**
 * `npm run bench`: every measure of issue 8, each against a baseline measured
 * in the same run, printed as a Markdown table (or `--json`). Run through
 * bench/run.mjs, which packages the extension and bundles this file first.
 *
 * Options: --json, --quick (fewer runs, for trying things), --only=a,b
 * (hook, decide, validate, transitions, statecharts, authoring, interrupts, sizes, activation, team),
 * --launches=N (VS Code launches for activation, default 5).
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { measureChartAuthoring } from './measures/chart-authoring.js';
import { measureDecide } from './measures/decide.js';
import { measureHook } from './measures/hook.js';
import { measureInterrupts } from './measures/interrupts.js';
import { measureStatecharts } from './measures/statecharts.js';
import { measureSizes } from './measures/sizes.js';
import { measureTeam } from './measures/team.js';
import { measureTransitions } from './measures/transitions.js';
import { measureValidate } from './measures/validate.js';
import { pendingRow, type Row } from './row.js';
import { summarise } from './stats.js';
import { renderTable } from './table.js';

const ROOT = process.env.STATEGATE_BENCH_ROOT ?? resolve(__dirname, '..');
/** Where dist/ and stategate.vsix are read from: run.mjs's snapshot of what it packaged, else the checkout. */
const ARTIFACTS = process.env.STATEGATE_BENCH_ARTIFACTS ?? ROOT;

interface Options {
  readonly json: boolean;
  readonly quick: boolean;
  readonly only?: ReadonlySet<string>;
  readonly launches: number;
}

function options(argv: readonly string[]): Options {
  const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const launches = Number(argv.find((a) => a.startsWith('--launches='))?.slice('--launches='.length) ?? 5);
  return { json: argv.includes('--json'), quick: argv.includes('--quick'), ...(only ? { only: new Set(only.split(',')) } : {}), launches };
}

/** The commit measured, with "+changes" when src/ differs from it (others may be mid-edit in a shared checkout). */
function revision(): string {
  const git = (...args: string[]): string => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  const head = git('rev-parse', '--short', 'HEAD') || 'unknown';
  return git('status', '--porcelain', '--', 'src') ? `${head}+changes` : head;
}

function activation(launches: number): Row[] {
  const measure = 'activation in VS Code (extension.activate(): load bundle + activate())';
  const target = '≤ 30 ms';
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/activation.ts', String(launches)], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  let out: { ok: boolean; samples: number[]; callSamples?: number[]; vscode?: string; error?: string };
  try {
    out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as typeof out;
  } catch {
    return [pendingRow(measure, target, `the e2e harness did not answer (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n')[0] ?? ''}; run bash test/e2e/setup.sh`)];
  }
  if (!out.ok || out.samples.length === 0) return [pendingRow(measure, target, `not reachable: ${out.error ?? 'no samples'}`)];
  const s = summarise(out.samples);
  return [
    {
      measure,
      stat: `p50 of ${s.n} launches`,
      unit: 'ms',
      value: s.p50,
      target,
      pass: s.p50 <= 30,
      note:
        `VS Code ${out.vscode} (code-server) cold launches, timed once the host settled; samples ${out.samples.map((x) => x.toFixed(1)).join(', ')} ms` +
        `${out.callSamples?.length ? `; activate() itself p50 ${summarise(out.callSamples).p50.toFixed(1)} ms` : ''}; no baseline`,
    },
  ];
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const on = (name: string): boolean => !opts.only || opts.only.has(name);
  const q = opts.quick;
  const log = (what: string): void => void process.stderr.write(`[bench] ${what}\n`);
  const rows: Row[] = [];
  const started = new Date();
  const loadBefore = loadavg()[0] ?? 0;
  if (on('hook')) {
    log('hook: spawning processes');
    rows.push(...(await measureHook({ root: ARTIFACTS, runs: q ? 10 : 60, cpuRuns: q ? 5 : 30 })));
  }
  if (on('decide')) {
    log('decide: shell decisions in process');
    rows.push(...(await measureDecide({ calls: q ? 200 : 2000 })));
  }
  if (on('validate')) {
    log('validate: 1,000-state workflow');
    rows.push(...(await measureValidate({ root: ROOT, states: 1000, runs: q ? 10 : 40 })));
    // How it scales, from the generators' small and large ends (informative).
    for (const states of [100, 5000]) rows.push(...(await measureValidate({ root: ROOT, states, runs: q ? 5 : 15, informative: true })));
  }
  if (on('transitions')) {
    log('transitions: flat machines');
    rows.push(...(await measureTransitions({ states: [10, 1000], batchMs: 1, rounds: q ? 20 : 200 })));
  }
  if (on('statecharts')) {
    log('statecharts: parallel transitions, 1,000-node chart');
    rows.push(...(await measureStatecharts({ batchMs: 1, rounds: q ? 20 : 200, nodes: 1000, runs: q ? 10 : 40 })));
  }
  if (on('authoring')) {
    log('authoring: statechart diagnostics and language service after a keystroke, 1,000-node chart');
    rows.push(...(await measureChartAuthoring({ nodes: 1000, runs: q ? 10 : 40 })));
  }
  if (on('interrupts')) {
    log('interrupts: 100 globs × 10,000 paths');
    rows.push(...(await measureInterrupts({ globs: 100, paths: 10_000, rounds: q ? 2 : 5, baselineStride: q ? 50 : 10 })));
  }
  if (on('sizes')) rows.push(...measureSizes(ARTIFACTS));
  if (on('team')) {
    log('team: the hook on the shared PostgreSQL store against the file store, then 1/8/32 hooks at once');
    rows.push(...(await measureTeam({ root: ARTIFACTS, runs: q ? 10 : 60, throughputCalls: q ? 32 : 128, concurrency: [1, 8, 32] })));
  }
  if (on('activation')) {
    log('activation: launching VS Code (code-server)');
    rows.push(...activation(q ? 1 : opts.launches));
  }
  // The 1-minute load average before and after: on a shared machine it says how much the absolute figures are worth.
  const load = [loadBefore, loadavg()[0] ?? 0].map((x) => Number(x.toFixed(1)));
  const commit = revision();
  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', node: process.version, platform: `${process.platform}-${process.arch}`, load };
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ date: started.toISOString(), commit, machine, rows }, null, 2)}\n`);
  } else {
    process.stdout.write(`stategate benchmarks at ${commit}, ${started.toISOString()} — ${machine.cpus} × ${machine.cpu}, Node ${machine.node}, 1-min load ${load[0]} → ${load[1]}\n\n`);
    process.stdout.write(renderTable(rows));
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
