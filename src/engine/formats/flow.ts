/**
 * FlowState flows (`*.flow.yaml|yml|json`) -> the IR: each state an atomic
 * node whose `flow` is its tool call, `start-at` the initial state, the
 * `variables` their defaults (Workflow.flow). YAML and JSON are read into the
 * same tree (yaml-tree.ts, jsonc.ts), so every diagnostic has a JSON pointer
 * and an exact range. Bad input never throws: problems become diagnostics and
 * the malformed part is skipped. What the flow means is check/flow-rules.ts's.
 */
import { kindBaseName } from './file-kinds.js';
import type { JsonValue, StateNode, Workflow } from '../model/index.js';
import { FLOW_FIELDS } from './flow-fields.js';
import { readFlowState } from './flow-state.js';
import { nodeLoc, nodeValue, ownerLoc, parseJsonc } from './jsonc.js';
import { Reader } from './reader.js';
import type { LoadOptions, LoadResult } from './statewright.js';
import { readMeta } from './statewright.js';
import { parseYamlTree } from './yaml-tree.js';

export function loadFlow(text: string, opts: LoadOptions = {}): LoadResult {
  const json = opts.file !== undefined ? /\.json$/i.test(opts.file) : /^\ufeff?\s*\{/.test(text);
  const parsed = json ? parseJsonc(text) : parseYamlTree(text);
  const r = new Reader();
  // The YAML reader's "empty file" message speaks of statecharts; a flow says what a flow needs.
  r.diagnostics.push(...parsed.diagnostics.map((d) => (d.code === 'yaml-syntax' && /^The file is empty/.test(d.message) ? { ...d, message: EMPTY } : d)));
  const root = parsed.root;
  if (!root) return { diagnostics: r.diagnostics };
  if (root.type !== 'object') {
    r.report('error', 'invalid-type', `A flow file is an object: ${EMPTY.replace(/^The file is empty: /, '')}`, nodeLoc(root, ''));
    return { diagnostics: r.diagnostics, root };
  }
  const f = r.fields(root, '', 'the flow', FLOW_FIELDS);
  const statesEntry = f.get('states');
  if (!statesEntry) {
    r.missing(root, '', 'states', 'the flow', ' Add `states:` with at least one state (`tool`, `arguments`).');
    return { diagnostics: r.diagnostics, root };
  }
  if (!r.isObject(statesEntry.node, statesEntry.pointer, '`states`')) return { diagnostics: r.diagnostics, root };
  const startEntry = f.get('start-at');
  if (!startEntry) r.missing(root, '', 'start-at', 'the flow', ' Add `start-at:` naming the first state.');
  const start = r.ref(startEntry);
  const states = new Map<string, StateNode>();
  const skipped = new Set<string>();
  for (const e of r.entries(statesEntry.node, statesEntry.pointer, '`states`', 'duplicate-state')) {
    if (!r.isObject(e.node, e.pointer, `State \`${e.key}\``)) {
      skipped.add(e.key);
      continue;
    }
    states.set(e.key, readFlowState(r, e));
  }
  const name = r.string(f.get('name'));
  const description = r.string(f.get('description'));
  const variablesEntry = f.get('variables');
  const variables = variablesEntry && r.isObject(variablesEntry.node, variablesEntry.pointer, '`variables`') ? (nodeValue(variablesEntry.node) as Record<string, JsonValue>) : {};
  const workflow: Workflow = {
    format: 'flow',
    id: name ?? flowId(opts.file),
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    // An empty name marks a missing `start-at` (reported above).
    initial: start ?? { name: '', loc: ownerLoc(root, '') },
    context: {},
    meta: readMeta(r, undefined),
    states,
    topLevel: [...states.keys()],
    guards: new Map(),
    interrupts: [],
    loc: nodeLoc(root, ''),
    skippedStates: skipped,
    statesLoc: statesEntry.keyLoc,
    flow: { variables, ...(variablesEntry ? { variablesLoc: variablesEntry.keyLoc } : {}) },
  };
  return { workflow, diagnostics: r.diagnostics, root };
}

const EMPTY = 'The file is empty: a flow has `start-at` (the first state) and `states` (each a `tool` with `arguments`).';

/** `deploy` for `deploy.flow.yaml` and for a plain `deploy.yaml`; `flow` without a file. */
function flowId(file: string | undefined): string {
  return file === undefined ? 'flow' : kindBaseName(file) || 'flow';
}
