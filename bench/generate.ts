/**
 * Synthetic workflows for the benchmarks, 10 to 5,000 states, in the
 * Statewright JSON format (docs/format.md).
 *
 * `generateWorkflow(n)` builds a chain of work states whose NEXT transitions
 * rotate through every pattern: simple, guarded (with approval), branched,
 * invoke and fork; every work state also has a FAIL edge, and a set of
 * interrupts detours to handler states that `$return`. The result has exactly
 * `n` states (n ≥ 10) and validates without errors or warnings when the child
 * workflow (`childWorkflow()`, id CHILD_ID) is resolvable.
 *
 * `generateFlat(n)` is a ring of `n` simple states (NEXT goes round), the
 * flat machine the transition benchmark runs, and `toXStateConfig` the same
 * machine as an XState config.
 */

export const CHILD_ID = 'bench-child';

export const PATTERNS = ['simple', 'guarded', 'branched', 'invoke', 'fork'] as const;
export type Pattern = (typeof PATTERNS)[number];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type States = Record<string, Json>;

/** States a work state of each pattern adds besides itself (fork branches). */
const EXTRA: Record<Pattern, number> = { simple: 0, guarded: 0, branched: 0, invoke: 0, fork: 4 };

export interface GeneratedWorkflow {
  readonly text: string;
  readonly states: number;
  /** How many work states use each pattern. */
  readonly patterns: Record<Pattern, number>;
  readonly interrupts: number;
}

export function generateWorkflow(n: number, opts: { interrupts?: number } = {}): GeneratedWorkflow {
  if (!Number.isInteger(n) || n < 10) throw new Error(`generateWorkflow: need an integer n ≥ 10, got ${n}`);
  const interrupts = Math.max(1, Math.min(opts.interrupts ?? Math.ceil(n / 100), Math.floor(n / 10)));
  const fixed = 2 + interrupts; // done, failed, one handler per interrupt
  const states: States = {};
  const patterns: Record<Pattern, number> = { simple: 0, guarded: 0, branched: 0, invoke: 0, fork: 0 };
  let budget = n - fixed;
  const work: Pattern[] = [];
  for (let i = 0; budget > 0; i++) {
    let p = PATTERNS[i % PATTERNS.length]!;
    if (1 + EXTRA[p] > budget) p = 'simple';
    work.push(p);
    budget -= 1 + EXTRA[p];
  }
  work.forEach((p, i) => {
    const name = `s${i}`;
    const next = i + 1 < work.length ? `s${i + 1}` : 'done';
    patterns[p]++;
    states[name] = workState(i, transition(p, name, next));
    if (p === 'fork') Object.assign(states, forkBranches(name));
  });
  for (let j = 0; j < interrupts; j++) {
    states[`h${j}`] = { instructions: `Interrupt ${j} fired: review the file, then go back.`, allowed_tools: ['Read', 'Edit'], on: { REVIEWED: '$return', ABORT: 'failed' } };
  }
  states['done'] = { type: 'final' };
  states['failed'] = { type: 'final' };
  const interruptDefs: Record<string, Json> = {};
  for (let j = 0; j < interrupts; j++) interruptDefs[`i${j}`] = { trigger: { file_pattern: interruptGlob(j) }, target: `h${j}` };
  const doc = {
    $schema: '../schemas/workflow-schema.json',
    id: `bench-${n}`,
    name: `Synthetic workflow, ${n} states`,
    initial: 's0',
    context: { ready: true, size: 3, tier: 'gold' },
    states,
    guards: {
      ready: { field: 'ready', op: 'eq', value: true },
      small: { field: 'size', op: 'lt', value: 10 },
      gold: { field: 'tier', op: 'in', value: ['gold', 'platinum'] },
    },
    interrupts: interruptDefs,
    meta: { task_type: 'benchmark', approval_mode: 'none', failure_states: ['failed'] },
  };
  return { text: JSON.stringify(doc, null, 2), states: Object.keys(states).length, patterns, interrupts };
}

function workState(i: number, next: Record<string, Json>): Json {
  return {
    instructions: `Step ${i}: do the work of step ${i}, then send NEXT.`,
    allowed_tools: ['Read', 'Grep', 'Edit', 'Bash'],
    allowed_commands: ['npm test', 'git diff', 'node --test*'],
    max_iterations: 20,
    on: { ...next, FAIL: 'failed' },
  };
}

function transition(p: Pattern, name: string, next: string): Record<string, Json> {
  switch (p) {
    case 'simple':
      return { NEXT: next };
    case 'guarded':
      return { NEXT: { target: next, guard: 'ready', guards: ['small'], requires_approval: true, approval_message: `Leave ${name}?` } };
    case 'branched':
      return { NEXT: [{ target: next, guards: ['ready', 'gold'] }, { target: next, guard: 'small' }, { target: 'failed' }] };
    case 'invoke':
      return { NEXT: { invoke: CHILD_ID, input: { from: name }, on_complete: next, on_fail: 'failed' } };
    case 'fork':
      return {
        NEXT: {
          fork: {
            branches: { a: { initial: `${name}_a`, terminal: `${name}_a_done` }, b: { initial: `${name}_b`, terminal: `${name}_b_done` } },
            join: 'all',
            on_complete: next,
            on_fail: 'failed',
          },
        },
      };
  }
}

/** The branch states a fork at `name` refers to. */
function forkBranches(name: string): States {
  return {
    [`${name}_a`]: { instructions: 'Branch a.', on: { DONE: `${name}_a_done` } },
    [`${name}_a_done`]: { type: 'final' },
    [`${name}_b`]: { instructions: 'Branch b.', on: { DONE: `${name}_b_done` } },
    [`${name}_b_done`]: { type: 'final' },
  };
}

/** A glob per interrupt: a mix of extension, directory and brace patterns. */
export function interruptGlob(j: number): string {
  switch (j % 5) {
    case 0:
      return `**/*.env${j}`;
    case 1:
      return `config/${j}/**/*.{yml,yaml}`;
    case 2:
      return `**/secrets-${j}/**`;
    case 3:
      return `packages/*/migrations/${j}_*.sql`;
    default:
      return `**/.github/workflows/w${j}.yml`;
  }
}

/** The sub-workflow every invoke names. */
export function childWorkflow(): string {
  return JSON.stringify({
    id: CHILD_ID,
    initial: 'work',
    states: { work: { instructions: 'Child work.', on: { DONE: 'done', FAIL: 'failed' } }, done: { type: 'final' }, failed: { type: 'final' } },
  });
}

/** A ring of `n` simple states: s0 -NEXT-> s1 ... -NEXT-> s0, plus one final state (a workflow needs one). */
export function generateFlat(n: number): string {
  const states: States = {};
  for (let i = 0; i < n; i++) states[`s${i}`] = { on: { NEXT: `s${(i + 1) % n}`, STOP: 'done' } };
  states['done'] = { type: 'final' };
  return JSON.stringify({ id: `flat-${n}`, initial: 's0', states });
}

export interface XStateConfig {
  id: string;
  initial: string;
  states: Record<string, { on?: Record<string, string>; type?: 'final' }>;
}

/** The flat ring as an XState v5 machine config (same states, same events). */
export function toXStateConfig(n: number): XStateConfig {
  const states: XStateConfig['states'] = {};
  for (let i = 0; i < n; i++) states[`s${i}`] = { on: { NEXT: `s${(i + 1) % n}`, STOP: 'done' } };
  states['done'] = { type: 'final' };
  return { id: `flat-${n}`, initial: 's0', states };
}
