/**
 * Rule 2: every target resolves (docs/statecharts.md, Targets: the nearest
 * state with that key, from the source's siblings outward; `a.b.c` then
 * descends). Transition targets, history defaults and interrupt targets (from
 * the root) are checked.
 */
import type { Diagnostic, NameRef, Workflow } from '../model/index.js';
import { resolveTarget } from '../statechart/targets.js';
import { closestName, didYouMean } from '../util/suggest.js';
import type { ChartIndex } from './chart-walk.js';

export const CHART_UNKNOWN_TARGET = 'chart-unknown-target';

/** A target, the node it is resolved from, and what it resolves to (resolved once here: rules 2 and 3 both need it). */
export interface TargetSite {
  readonly source: string;
  readonly ref: NameRef;
  readonly label: string;
  readonly to: string | undefined;
}

export function targetSites(index: ChartIndex): TargetSite[] {
  const { wf } = index;
  const out: TargetSite[] = [];
  for (const { source, t } of index.transitions) {
    for (const ref of t.targets) out.push(new Site(source, ref, resolveTarget(wf, source, ref), TRANSITION, t.trigger.kind === 'event' ? t.trigger.event : t.trigger.kind));
  }
  for (const site of index.sites) {
    const ref = site.node.historyDefault;
    if (ref) out.push(new Site(site.id, ref, resolveTarget(wf, site.id, ref), HISTORY, site.id));
  }
  for (const i of wf.interrupts) out.push(new Site('', i.target, resolveTarget(wf, '', i.target), INTERRUPT, i.name));
  return out;
}

const TRANSITION = 0;
const HISTORY = 1;
const INTERRUPT = 2;

/**
 * A site whose label is put together only when a message needs it (as in
 * sites.ts): a large chart has thousands of targets and nearly all resolve.
 */
class Site implements TargetSite {
  private text: string | undefined;
  constructor(
    readonly source: string,
    readonly ref: NameRef,
    readonly to: string | undefined,
    private readonly kind: number,
    /** The event (or the trigger's kind), the history state's id, or the interrupt's name. */
    private readonly name: string,
  ) {}

  get label(): string {
    if (this.text === undefined) {
      const { source, name } = this;
      this.text =
        this.kind === TRANSITION
          ? `\`${name}\` of ${source === '' ? 'the statechart' : `\`${source}\``}`
          : this.kind === HISTORY
            ? `the default of history \`${name}\``
            : `interrupt \`${name}\``;
    }
    return this.text;
  }
}

export function targetRule(wf: Workflow, sites: readonly TargetSite[], out: Diagnostic[]): void {
  for (const site of sites) {
    if (site.to !== undefined || skipped(wf, site.ref.name)) continue;
    out.push(unknownTarget(wf, site));
  }
}

function unknownTarget(wf: Workflow, site: TargetSite): Diagnostic {
  const { ref } = site;
  const base = { severity: 'error' as const, code: CHART_UNKNOWN_TARGET, loc: ref.loc };
  if (ref.name === '') return { ...base, message: `The target of ${site.label} is empty; name a state.` };
  const path = ref.name.split('.');
  const head = resolveTarget(wf, site.source, path[0] as string);
  if (head !== undefined) {
    // The first step resolves: a later one names no child.
    let at = head;
    for (let i = 1; i < path.length; i++) {
      const key = path[i] as string;
      const next = `${at}.${key}`;
      if (wf.states.get(next)?.parent !== at) {
        const children = (wf.states.get(at)?.children ?? []).map((id) => wf.states.get(id)?.key ?? id);
        const closest = closestName(key, children);
        return {
          ...base,
          message: `State \`${at}\` has no child \`${key}\` (target \`${ref.name}\` of ${site.label}).${didYouMean(closest)}`,
          ...(closest !== undefined ? { data: { closest: [...path.slice(0, i), closest].join('.') } } : {}),
        };
      }
      at = next;
    }
  }
  const visible = visibleKeys(wf, site.source);
  const closest = closestName(path[0] as string, visible);
  return {
    ...base,
    message:
      `No state \`${path[0]}\` is in reach of ${site.label}: a target names a sibling of the source or of one of its ancestors` +
      ` (a child is \`parent.child\`).${didYouMean(closest)}`,
    ...(closest !== undefined ? { data: { closest: [closest, ...path.slice(1)].join('.') } } : {}),
  };
}

/** The keys a plain name can reach from `source`: its siblings and each ancestor's (the root's: the top level). */
function visibleKeys(wf: Workflow, source: string): string[] {
  const keys = new Set<string>();
  const add = (ids: readonly string[]) => {
    for (const id of ids) keys.add(wf.states.get(id)?.key ?? id);
  };
  if (source === '') add(wf.topLevel);
  for (let at = source === '' ? undefined : wf.states.get(source); at; at = at.parent === undefined ? undefined : wf.states.get(at.parent)) {
    add(at.parent === undefined ? wf.topLevel : (wf.states.get(at.parent)?.children ?? []));
  }
  return [...keys];
}

/** A name whose first step is a state the loader left out (it said why). */
function skipped(wf: Workflow, name: string): boolean {
  const first = name.split('.')[0] as string;
  for (const id of wf.skippedStates ?? []) if (id === first || id.endsWith(`.${first}`) || id === name) return true;
  return false;
}
