/**
 * Quick fixes for a statechart's diagnostics, by code:
 * - any diagnostic with `data.closest` (a misspelt target, `initial`, action): change to it
 * - chart-unknown-target: create the state beside the transition's node
 * - unknown action: create it under the chart's `actions`
 * - chart-initial without `initial`: add one (the first child)
 * - chart-region-final: add a final state to the region
 * - chart-env-undeclared: declare the variable under the chart's `env:` (when it is a map, or absent)
 */
import { CHART_ENV_UNDECLARED } from '../../check/chart-env.js';
import { CHART_UNKNOWN_ACTION } from '../../check/chart-actions.js';
import { CHART_INITIAL } from '../../check/chart-initial.js';
import { CHART_REGION_FINAL } from '../../check/chart-region-final.js';
import { CHART_UNKNOWN_TARGET } from '../../check/chart-targets.js';
import type { Diagnostic, StateNode } from '../../model/index.js';
import type { CodeFix } from '../quickfix.js';
import { applyEdits, diffEdit } from '../edits.js';
import { insertEntry } from './insert.js';
import type { ChartModel } from './occurrences.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function chartQuickFixes(m: ChartModel, text: string, json: boolean, d: Diagnostic): CodeFix[] {
  const fixes: CodeFix[] = [];
  const closest = d.data?.['closest'];
  const written = text.slice(d.loc.start, d.loc.end);
  if (typeof closest === 'string' && d.loc.end > d.loc.start) fixes.push({ title: `Change to \`${closest}\``, edits: [{ start: d.loc.start, end: d.loc.end, newText: closest }], preferred: true });
  const { wf } = m;
  switch (d.code) {
    case CHART_UNKNOWN_TARGET: {
      const site = m.sites.find((s) => s.ref.loc.start === d.loc.start);
      if (!site || !NAME.test(written)) break;
      const parent = site.source === '' ? undefined : wf.states.get(site.source)?.parent;
      const edits = insertEntry(text, json, statesPointer(parent === undefined ? undefined : wf.states.get(parent)), written, {});
      if (edits.length) fixes.push({ title: `Create state \`${written}\`${parent ? ` in \`${parent}\`` : ''}`, edits });
      break;
    }
    case CHART_UNKNOWN_ACTION: {
      if (!NAME.test(written)) break;
      const edits = insertEntry(text, json, '/statechart/actions', written, { type: 'log', message: `TODO: ${written}` });
      if (edits.length) fixes.push({ title: `Create action \`${written}\``, edits });
      break;
    }
    case CHART_INITIAL: {
      if (d.data?.['field'] !== 'initial') break;
      const state = [...wf.states.values()].find((s) => s.keyLoc.start === d.loc.start);
      const first = state ? wf.states.get(state.children[0] ?? '') : wf.states.get(wf.topLevel[0] ?? '');
      if (!first) break;
      const edits = insertEntry(text, json, state ? state.loc.pointer : '/statechart', 'initial', first.key);
      if (edits.length) fixes.push({ title: `Add \`initial: ${first.key}\``, edits, preferred: true });
      break;
    }
    case CHART_ENV_UNDECLARED: {
      const name = d.data?.['name'];
      if (typeof name !== 'string') break;
      const env = m.wf.chart?.env;
      const listed = env !== undefined && envIsList(text, json, env[0]?.loc.start);
      // A list of names is left to the "Change to" fix and to the author (where to add an item depends on its style).
      if (listed) break;
      const edits = env === undefined ? insertEntry(text, json, '/statechart', 'env', [name]) : insertEntry(text, json, '/statechart/env', name, null);
      if (edits.length) fixes.push({ title: `Declare \`${name}\` under \`env:\``, edits });
      break;
    }
    case CHART_REGION_FINAL: {
      const region = wf.states.get(String(d.data?.['region'] ?? ''));
      if (!region) break;
      let name = 'done';
      for (let i = 2; wf.states.has(`${region.id}.${name}`); i++) name = `done_${i}`;
      // Lead to it from a dead end of the region (else its last state), so the new state is not unreachable.
      const children = region.children.map((id) => wf.states.get(id)).filter((c): c is StateNode => c !== undefined && c.kind !== 'final' && c.kind !== 'history');
      const from = children.find((c) => !c.chart?.transitions.length) ?? children[children.length - 1];
      let out = applyEdits(text, insertEntry(text, json, statesPointer(region), name, { type: 'final' }));
      let event = 'DONE';
      if (from) {
        for (let i = 2; from.chart?.transitions.some((t) => t.trigger.kind === 'event' && t.trigger.event === event); i++) event = `DONE_${i}`;
        out = applyEdits(out, insertEntry(out, json, `${from.loc.pointer}/on`, event, name));
      }
      const edits = diffEdit(text, out);
      const via = from ? ` (reached from \`${from.key}\` on \`${event}\`)` : '';
      if (edits.length) fixes.push({ title: `Add final state \`${name}\` to region \`${region.key}\`${via}`, edits, preferred: true });
      break;
    }
  }
  return fixes;
}

/** Whether the chart's `env:` is written as a list (its first name's position tells; an empty `env` reads as a map). */
function envIsList(text: string, json: boolean, firstAt: number | undefined): boolean {
  if (firstAt === undefined) return false;
  // A list item is preceded by `[`, `,` or `- ` (after its quote, if any); a map key is followed by `:`.
  const before = text.slice(0, firstAt).replace(/["']$/, '').trimEnd();
  return before.endsWith('[') || before.endsWith(',') || (!json && before.endsWith('-'));
}

/** The pointer of a node's `states` (the chart's for undefined). */
function statesPointer(node: StateNode | undefined): string {
  return node ? `${node.loc.pointer}/states` : '/statechart/states';
}
