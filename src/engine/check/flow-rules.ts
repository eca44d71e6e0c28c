/**
 * What a flow means, beyond what the loader reads (formats/flow.ts): tools
 * and their required arguments, targets, `goto` only on a switch, reserved
 * names, `file()` inside the workspace, reachability, cycles with no way out,
 * and `{{ var }}` that nothing defines (flow-vars.ts). Each rule has its own
 * code (docs/flows.md lists them).
 */
import * as path from 'node:path';
import type { Diagnostic, FlowOutput, FlowTask, SourceLoc, StateNode, Workflow } from '../model/index.js';
import type { RegistryLookup } from '../formats/flow-tool-registry.js';
import { closestName, didYouMean } from '../util/suggest.js';
import { toolCallRules } from './flow-tool-rules.js';
import { cyclicComponents } from './scc.js';
import { flowEdges, flowTargets, isTerminal, reachableStates } from './flow-graph.js';
import { undefinedVariableRule } from './flow-vars.js';

export interface FlowValidateOptions {
  /** The file's text: `{{ var }}` warnings then point at the template itself rather than the whole argument. */
  readonly text?: string;
  /** The custom tools the flow may name (`.stategate/flow-tools.yaml`); default: none. */
  readonly tools?: RegistryLookup;
}

export function validateFlow(wf: Workflow, opts: FlowValidateOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const tools = opts.tools ?? { kind: 'none' };
  startRule(wf, out);
  for (const s of wf.states.values()) {
    reservedNameRule(s, out);
    toolRules(s, tools, out);
    targetRule(wf, s, out);
    outputRule(s.flow?.output, out);
    for (const t of s.flow?.tasks ?? []) taskRules(t, tools, out);
  }
  for (const [name] of Object.entries(wf.flow?.variables ?? {})) {
    if (wf.flow?.variablesLoc) push(out, reservedDiagnostic(`variable \`${name}\``, name, wf.flow.variablesLoc));
  }
  const edges = flowEdges(wf);
  const reachable = reachableStates(wf, edges);
  // Judged once every target resolves: a misspelt target would make the state it meant look orphaned.
  if (wf.states.has(wf.initial.name) && !out.some((d) => d.code === 'flow-unknown-target')) {
    for (const s of wf.states.values()) {
      if (reachable.has(s.id)) continue;
      out.push({
        severity: 'warning',
        code: 'flow-unreachable-state',
        message: `State \`${s.id}\` is never reached from \`start-at\` (\`${wf.initial.name}\`) through \`next\`, \`on-error\`, \`goto\` or a parallel task. Route to it or remove it.`,
        loc: s.keyLoc,
      });
    }
  }
  cycleRule(wf, edges, out);
  undefinedVariableRule(wf, edges, reachable, opts.text, out);
  return out;
}

function startRule(wf: Workflow, out: Diagnostic[]): void {
  const start = wf.initial;
  if (start.name === '' || wf.states.has(start.name) || wf.skippedStates?.has(start.name)) return;
  out.push(unknownTarget(wf, `\`start-at\` names \`${start.name}\`, which is not a state of the flow.`, start.name, start.loc));
}

function targetRule(wf: Workflow, s: StateNode, out: Diagnostic[]): void {
  if (!s.flow) return;
  for (const { ref, route } of flowTargets(s.flow)) {
    if (wf.states.has(ref.name) || wf.skippedStates?.has(ref.name)) continue;
    const field = route === 'task' ? 'A parallel task' : `\`${route}\``;
    out.push(unknownTarget(wf, `${field} of \`${s.id}\` names \`${ref.name}\`, which is not a state of the flow.`, ref.name, ref.loc));
  }
}

function unknownTarget(wf: Workflow, message: string, name: string, loc: SourceLoc): Diagnostic {
  const closest = closestName(name, wf.states.keys());
  return { severity: 'error', code: 'flow-unknown-target', message: `${message}${didYouMean(closest)}`, loc, ...(closest === undefined ? {} : { data: { closest } }) };
}

function toolRules(s: StateNode, tools: RegistryLookup, out: Diagnostic[]): void {
  const step = s.flow;
  if (!step || step.tool === '') return; // a missing `tool` is the loader's missing-field
  toolCallRules(
    { tool: step.tool, toolLoc: step.toolLoc, arguments: step.arguments, argumentLocs: step.argumentLocs, missingLoc: s.fieldLocs?.arguments ?? s.keyLoc, where: `state \`${s.id}\``, hint: 'Add it under `arguments`.' },
    tools,
    out,
  );
  if (step.tool === 'switch' && step.goto.length === 0) {
    out.push({
      severity: 'error',
      code: 'flow-switch-without-goto',
      message: `Switch \`${s.id}\` has no \`goto\` route: it can go nowhere. Add \`goto:\` mapping values to states (\`_\` for any other value).`,
      loc: step.toolLoc,
    });
  }
  if (step.tool !== 'switch' && s.fieldLocs?.goto) {
    out.push({
      severity: 'error',
      code: 'flow-goto-not-switch',
      message: `\`goto\` belongs to the \`switch\` tool; \`${s.id}\` runs \`${step.tool}\`, which routes with \`next\` and \`on-error\`. Use \`next\`/\`on-error\`, or make this state a switch.`,
      loc: s.fieldLocs.goto,
    });
  }
}

