/**
 * The run record's own operations on a run, pure like the machine's: a lesson
 * an agent recorded (statewright_record_learning) and model usage reported to
 * the run (the @stategate participant reports what its model calls cost).
 * Each is a journal entry; the record (record-file.ts) takes it from there.
 */
import type { MachineEnv, MachineResult } from '../machine/operations.js';
import type { JournalEntry, LearningInput, RunSnapshot } from '../machine/run.js';
import { formatCost, noteBounds } from './bounds.js';
import { LEARNING_TYPES } from './types.js';

export interface LearningOutcome {
  readonly recorded: boolean;
  readonly state: string;
  readonly learning?: LearningInput & { readonly task: string; readonly iteration: number };
  readonly error?: { readonly code: 'invalid_learning'; readonly message: string };
}

/** Check what an agent sent as a learning; a reason when it is not one. */
export function learningFrom(args: Record<string, unknown>): LearningInput | string {
  const lesson = args.lesson;
  if (typeof lesson !== 'string' || lesson.trim() === '') return '`lesson` must be a non-empty string: what was learned';
  const type = args.type ?? 'insight';
  if (typeof type !== 'string' || !(LEARNING_TYPES as readonly string[]).includes(type)) return `\`type\` must be one of ${LEARNING_TYPES.join(', ')}`;
  for (const key of ['pattern', 'context'] as const) {
    if (args[key] !== undefined && typeof args[key] !== 'string') return `\`${key}\` must be a string`;
  }
  return { type: type as LearningInput['type'], lesson, pattern: (args.pattern as string | undefined) ?? '', context: (args.context as string | undefined) ?? '' };
}

export function recordLearning(run: RunSnapshot, input: LearningInput, env: MachineEnv): MachineResult<LearningOutcome> {
  const at = env.now();
  const iteration = run.counters.iterations;
  const entry: JournalEntry = { kind: 'learning', at, state: run.state, iteration, ...input };
  return { run: { ...run, updatedAt: at }, journal: [entry], outcome: { recorded: true, state: run.state, learning: { ...input, task: run.state, iteration } } };
}

export interface UsageReport {
  /** Dollars this report adds. */
  readonly cost: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly model?: string;
}

export interface UsageOutcome {
  readonly cost_so_far: string;
  /** Warnings crossed by this report (75% / 90% of meta.max_cost), and the bound when it is reached. */
  readonly notices: string[];
  readonly exceeded?: string;
  readonly error?: { readonly code: 'invalid_usage'; readonly message: string };
}

/** Add model usage to the run: cost counts against meta.max_cost from the next tool call on. */
export function reportUsage(run: RunSnapshot, report: UsageReport, env: MachineEnv): MachineResult<UsageOutcome> {
  const now = env.now();
  if (!(Number.isFinite(report.cost) && report.cost >= 0)) {
    return { run, journal: [], outcome: { cost_so_far: formatCost(run.usage?.cost ?? 0), notices: [], error: { code: 'invalid_usage', message: '`cost` must be a number of dollars, 0 or more' } } };
  }
  const prev = run.usage ?? { cost: 0 };
  const usage = {
    cost: prev.cost + report.cost,
    ...(report.inputTokens !== undefined || prev.inputTokens !== undefined ? { inputTokens: (prev.inputTokens ?? 0) + (report.inputTokens ?? 0) } : {}),
    ...(report.outputTokens !== undefined || prev.outputTokens !== undefined ? { outputTokens: (prev.outputTokens ?? 0) + (report.outputTokens ?? 0) } : {}),
  };
  const next: RunSnapshot = { ...run, usage, updatedAt: now };
  const journal: JournalEntry[] = [
    {
      kind: 'usage',
      at: now,
      cost: report.cost,
      total: usage.cost,
      ...(report.inputTokens !== undefined ? { inputTokens: report.inputTokens } : {}),
      ...(report.outputTokens !== undefined ? { outputTokens: report.outputTokens } : {}),
      ...(report.model !== undefined ? { model: report.model } : {}),
    },
  ];
  const bounds = noteBounds(next, env.load(run.workflow.definitionText)?.meta.raw, now, journal);
  const notices = bounds.crossed.map((w) => w.message);
  return { run: next, journal, outcome: { cost_so_far: formatCost(usage.cost), notices, ...(bounds.exceeded ? { exceeded: bounds.exceeded } : {}) } };
}
