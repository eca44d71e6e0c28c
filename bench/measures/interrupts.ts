/**
 * Interrupt matching: 100 interrupt globs against 10,000 workspace paths,
 * first match wins (the engine's `matchInterrupt`, matchers compiled once per
 * workflow) against the naive way, picomatch compiling the glob on every
 * call (`picomatch.isMatch`). Target: ≥ 10× faster than the naive baseline.
 */
import picomatch from 'picomatch';
import { loadWorkflowText } from '../../src/engine/formats/index.js';
import { matchInterrupt, normaliseRelPath } from '../../src/engine/machine/patterns/interrupts.js';
import type { Workflow } from '../../src/engine/model/index.js';
import { generateWorkflow } from '../generate.js';
import { ratioRow, type Row } from '../row.js';
import { interleave, summarise } from '../stats.js';

export interface InterruptOptions {
  readonly globs: number;
  readonly paths: number;
  readonly rounds: number;
  /** The naive baseline takes seconds a sweep: it runs on every `baselineStride`-th path and is scaled up. */
  readonly baselineStride: number;
}

/** Paths like a real workspace's: sources, configs, a few that hit the generated globs. */
export function samplePaths(n: number): string[] {
  const dirs = ['src', 'src/engine', 'src/cli', 'test/unit', 'packages/api/src', 'packages/web/migrations', 'config/3', 'docs', '.github/workflows', 'secrets-2/keys'];
  const exts = ['ts', 'js', 'json', 'md', 'yml', 'sql', 'env7', 'txt'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const dir = dirs[i % dirs.length]!;
    const ext = exts[(i * 7) % exts.length]!;
    out.push(`${dir}/${i % 13 === 0 ? '.' : ''}file-${i}.${ext}`);
  }
  return out;
}

export async function measureInterrupts(opts: InterruptOptions): Promise<Row[]> {
  // generateWorkflow makes one interrupt (and handler state) per 10 states at most: 100 globs need ≥ 1,000 states.
  const generated = generateWorkflow(Math.max(1000, opts.globs * 10), { interrupts: opts.globs });
  const wf: Workflow | undefined = loadWorkflowText(generated.text).workflow;
  if (!wf || wf.interrupts.length !== opts.globs) throw new Error(`expected ${opts.globs} interrupts, got ${wf?.interrupts.length}`);
  const paths = samplePaths(opts.paths);
  const patterns = wf.interrupts.map((i) => i.filePattern);
  const stride = Math.max(1, opts.baselineStride);
  const sample = paths.filter((_, i) => i % stride === 0);
  const oursOnSample = sample.filter((p) => matchInterrupt(wf, p)).length;

  let hitsOurs = 0;
  let hitsNaive = 0;
  const ours = (): number => {
    hitsOurs = 0;
    const t0 = performance.now();
    for (const p of paths) if (matchInterrupt(wf, p)) hitsOurs++;
    return performance.now() - t0;
  };
  const naive = (): number => {
    hitsNaive = 0;
    const t0 = performance.now();
    for (const p of sample) {
      const rel = normaliseRelPath(p);
      if (rel !== undefined && patterns.some((g) => picomatch.isMatch(rel, g, { dot: true }))) hitsNaive++;
    }
    return ((performance.now() - t0) * paths.length) / sample.length;
  };
  await interleave(1, ours, naive);
  const [a, b] = await interleave(opts.rounds, ours, naive);
  if (oursOnSample !== hitsNaive) throw new Error(`matchers disagree: ${oursOnSample} vs ${hitsNaive} matches`);
  const s = summarise(a);
  const n = summarise(b);
  return [
    ratioRow({
      measure: `interrupt matching, ${opts.globs} globs × ${opts.paths.toLocaleString('en-US')} paths`,
      stat: 'p50 per sweep',
      unit: 'ms',
      value: s.p50,
      baseline: n.p50,
      baselineName: 'picomatch.isMatch (compiles every call)',
      target: '≤ 0.1× (≥ 10× faster)',
      pass: s.p50 * 10 <= n.p50,
      note: `${hitsOurs} of ${opts.paths} paths match; ${opts.rounds} sweeps each; the baseline timed on every ${stride === 1 ? '' : `${stride}th `}path and scaled`,
    }),
  ];
}
