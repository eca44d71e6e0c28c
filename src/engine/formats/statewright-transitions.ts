/**
 * The five Statewright transition patterns (`on` values) -> IR transitions.
 * Which pattern a value is follows from its shape: a string is simple, an array
 * is branched, an object with `fork` is a fork, with `invoke` an invoke, any
 * other object a guarded (single-target) transition.
 */
import type { Branch, ForkBranch, ForkTransition, InvokeTransition, NameRef, TargetTransition, Transition } from '../model/index.js';
import { childPointer, nodeLoc, type JsonNode } from './jsonc.js';
import type { Entry, Fields, Reader } from './reader.js';
import {
  BRANCH_FIELDS,
  FORK_BRANCH_FIELDS,
  FORK_FIELDS,
  FORK_MODES,
  FORK_OUTER_FIELDS,
  GUARDED_TRANSITION_FIELDS,
  INVOKE_FIELDS,
  JOIN_RULES,
} from './statewright-fields.js';

/** Reads one `"EVENT": value` of a state's `on`; undefined when it is too broken to use. */
export function readTransition(r: Reader, e: Entry, stateName: string): Transition | undefined {
  const loc = nodeLoc(e.node, e.pointer);
  switch (e.node.type) {
    case 'string':
      return { event: e.key, eventLoc: e.keyLoc, loc, kind: 'simple', target: { name: e.node.value as string, loc }, guards: [], requiresApproval: false };
    case 'array':
      return { event: e.key, eventLoc: e.keyLoc, loc, kind: 'branched', branches: readBranches(r, e, what(e, stateName)) };
    case 'object': {
      const base: Base = { event: e.key, eventLoc: e.keyLoc, loc };
      if (hasKey(e.node, 'fork')) return readFork(r, e, what(e, stateName), base);
      if (hasKey(e.node, 'invoke')) return readInvoke(r, e, what(e, stateName), base);
      return readGuarded(r, e, what(e, stateName), base);
    }
    default:
      r.report(
        'error',
        'invalid-type',
        `The value of ${what(e, stateName)} must be a target state name, an object with \`target\`, a branch array, an invoke or a fork.`,
        loc,
      );
      return undefined;
  }
}

function what(e: Entry, stateName: string): string {
  return `transition \`${e.key}\` of state \`${stateName}\``;
}

function hasKey(obj: JsonNode, key: string): boolean {
  for (const p of obj.children ?? []) if (p.children?.[0]?.value === key) return true;
  return false;
}

type Base = Pick<Transition, 'event' | 'eventLoc' | 'loc'>;

/** `guard` and `guard`s of a transition or branch, in that order. */
function readGuardRefs(r: Reader, f: Fields): NameRef[] {
  const single = r.ref(f.get('guard'));
  const list = r.refArray(f.get('guards'));
  if (!single) return list ?? [];
  return list ? [single, ...list] : [single];
}

