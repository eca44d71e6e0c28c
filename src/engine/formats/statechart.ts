/**
 * AGENT-33 statecharts (`*.statechart.yaml|yml|json`, top key `statechart`)
 * -> the IR, with a source location on every node. YAML is read by the `yaml`
 * package into the same tree jsonc-parser builds for JSON (yaml-tree.ts), so
 * everything below reads both syntaxes the same way and every pointer is an
 * RFC 6901 JSON pointer (`/statechart/states/review/on/SUBMIT/0/guard`).
 * Bad input never throws: problems become diagnostics and the malformed part is
 * skipped. What the chart means (targets, reachability, ...) is validation's
 * (check/chart.ts); the loader only reads.
 */
import type { ChartDef, Workflow } from '../model/index.js';
import { nodeLoc, parseJsonc } from './jsonc.js';
import { Reader, type Entry } from './reader.js';
import { readNamedActions } from './statechart-actions.js';
import { CHART_FIELDS, DOCUMENT_FIELDS } from './statechart-fields.js';
import { ChartNodes, readBehaviour, readChartMeta } from './statechart-nodes.js';
import { readRegistry, readServices } from './statechart-registry.js';
import { readAgentList, readEnvDecl } from './statechart-env.js';
import { readHandlers } from './statechart-handlers.js';
import type { LoadOptions, LoadResult } from './statewright.js';
import { identity, readInterrupts, readMeta, readVersion } from './statewright.js';
import { parseYamlTree } from './yaml-tree.js';

export function loadStatechart(text: string, opts: LoadOptions = {}): LoadResult {
  const parsed = isJson(text, opts.file) ? parseJsonc(text) : parseYamlTree(text);
  const r = new Reader();
  r.diagnostics.push(...parsed.diagnostics);
  const root = parsed.root;
  if (!root) return { diagnostics: r.diagnostics };
  if (root.type !== 'object') {
    r.report('error', 'invalid-type', 'A statechart file is an object with one top key, `statechart`, holding the chart (`id`, `initial`, `states`).', nodeLoc(root, ''));
    return { diagnostics: r.diagnostics, root };
  }
  const top = r.fields(root, '', 'the file', DOCUMENT_FIELDS);
  const chart = top.get('statechart');
  if (!chart) {
    r.missing(root, '', 'statechart', 'the file', ' Put the chart under the top key `statechart` (`statechart: {id, initial, states}`).');
    return { diagnostics: r.diagnostics, root };
  }
  if (!r.isObject(chart.node, chart.pointer, '`statechart`')) return { diagnostics: r.diagnostics, root };
  const workflow = readChart(r, chart);
  return workflow ? { workflow, diagnostics: r.diagnostics, root } : { diagnostics: r.diagnostics, root };
}

/** JSON by the file's extension; without a file, JSON when the text starts with `{`. */
function isJson(text: string, file: string | undefined): boolean {
  if (file !== undefined && /\.ya?ml$/i.test(file)) return false;
  if (file !== undefined && /\.json$/i.test(file)) return true;
  return /^\ufeff?\s*\{/.test(text);
}

function readChart(r: Reader, e: Entry): Workflow | undefined {
  const { node, pointer } = e;
  const f = r.fields(node, pointer, 'the statechart', CHART_FIELDS);
  const statesEntry = f.get('states');
  if (!statesEntry) {
    r.missing(node, pointer, 'states', 'the statechart', ' Add `states:` with at least one state.');
    return undefined;
  }
  if (!r.isObject(statesEntry.node, statesEntry.pointer, '`states` of the statechart')) return undefined;
  const idEntry = f.get('id');
  const id = r.string(idEntry);
  const name = r.string(f.get('name'));
  const description = r.string(f.get('description'));
  const version = readVersion(r, f.get('version'));
  // A missing or misspelt `initial` is rule 1's to report (check/chart-initial.ts); '' marks it missing.
  const initial = r.ref(f.get('initial'));
  const nodes = new ChartNodes(r);
  const topLevel = nodes.readChildren(statesEntry, undefined, false);
  const skippedActions = new Set<string>();
  const services = readServices(r, f.get('services'));
  const rootMeta = readChartMeta(r, f.get('meta'));
  const env = readEnvDecl(r, f.get('env'));
  const agents = readAgentList(r, f.get('agents'), 'the chart\'s `agents`');
  const handlers = readHandlers(r, f.get('handlers'));
  const chart: ChartDef = {
    root: { ...readBehaviour(r, f, '', 'the statechart', 'compound'), ...(rootMeta ? { meta: rootMeta } : {}) },
    actions: readNamedActions(r, f.get('actions'), skippedActions),
    machineRegistry: readRegistry(r, f.get('machine_registry')),
    ...(services ? { services } : {}),
    ...(f.get('version') ? { versionLoc: nodeLoc((f.get('version') as Entry).node, (f.get('version') as Entry).pointer) } : {}),
    ...(env ? { env } : {}),
    ...(agents ? { agents } : {}),
    ...(handlers ? { handlers } : {}),
    skippedActions,
  };
  return {
    format: 'statechart',
    ...identity({ idEntry, id, name, description, version, initial }, node, pointer),
    context: r.jsonObject(f.get('context')) ?? {},
    meta: readMeta(r, f.get('meta')),
    states: nodes.states,
    topLevel,
    guards: new Map(),
    interrupts: readInterrupts(r, f.get('interrupts')),
    loc: nodeLoc(node, pointer),
    skippedStates: nodes.skipped,
    statesLoc: statesEntry.keyLoc,
    chart,
  };
}
