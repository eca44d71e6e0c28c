/**
 * Which transition an event selects in a state, without changing anything:
 * the five transition patterns, guards on the pre-transition context,
 * `safe_next` for events the state does not define, `$return`.
 */
import { evaluateGuard, fieldSteps, readField } from './guards.js';
import { EVIDENCE_KEY, evidenceView } from './evidence.js';
import type { ForkTransition, InvokeTransition, JsonValue, NameRef, StateNode, TargetTransition, Workflow } from '../model/index.js';
import { RETURN_TARGET } from '../model/index.js';
import type { MachineError, Position } from './run.js';

export type Resolution =
  | {
      kind: 'move';
      event: string;
      from: string;
      /** Resolved target (`$return` already replaced by the interrupted state). */
      to: string;
      data?: JsonValue;
      via?: 'safe_next' | 'return';
      approval?: { message?: string };
    }
  | { kind: 'invoke'; event: string; from: string; transition: InvokeTransition; data?: JsonValue }
  | { kind: 'fork'; event: string; from: string; transition: ForkTransition; data?: JsonValue }
  | { kind: 'error'; error: MachineError };

export interface GuardResult {
  name: string;
  passes: boolean;
  /** Set when the guard name has no definition (a validation error; it fails at run time). */
  undefined?: true;
  /** A failed guard on `evidence.*`: what stategate observed there (undefined: nothing), for the message. */
  observed?: { value: JsonValue | undefined };
}

/** Each guard's result on `context` and the state's evidence; an undefined guard fails. */
export function checkGuards(wf: Workflow, refs: readonly NameRef[], pos: Pick<Position, 'context'> & { readonly counters?: Position['counters'] }): GuardResult[] {
  const evidence = evidenceView(pos.counters?.evidence);
  return refs.map((ref) => {
    const def = wf.guards.get(ref.name);
    if (!def) return { name: ref.name, passes: false, undefined: true };
    const passes = evaluateGuard(def, pos.context, evidence);
    if (passes || fieldSteps(def.field)?.[0] !== EVIDENCE_KEY) return { name: ref.name, passes };
    return { name: ref.name, passes, observed: { value: readField(pos.context, def.field, evidence) } };
  });
}

function guardFailure(wf: Workflow, failed: GuardResult): MachineError {
  if (failed.undefined) return { code: 'guard_failed', message: `guard "${failed.name}" is not defined in the workflow, so it fails` };
  const def = wf.guards.get(failed.name);
  const rule = def ? ` (${def.field} ${def.op}${def.value === undefined ? '' : ` ${JSON.stringify(def.value)}`})` : '';
  // An evidence guard cannot be satisfied by what the agent sends: say what would satisfy it.
  const seen = failed.observed ? (failed.observed.value === undefined ? 'nothing observed yet' : `observed ${JSON.stringify(failed.observed.value)}`) : '';
  const observed = failed.observed ? ` (${seen}): \`evidence\` is what stategate observed in this state (the commands the client reported running and how they ended, the files written), so run what it names here; data sent with an event never sets it` : '';
  return { code: 'guard_failed', message: `guard "${failed.name}" failed${rule}${observed}` };
}

/** The events a state accepts, for messages ("available: ..."). */
export function availableEvents(node: StateNode): string[] {
  return node.on.map((t) => t.event);
}

function unknownEvent(node: StateNode, event: string): MachineError {
  const events = availableEvents(node);
  return {
    code: 'unknown_event',
    message: `event "${event}" is not defined in state "${node.id}"; available: ${events.length ? events.join(', ') : 'none'}`,
  };
}

/** Resolves a target name, turning `$return` into the interrupted state. */
function resolveTarget(ref: NameRef, pos: Position): { to: string; via?: 'return' } | MachineError {
  if (ref.name !== RETURN_TARGET) return { to: ref.name };
  if (!pos.interrupt) {
    return { code: 'no_interrupt_to_return_to', message: `"${RETURN_TARGET}" needs an active interrupt, and none is active` };
  }
  return { to: pos.interrupt.returnTo, via: 'return' };
}

function targetMove(
  wf: Workflow,
  t: TargetTransition,
  pos: Position,
  data: JsonValue | undefined,
): Resolution {
  if (t.guards.length) {
    const failed = checkGuards(wf, t.guards, pos).find((g) => !g.passes);
    if (failed) return { kind: 'error', error: guardFailure(wf, failed) };
  }
  // Inlined `resolveTarget` for the common case (a named target); `$return` takes the general path.
  let to: string;
  let via: 'return' | undefined;
  if (t.target.name !== RETURN_TARGET) to = t.target.name;
  else {
    const target = resolveTarget(t.target, pos);
    if ('code' in target) return { kind: 'error', error: target };
    to = target.to;
    via = target.via;
  }
  // Built key by key in the order callers have always seen (event, from, to, data, via, approval).
  const res: Extract<Resolution, { kind: 'move' }> = { kind: 'move', event: t.event, from: pos.state, to };
  if (data !== undefined) res.data = data;
  if (via) res.via = via;
  if (t.requiresApproval) res.approval = t.approvalMessage === undefined ? {} : { message: t.approvalMessage };
  return res;
}

/** The transition of `event` in `node` (the first, as `find` would). */
function transitionOf(node: StateNode, event: string): StateNode['on'][number] | undefined {
  const on = node.on;
  for (let i = 0; i < on.length; i++) if (on[i]!.event === event) return on[i];
  return undefined;
}

/**
 * Resolves `event` in the position's state. The caller has already refused
 * events on final states, while an approval is parked, and on stopped runs.
 */
export function resolveEvent(wf: Workflow, node: StateNode, pos: Position, event: string, data?: JsonValue): Resolution {
  const t = transitionOf(node, event);
  if (t && (t.kind === 'simple' || t.kind === 'guarded')) return targetMove(wf, t, pos, data);
  const base = { event, from: pos.state, ...(data === undefined ? {} : { data }) };
  if (!t) {
    // safe_next catches only events the state does not define, never a defined one whose guards fail.
    if (node.safeNext) return { kind: 'move', ...base, to: node.safeNext.name, via: 'safe_next' };
    return { kind: 'error', error: unknownEvent(node, event) };
  }
  switch (t.kind) {
    case 'simple':
    case 'guarded':
      return targetMove(wf, t, pos, data);
    case 'branched': {
      const failures: string[] = [];
      for (const b of t.branches) {
        const results = checkGuards(wf, b.guards, pos);
        const failed = results.find((g) => !g.passes);
        if (!failed) {
          const target = resolveTarget(b.target, pos);
          if ('code' in target) return { kind: 'error', error: target };
          return { kind: 'move', ...base, to: target.to, ...(target.via ? { via: target.via } : {}) };
        }
        failures.push(`${b.target.name} (guard "${failed.name}" ${failed.undefined ? 'is not defined' : 'failed'})`);
      }
      return {
        kind: 'error',
        error: { code: 'guard_failed', message: `no branch of "${event}" passes its guards: ${failures.join('; ')}` },
      };
    }
    case 'invoke':
      return { kind: 'invoke', ...base, transition: t };
    case 'fork':
      return { kind: 'fork', ...base, transition: t };
  }
}
