/**
 * The rules of stage pipelines (docs/pipelines.md "Validation"), for
 * Statewright workflows and statecharts alike. A stage is a state with
 * `completion_tool`; its completion picks the next stage through the
 * transition named like the tool. Each rule has its own code:
 *   stage-no-exit            a stage whose completion cannot move the run
 *   unknown-completion-tool  a transition on a completion tool the state does not offer
 *   invalid-completion-schema (stage-schema.ts)
 *   unknown-prompt-binding, invalid-prompt-template (stage-prompt.ts)
 *   invalid-turn-cap         turn_cap that is not a whole number of at least 1
 *   stage-not-atomic         a statechart node with children that has a completion_tool
 * Workflows without stage fields skip all of them at once.
 */
import type { ChartTransition, Diagnostic, SourceLoc, StateNode, Workflow } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import { completionSchemaRule } from './stage-schema.js';
import { promptRule } from './stage-prompt.js';

export const STAGE_NO_EXIT = 'stage-no-exit';
export const UNKNOWN_COMPLETION_TOOL = 'unknown-completion-tool';
export const INVALID_TURN_CAP = 'invalid-turn-cap';
export const STAGE_NOT_ATOMIC = 'stage-not-atomic';

export function stageRules(wf: Workflow, out: Diagnostic[]): void {
  const stages: StateNode[] = [];
  let fields = false;
  for (const s of wf.states.values()) {
    if (s.completionTool !== undefined) stages.push(s);
    if (s.completionTool !== undefined || s.prompt || s.completionSchema || s.turnCap !== undefined) fields = true;
  }
  if (!fields) return;
  for (const s of wf.states.values()) {
    if (s.completionTool !== undefined) noExitRule(wf, s, out);
    completionSchemaRule(s, out);
    if (s.prompt) promptRule(wf, s, s.prompt, out);
    turnCapRule(s, out);
  }
  if (stages.length) unknownToolRule(wf, stages, out);
}

/** Where to report about a field: its value, else the state's key. */
function fieldLoc(s: StateNode, field: string): SourceLoc {
  return s.fieldLocs?.[field] ?? s.keyLoc;
}

/**
 * A valid completion ends the stage and fires the event named like the tool:
 * the state (or, in a statechart, an ancestor: events bubble up) needs a
 * transition on it, or the run would sit in a finished stage forever. A final
 * state is never worked in, so it never offers its tool.
 */