function taskRules(t: FlowTask, tools: RegistryLookup, out: Diagnostic[]): void {
  if (t.kind !== 'call') return;
  toolCallRules({ tool: t.tool, toolLoc: t.toolLoc, arguments: t.arguments, missingLoc: t.toolLoc, where: 'a parallel task', hint: "Add it under the task's `arguments`." }, tools, out);
  outputRule(t.output, out);
}

/**
 * `/` is an error: it is how sub-flow states are addressed (`parent/child`), so
 * such a name would be ambiguous. A leading `_` is only a warning: FlowState
 * asks authors to avoid it (it may mean something in a later version), and
 * nothing in this runner gives it a meaning, so the flow still runs.
 */
function reservedDiagnostic(what: string, name: string, loc: SourceLoc): Diagnostic | undefined {
  if (name.includes('/')) {
    return {
      severity: 'error',
      code: 'flow-reserved-name',
      message: `The ${what} is reserved: a \`/\` addresses a sub-flow's states. Rename it.`,
      loc,
    };
  }
  if (!name.startsWith('_')) return undefined;
  return {
    severity: 'warning',
    code: 'flow-underscore-name',
    message: `The ${what} starts with \`_\`, which FlowState keeps for future use: a name without it is safer (it still runs today).`,
    loc,
  };
}

function push(out: Diagnostic[], d: Diagnostic | undefined): void {
  if (d) out.push(d);
}

function reservedNameRule(s: StateNode, out: Diagnostic[]): void {
  push(out, reservedDiagnostic(`state name \`${s.key}\``, s.key, s.keyLoc));
}

function outputRule(output: FlowOutput | undefined, out: Diagnostic[]): void {
  if (output?.kind === 'var') push(out, reservedDiagnostic(`variable name \`${output.name}\``, output.name, output.loc));
  if (output?.kind !== 'file' || insideWorkspace(output.path)) return;
  out.push({
    severity: 'error',
    code: 'flow-file-outside-workspace',
    message: `\`file(${output.path})\` is outside the workspace: output files are workspace-relative paths that stay inside it (no absolute path, no \`..\` out of it). The run refuses it and writes nothing.`,
    loc: output.loc,
  });
}

/** Relative, and not climbing out with `..` (either slash; a drive letter or UNC path is absolute). */
export function insideWorkspace(p: string): boolean {
  if (path.posix.isAbsolute(p) || path.win32.isAbsolute(p) || /^[A-Za-z]:/.test(p)) return false;
  const normal = path.posix.normalize(p.replace(/\\/g, '/'));
  return normal !== '..' && !normal.startsWith('../');
}

/**
 * A strongly connected set of states none of which can end the flow (no
 * terminal state) and none of which has an edge out of the set: once
 * entered, the flow runs forever. A `pause` in it does not count as an exit
 * (resuming goes round again).
 */
function cycleRule(wf: Workflow, edges: ReturnType<typeof flowEdges>, out: Diagnostic[]): void {
  const ids = [...wf.states.keys()];
  const index = new Map(ids.map((id, i) => [id, i]));
  const graph = ids.map((id) => (edges.get(id) ?? []).map((e) => index.get(e.to) as number));
  for (const component of cyclicComponents(ids.length, graph)) {
    const members = new Set(component.map((i) => ids[i] as string));
    const states = [...members].map((id) => wf.states.get(id) as StateNode);
    if (states.some(isTerminal)) continue;
    if (states.some((s) => (edges.get(s.id) ?? []).some((e) => !members.has(e.to)))) continue;
    const [first, ...rest] = states;
    if (!first) continue;
    out.push({
      severity: 'warning',
      code: 'flow-cycle-no-exit',
      message: `States ${states.map((s) => `\`${s.id}\``).join(', ')} form a cycle with no way out: none ends the flow and none routes outside the cycle, so once entered the flow never ends. Give one of them an exit (a state without \`next\`, or a route out).`,
      loc: first.keyLoc,
      related: rest.map((s) => ({ message: `\`${s.id}\` is in the cycle`, loc: s.keyLoc })),
    });
  }
}