function readGuarded(r: Reader, e: Entry, what: string, base: Base): Transition | undefined {
  const f = r.fields(e.node, e.pointer, what, GUARDED_TRANSITION_FIELDS);
  const target = r.ref(f.get('target'));
  if (!f.has('target')) r.missing(e.node, e.pointer, 'target', what, ' Add `"target": "<state>"`.');
  if (!target) return undefined;
  const approvalMessage = r.string(f.get('approval_message'));
  const guards = readGuardRefs(r, f);
  const requiresApproval = r.boolean(f.get('requires_approval')) ?? false;
  const t: Mutable<TargetTransition> = { event: base.event, eventLoc: base.eventLoc, loc: base.loc, kind: 'guarded', target, guards, requiresApproval };
  if (approvalMessage !== undefined) t.approvalMessage = approvalMessage;
  return t;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function readBranches(r: Reader, e: Entry, what: string): Branch[] {
  const branches: Branch[] = [];
  (e.node.children ?? []).forEach((item, i) => {
    const pointer = childPointer(e.pointer, i);
    const branchWhat = `branch ${i + 1} of ${what}`;
    if (!r.isObject(item, pointer, `Each branch of ${what}`)) return;
    const f = r.fields(item, pointer, branchWhat, BRANCH_FIELDS);
    const target = r.ref(f.get('target'));
    if (!f.has('target')) r.missing(item, pointer, 'target', branchWhat);
    if (!target) return;
    const approval = f.get('requires_approval');
    const requiresApproval = r.boolean(approval) === true;
    branches.push({
      target,
      guards: readGuardRefs(r, f),
      loc: nodeLoc(item, pointer),
      ...(approval && requiresApproval ? { requiresApprovalLoc: approval.keyLoc } : {}),
    });
  });
  return branches;
}

function readInvoke(r: Reader, e: Entry, what: string, base: Base): Transition | undefined {
  const f = r.fields(e.node, e.pointer, what, INVOKE_FIELDS);
  const workflow = r.ref(f.get('invoke'));
  const onComplete = r.ref(f.get('on_complete'));
  if (!f.has('on_complete')) r.missing(e.node, e.pointer, 'on_complete', what, ' Name the state to resume at when the sub-workflow completes.');
  const onFail = r.ref(f.get('on_fail'));
  const input = r.jsonObject(f.get('input'));
  if (!workflow || !onComplete) return undefined;
  const t: Mutable<InvokeTransition> = { event: base.event, eventLoc: base.eventLoc, loc: base.loc, kind: 'invoke', workflow, onComplete };
  if (onFail) t.onFail = onFail;
  if (input) t.input = input;
  return t;
}

function readFork(r: Reader, e: Entry, what: string, base: Base): ForkTransition | undefined {
  const outer = r.fields(e.node, e.pointer, what, FORK_OUTER_FIELDS);
  const forkEntry = outer.get('fork');
  if (!forkEntry || !r.isObject(forkEntry.node, forkEntry.pointer, `\`fork\` of ${what}`)) return undefined;
  const inner = r.fields(forkEntry.node, forkEntry.pointer, `the fork of ${what}`, FORK_FIELDS);
  // The reference keeps on_complete/on_fail inside `fork`; some files put them beside it.
  const pick = (key: string): Entry | undefined => inner.get(key) ?? outer.get(key);
  const onComplete = r.ref(pick('on_complete'));
  if (!pick('on_complete')) r.missing(forkEntry.node, forkEntry.pointer, 'on_complete', `the fork of ${what}`, ' Name the state to go to when the branches join.');
  const onFail = r.ref(pick('on_fail'));
  const join = r.oneOf(inner.get('join'), JOIN_RULES) ?? 'all';
  const mode = r.oneOf(pick('mode'), FORK_MODES) ?? 'sequential';
  const branchesEntry = inner.get('branches');
  if (!branchesEntry) r.missing(forkEntry.node, forkEntry.pointer, 'branches', `the fork of ${what}`);
  const branches = branchesEntry ? readForkBranches(r, branchesEntry, what) : [];
  if (!onComplete) return undefined;
  const t: Mutable<ForkTransition> = { event: base.event, eventLoc: base.eventLoc, loc: base.loc, kind: 'fork', branches, join, mode, onComplete };
  if (onFail) t.onFail = onFail;
  return t;
}

function readForkBranches(r: Reader, e: Entry, what: string): ForkBranch[] {
  if (!r.isObject(e.node, e.pointer, `\`branches\` of ${what}`)) return [];
  const out: ForkBranch[] = [];
  for (const b of r.entries(e.node, e.pointer, `the branches of ${what}`)) {
    const branchWhat = `fork branch \`${b.key}\``;
    if (!r.isObject(b.node, b.pointer, branchWhat)) continue;
    const f = r.fields(b.node, b.pointer, branchWhat, FORK_BRANCH_FIELDS);
    const initial = r.ref(f.get('initial'));
    const terminal = r.ref(f.get('terminal'));
    if (!f.has('initial')) r.missing(b.node, b.pointer, 'initial', branchWhat);
    if (!f.has('terminal')) r.missing(b.node, b.pointer, 'terminal', branchWhat);
    if (initial && terminal) out.push({ name: b.key, nameLoc: b.keyLoc, initial, terminal });
  }
  // Sequential mode runs branches in name order (code-unit order, like the reference's BTreeMap).
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