function noExitRule(wf: Workflow, s: StateNode, out: Diagnostic[]): void {
  const tool = s.completionTool as string;
  if (s.children.length) {
    // The agent works in the active atomic node (pipeline/positions.ts): a compound or parallel node's stage would never start.
    out.push({
      severity: 'error',
      code: STAGE_NOT_ATOMIC,
      message: `State \`${s.id}\` has child states: a stage runs in an atomic state (one without children), where the agent works, so its completion tool \`${tool}\` would never be offered. Move the stage fields to the child state the work happens in.`,
      loc: fieldLoc(s, 'completion_tool'),
    });
    return;
  }
  if (s.kind === 'final') {
    out.push({
      severity: 'error',
      code: STAGE_NO_EXIT,
      message: `State \`${s.id}\` is final: a run ends when it gets there, so its completion tool \`${tool}\` is never offered. Move the stage fields to a state before it.`,
      loc: fieldLoc(s, 'completion_tool'),
    });
    return;
  }
  if (handles(wf, s, tool)) return;
  const other = otherEvents(wf, s);
  const closest = closestName(tool, other);
  out.push({
    severity: 'error',
    code: STAGE_NO_EXIT,
    message:
      `Stage \`${s.id}\` has no way out: its completion tool \`${tool}\` ends the stage, and the transition named \`${tool}\` picks the next stage, but ${wf.format === 'statechart' ? 'neither the state nor an ancestor has one' : 'the state has none'}. ` +
      `Add \`${tool}\` under \`on\` with the next stage as its target.${closest === undefined ? '' : ` (\`${closest}\` is there: rename it?)`}`,
    loc: fieldLoc(s, 'completion_tool'),
    data: { tool },
  });
}

/** Whether an event `name` sent in state `s` has a transition (a statechart's `*` matches every sent event). */
function handles(wf: Workflow, s: StateNode, name: string): boolean {
  if (wf.format !== 'statechart') return s.on.some((t) => t.event === name);
  for (let at: StateNode | undefined = s; at; at = at.parent === undefined ? undefined : wf.states.get(at.parent)) {
    if (at.chart?.transitions.some((t) => t.trigger.kind === 'event' && (t.trigger.event === name || t.trigger.event === '*'))) return true;
  }
  return wf.chart?.root.transitions.some((t) => t.trigger.kind === 'event' && (t.trigger.event === name || t.trigger.event === '*')) ?? false;
}

/** The events a state's own transitions are on. */
function otherEvents(wf: Workflow, s: StateNode): string[] {
  if (wf.format !== 'statechart') return s.on.map((t) => t.event);
  return (s.chart?.transitions ?? []).flatMap((t) => (t.trigger.kind === 'event' ? [t.trigger.event] : []));
}

interface EventSite {
  readonly owner?: StateNode;
  readonly event: string;
  readonly loc: SourceLoc;
}

/** Every event transition with its state (statecharts: the chart root's own have no state), once per event key. */
function eventSites(wf: Workflow): EventSite[] {
  const out: EventSite[] = [];
  const seen = new Set<SourceLoc>(); // a chart event's candidates share their key's range
  const chartSites = (owner: StateNode | undefined, transitions: readonly ChartTransition[]): void => {
    for (const t of transitions) {
      if (t.trigger.kind !== 'event' || (t.eventLoc && seen.has(t.eventLoc))) continue;
      if (t.eventLoc) seen.add(t.eventLoc);
      out.push({ ...(owner ? { owner } : {}), event: t.trigger.event, loc: t.eventLoc ?? t.loc });
    }
  };
  chartSites(undefined, wf.chart?.root.transitions ?? []);
  for (const s of wf.states.values()) {
    for (const t of s.on) out.push({ owner: s, event: t.event, loc: t.eventLoc });
    chartSites(s, s.chart?.transitions ?? []);
  }
  return out;
}

/**
 * A transition on a completion tool's name fires when a stage in reach
 * completes with that tool. Reported: a transition on the completion tool of
 * another stage that this state (statecharts: this node or a state inside it)
 * does not offer, and a near miss of a completion tool's name that no state
 * offers (`submit_pln` beside `submit_plan`).
 */
function unknownToolRule(wf: Workflow, stages: readonly StateNode[], out: Diagnostic[]): void {
  const offeredBy = new Map<string, StateNode[]>();
  for (const s of stages) offeredBy.set(s.completionTool as string, [...(offeredBy.get(s.completionTool as string) ?? []), s]);
  const tools = [...offeredBy.keys()];
  for (const site of eventSites(wf)) {
    const offering = offeredBy.get(site.event);
    const owner = site.owner;
    if (offering) {
      if (offering.some((s) => owner === undefined || s.id === owner.id || s.id.startsWith(`${owner.id}.`))) continue;
      const where = owner ? `state \`${owner.id}\`` : 'the chart';
      const mine = owner?.completionTool;
      out.push({
        severity: 'error',
        code: UNKNOWN_COMPLETION_TOOL,
        message:
          `\`${site.event}\` is the completion tool of ${offering.map((s) => `\`${s.id}\``).join(', ')}, not of ${where}` +
          `${mine === undefined ? '' : ` (whose tool is \`${mine}\`)`}: this transition never fires from a completion. Use the tool of ${where}, or move the transition.`,
        loc: site.loc,
        related: offering.map((s) => ({ message: `\`${s.id}\` offers \`${site.event}\``, loc: fieldLoc(s, 'completion_tool') })),
        data: { tool: site.event },
      });
      continue;
    }
    if (site.event === '*') continue;
    const closest = closestName(site.event, tools);
    if (closest === undefined || closest.toLowerCase() === site.event.toLowerCase()) continue;
    out.push({
      severity: 'error',
      code: UNKNOWN_COMPLETION_TOOL,
      message: `No stage offers a completion tool \`${site.event}\`, so this transition never fires from a completion.${didYouMean(closest)}`,
      loc: site.loc,
      data: { closest },
    });
  }
}

/** Turns are counted whole, and a cap below 1 would fail the stage before its first turn. */
function turnCapRule(s: StateNode, out: Diagnostic[]): void {
  const cap = s.turnCap;
  if (cap === undefined || (Number.isInteger(cap) && cap >= 1)) return;
  out.push({
    severity: 'error',
    code: INVALID_TURN_CAP,
    message: `\`turn_cap\` is the number of model turns the stage may take: a whole number of at least 1; found ${cap}. Leave it out for no cap.`,
    loc: fieldLoc(s, 'turn_cap'),
  });
}
