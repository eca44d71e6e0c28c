/**
 * Statewright workflow JSON (comments and trailing commas tolerated, gateway
 * wrapper `{"definition": {...}}` unwrapped) -> the IR, with a source location
 * on every node. Bad input never throws: problems become diagnostics and the
 * malformed part is skipped, so editors still get an IR for the rest.
 */
import type {
  Diagnostic,
  GuardDef,
  GuardOp,
  InterruptDef,
  JsonObject,
  ModelRung,
  NameRef,
  SourceLoc,
  StateKind,
  StateNode,
  StateRules,
  Transition,
  Workflow,
  WorkflowMeta,
} from '../model/index.js';
import { AGENT_ACTS, GUARD_OPS, type AgentAct } from '../model/index.js';
import { closestName, didYouMean } from '../util/suggest.js';
import { childPointer, nodeLoc, nodeValue, ownerLoc, parseJsonc, type JsonNode } from './jsonc.js';
import { fieldsOf, Reader, type Entry, type Fields } from './reader.js';
import { globProblem } from '../util/paths/globs.js';
import {
  APPROVAL_MODES,
  DANGER_LEVELS,
  GUARD_FIELDS,
  INTERRUPT_FIELDS,
  MODEL_RUNG_FIELDS,
  RULE_FIELDS,
  STATE_FIELDS,
  STATE_TYPES,
  TRIGGER_FIELDS,
  WORKFLOW_FIELDS,
} from './statewright-fields.js';
import { readTransition } from './statewright-transitions.js';
import { readStage, STAGE_ALIAS_NAMES, withStageAliases, type StageFields } from './stage-read.js';

const STATE_FIELDS_AND_ALIASES: readonly string[] = [...STATE_FIELDS, ...STAGE_ALIAS_NAMES];
import { NO_ENTRIES, NONE } from './shared-empty.js';
import { looksLikeJson } from './format-sniff.js';
import { parseYamlTree } from './yaml-tree.js';

export interface LoadResult {
  readonly workflow?: Workflow;
  readonly diagnostics: Diagnostic[];
  /** The parsed tree (for schema validation and editor features); absent for empty input. */
  readonly root?: JsonNode;
}

export interface LoadOptions {
  /** The file's path, for messages; not read. */
  readonly file?: string;
}

export function loadStatewright(text: string, opts: LoadOptions = {}): LoadResult {
  // A workflow in a `.yaml` file (recognised by its `initial` and `states`) reads into the same tree;
  // without a name (a run re-reading its definition), YAML is text that opens as a workflow mapping.
  const yaml = opts.file !== undefined ? /\.ya?ml$/i.test(opts.file) : !looksLikeJson(text, undefined) && /^(?:initial|states|id|definition)[ \t]*:/m.test(text);
  const parsed = yaml ? parseYamlTree(text) : parseJsonc(text);
  const r = new Reader();
  r.diagnostics.push(...parsed.diagnostics);
  const root = parsed.root;
  if (!root) return { diagnostics: r.diagnostics };
  if (root.type !== 'object') {
    r.report('error', 'invalid-type', 'A workflow file must be a JSON object with `id`, `initial` and `states`.', nodeLoc(root, ''));
    return { diagnostics: r.diagnostics, root };
  }
  const { node, pointer } = unwrap(root);
  if (!node) {
    r.report('error', 'invalid-type', '`definition` must be the workflow object.', definitionLoc(root));
    return { diagnostics: r.diagnostics, root };
  }
  const workflow = readWorkflow(r, node, pointer);
  return workflow ? { workflow, diagnostics: r.diagnostics, root } : { diagnostics: r.diagnostics, root };
}

function definitionLoc(root: JsonNode): SourceLoc {
  const value = [...(root.children ?? [])].reverse().find((p) => p.children?.[0]?.value === 'definition')?.children?.[1];
  return value ? nodeLoc(value, '/definition') : nodeLoc(root, '');
}

/**
 * Gateway config files wrap the workflow: `{"definition": {...}, "upstream_servers": [...]}`.
 * The wrapper's other keys belong to the gateway, so they are not checked here.
 */
function unwrap(root: JsonNode): { node?: JsonNode; pointer: string } {
  const keys = (root.children ?? []).map((p) => p.children?.[0]?.value);
  if (!keys.includes('definition') || keys.includes('states')) return { node: root, pointer: '' };
  const def = [...(root.children ?? [])].reverse().find((p) => p.children?.[0]?.value === 'definition')?.children?.[1];
  return def?.type === 'object' ? { node: def, pointer: '/definition' } : { pointer: '/definition' };
}

function readWorkflow(r: Reader, node: JsonNode, pointer: string): Workflow | undefined {
  const f = r.fields(node, pointer, 'the workflow', WORKFLOW_FIELDS);
  const statesEntry = f.get('states');
  if (!statesEntry) {
    r.missing(node, pointer, 'states', 'The workflow', ' Add `"states": { ... }` with at least one state.');
    return undefined;
  }
  if (!r.isObject(statesEntry.node, statesEntry.pointer, '`states`')) return undefined;

  const idEntry = f.get('id');
  const id = r.string(idEntry);
  if (!idEntry) r.missing(node, pointer, 'id', 'The workflow', ' Add `"id": "<workflow-id>"`; invoke and resume find workflows by it.');
  const initial = r.ref(f.get('initial'));
  if (!f.has('initial')) r.missing(node, pointer, 'initial', 'The workflow', ' Add `"initial": "<state>"`.');
  const name = r.string(f.get('name'));
  const description = r.string(f.get('description'));
  const version = readVersion(r, f.get('version'));
  const skippedStates = new Set<string>();
  const skippedGuards = new Set<string>();
  const states = readStates(r, statesEntry, skippedStates);

  return {
    format: 'statewright',
    ...identity({ idEntry, id, name, description, version, initial }, node, pointer),
    context: r.jsonObject(f.get('context')) ?? {},
    meta: readMeta(r, f.get('meta')),
    states,
    topLevel: [...states.keys()],
    guards: readGuards(r, f.get('guards'), skippedGuards),
    interrupts: readInterrupts(r, f.get('interrupts')),
    loc: nodeLoc(node, pointer),
    skippedStates,
    skippedGuards,
    statesLoc: statesEntry.keyLoc,
  };
}

/** What identifies a workflow, as read (by each format in its own order), with absent values left out. */
export interface IdentityFields {
  readonly idEntry: Entry | undefined;
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly description: string | undefined;
  readonly version: string | number | undefined;
  readonly initial: NameRef | undefined;
}

/** The identifying fields of a Workflow (Statewright's and the statechart loader's). */
export function identity(f: IdentityFields, node: JsonNode, pointer: string): Pick<Workflow, 'id' | 'idLoc' | 'name' | 'description' | 'version' | 'initial'> {
  const { idEntry, id, name, description, version, initial } = f;
  return {
    id: id ?? '',
    ...(idEntry && id !== undefined ? { idLoc: nodeLoc(idEntry.node, idEntry.pointer) } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(version !== undefined ? { version } : {}),
    // An empty name marks a missing/invalid `initial` (already reported); it points at the workflow's owner.
    initial: initial ?? { name: '', loc: ownerLoc(node, pointer) },
  };
}

/** `version`: a string or a number (the registry manifest's too). */
export function readVersion(r: Reader, e: Entry | undefined): string | number | undefined {
  if (!e) return undefined;
  if (e.node.type === 'number' || e.node.type === 'string') return e.node.value as string | number;
  r.report('error', 'invalid-type', '`version` must be a string or a number.', nodeLoc(e.node, e.pointer));
  return undefined;
}

function readStates(r: Reader, statesEntry: Entry, skipped: Set<string>): Map<string, StateNode> {
  const states = new Map<string, StateNode>();
  for (const e of r.entries(statesEntry.node, statesEntry.pointer, '`states`', 'duplicate-state')) {
    if (e.node.type !== 'object' && !r.isObject(e.node, e.pointer, `State \`${e.key}\``)) {
      skipped.add(e.key);
      continue;
    }
    states.set(e.key, readState(r, e));
  }
  return states;
}

function readState(r: Reader, e: Entry): StateNode {
  const what = `state \`${e.key}\``;
  // The stage fields' camelCase spellings (allowedTools, completionTool, ...) are read as the snake_case ones.
  const f = withStageAliases(r, r.fields(e.node, e.pointer, what, STATE_FIELDS_AND_ALIASES), what);
  const safeNext = r.ref(f.get('safe_next'));
  const stage: StageFields = {};
  readStage(r, f, stage);
  const fieldLocs: Record<string, SourceLoc> = {};
  for (const entry of f.list) fieldLocs[entry.key] = nodeLoc(entry.node, entry.pointer);
  // Built step by step rather than with conditional spreads (a large workflow has thousands of states);
  // the fields are read, and problems reported, in the same order, and the keys keep the same order.
  const state: { -readonly [K in keyof StateNode]: StateNode[K] } = {
    key: e.key,
    id: e.key,
    kind: readKind(r, f.get('type')),
    children: [],
    rules: readRules(r, f),
    on: readOn(r, f.get('on'), e.key),
  } as Partial<StateNode> as { -readonly [K in keyof StateNode]: StateNode[K] };
  if (safeNext) state.safeNext = safeNext;
  Object.assign(state, stage);
  state.keyLoc = e.keyLoc;
  state.loc = nodeLoc(e.node, e.pointer);
  state.fieldLocs = fieldLocs;
  return state;
}

function readKind(r: Reader, e: Entry | undefined): StateKind {
  if (e?.node.value === 'parallel') {
    r.report(
      'error',
      'unsupported-state-type',
      '`"type": "parallel"` is reserved for statecharts; a Statewright state runs parallel work with a `fork` transition. The state is read as a normal state.',
      nodeLoc(e.node, e.pointer),
    );
    return 'atomic';
  }
  return r.oneOf(e, STATE_TYPES) === 'final' ? 'final' : 'atomic'; // "normal", "atomic", absent, or invalid (reported)
}

/** Every field readRules reads, as a set (the fast path below returns NO_RULES when a node has none of them). */
const RULE_FIELD_SET: ReadonlySet<string> = new Set(RULE_FIELDS);

/** What readRules gives a node without rule fields, shared (most nodes of a large statechart have none). */
const NO_RULES: StateRules = Object.freeze({ disallowedTools: NONE, blockedEnv: NONE, envOverrides: NO_ENTRIES });

export function readRules(r: Reader, f: Fields): StateRules {
  if (!hasRuleField(f)) return NO_RULES;
  const rules: { -readonly [K in keyof StateRules]: StateRules[K] } = {
    disallowedTools: r.stringArray(f.get('disallowed_tools')) ?? [],
    // `deny_env` / `env` are the reference's aliases; when both spellings are written the canonical one wins.
    blockedEnv: r.stringArray(f.get('blocked_env') ?? f.get('deny_env')) ?? [],
    envOverrides: r.stringRecord(f.get('env_overrides') ?? f.get('env')) ?? {},
  };
  // Read in this order (it is the order problems are reported in); absent values are left out.
  put(rules, 'instructions', r.string(f.get('instructions')));
  put(rules, 'allowedTools', r.stringArray(f.get('allowed_tools')));
  put(rules, 'allowedCommands', r.stringArray(f.get('allowed_commands')));
  put(rules, 'allowedCommandsTool', r.string(f.get('allowed_commands_tool')));
  put(rules, 'maxIterations', r.number(f.get('max_iterations')));
  put(rules, 'maxEditLines', r.number(f.get('max_edit_lines')));
  put(rules, 'maxFilesPerState', r.number(f.get('max_files_per_state')));
  put(rules, 'contextBudgetBytes', r.number(f.get('context_budget_bytes')));
  put(rules, 'allowedPaths', readGlobs(r, f.get('allowed_paths')));
  put(rules, 'deniedPaths', readGlobs(r, f.get('denied_paths')));
  put(rules, 'network', r.boolean(f.get('network')));
  put(rules, 'model', r.string(f.get('model')));
  put(rules, 'thinkingLevel', r.string(f.get('thinking_level')));
  put(rules, 'modelLadder', readModelLadder(r, f.get('model_ladder')));
  return rules;
}

/**
 * `allowed_paths` / `denied_paths` (our addition, util/paths/scope.ts): a glob
 * picomatch cannot read is an `invalid-glob` error at its own range, and is
 * kept (at run time it fails closed: it admits nothing, and denies everything).
 */
function readGlobs(r: Reader, e: Entry | undefined): string[] | undefined {
  const items = r.refArray(e);
  if (!items || !e) return undefined;
  for (const item of items) {
    const problem = globProblem(item.name);
    if (problem) r.report('error', 'invalid-glob', `\`${item.name}\` in \`${e.key}\` is not a usable glob: ${problem}.`, item.loc);
  }
  return items.map((i) => i.name);
}

function hasRuleField(f: Fields): boolean {
  const list = f.list;
  for (let i = 0; i < list.length; i++) if (RULE_FIELD_SET.has((list[i] as Entry).key)) return true;
  return false;
}

/** Sets an optional field only when it has a value (so absent ones stay absent, not undefined). */
function put<K extends keyof StateRules>(rules: { -readonly [P in keyof StateRules]: StateRules[P] }, key: K, value: StateRules[K] | undefined): void {
  if (value !== undefined) rules[key] = value;
}

function readModelLadder(r: Reader, e: Entry | undefined): ModelRung[] | undefined {
  if (!e) return undefined;
  if (e.node.type !== 'array') {
    r.report('error', 'invalid-type', '`model_ladder` must be an array of `{"model": ...}` objects.', nodeLoc(e.node, e.pointer));
    return undefined;
  }
  const rungs: ModelRung[] = [];
  (e.node.children ?? []).forEach((item, i) => {
    const pointer = childPointer(e.pointer, i);
    if (!r.isObject(item, pointer, 'Each `model_ladder` item')) return;
    const f = r.fields(item, pointer, `\`model_ladder\` item ${i + 1}`, MODEL_RUNG_FIELDS);
    const model = r.string(f.get('model'));
    if (!f.has('model')) r.missing(item, pointer, 'model', `\`model_ladder\` item ${i + 1}`);
    if (model === undefined) return;
    const thinkingLevel = r.string(f.get('thinking_level'));
    const healthUrl = r.string(f.get('health_url'));
    const requiresProviderSwitch = r.boolean(f.get('requires_provider_switch'));
    rungs.push({
      model,
      ...(thinkingLevel !== undefined ? { thinkingLevel } : {}),
      ...(healthUrl !== undefined ? { healthUrl } : {}),
      ...(requiresProviderSwitch !== undefined ? { requiresProviderSwitch } : {}),
    });
  });
  return rungs;
}

function readOn(r: Reader, e: Entry | undefined, stateName: string): Transition[] {
  if (!e) return [];
  const what = `\`on\` of state \`${stateName}\``;
  if (!r.isObject(e.node, e.pointer, what)) return [];
  // map() makes an array of exactly the right size (the IR keeps it; one grown by push reserves 16 slots).
  const read = r.entries(e.node, e.pointer, what).map((event) => readTransition(r, event, stateName));
  return read.includes(undefined) ? read.filter((t): t is Transition => t !== undefined) : (read as Transition[]);
}

function readGuards(r: Reader, e: Entry | undefined, skipped: Set<string>): Map<string, GuardDef> {
  const guards = new Map<string, GuardDef>();
  if (!e || !r.isObject(e.node, e.pointer, '`guards`')) return guards;
  for (const g of r.entries(e.node, e.pointer, '`guards`')) {
    const guard = readGuard(r, g);
    if (guard) guards.set(g.key, guard);
    else skipped.add(g.key);
  }
  return guards;
}

function readGuard(r: Reader, e: Entry): GuardDef | undefined {
  const what = `guard \`${e.key}\``;
  if (!r.isObject(e.node, e.pointer, `Guard \`${e.key}\``)) return undefined;
  const f = r.fields(e.node, e.pointer, what, GUARD_FIELDS);
  const field = r.string(f.get('field'));
  if (!f.has('field')) r.missing(e.node, e.pointer, 'field', what, ' Name the context field to test, e.g. `"field": "tests_passed"`.');
  const op = r.oneOf<GuardOp>(f.get('op'), GUARD_OPS);
  if (!f.has('op')) r.missing(e.node, e.pointer, 'op', what, ` Use one of ${GUARD_OPS.join(', ')}.`);
  const valueEntry = f.get('value');
  if (op === 'in' && valueEntry && valueEntry.node.type !== 'array') {
    r.report('error', 'invalid-value', 'The `in` operator needs an array `value`: the values the field may take, e.g. `["dev", "staging"]`.', nodeLoc(valueEntry.node, valueEntry.pointer));
  }
  if (field === undefined || op === undefined) return undefined;
  return {
    name: e.key,
    field,
    op,
    ...(valueEntry ? { value: nodeValue(valueEntry.node) } : {}),
    keyLoc: e.keyLoc,
    loc: nodeLoc(e.node, e.pointer),
  };
}

export function readInterrupts(r: Reader, e: Entry | undefined): InterruptDef[] {
  if (!e || !r.isObject(e.node, e.pointer, '`interrupts`')) return [];
  const out: InterruptDef[] = [];
  for (const i of r.entries(e.node, e.pointer, '`interrupts`')) {
    const what = `interrupt \`${i.key}\``;
    if (!r.isObject(i.node, i.pointer, `Interrupt \`${i.key}\``)) continue;
    const f = r.fields(i.node, i.pointer, what, INTERRUPT_FIELDS);
    const target = r.ref(f.get('target'));
    if (!f.has('target')) r.missing(i.node, i.pointer, 'target', what, ' Name the state that handles it.');
    const pattern = readTrigger(r, f.get('trigger'), i, what);
    if (!target || !pattern) continue;
    out.push({ name: i.key, nameLoc: i.keyLoc, filePattern: pattern.name, filePatternLoc: pattern.loc, target, loc: nodeLoc(i.node, i.pointer) });
  }
  return out;
}

function readTrigger(r: Reader, e: Entry | undefined, owner: Entry, what: string): NameRef | undefined {
  if (!e) {
    r.missing(owner.node, owner.pointer, 'trigger', what, ' Add `"trigger": {"file_pattern": "<glob>"}`.');
    return undefined;
  }
  if (!r.isObject(e.node, e.pointer, `\`trigger\` of ${what}`)) return undefined;
  const f = r.fields(e.node, e.pointer, `the trigger of ${what}`, TRIGGER_FIELDS);
  if (!f.has('file_pattern')) r.missing(e.node, e.pointer, 'file_pattern', `The trigger of ${what}`, ' Add a glob such as `"**/*.env*"`.');
  return r.ref(f.get('file_pattern'));
}

/** `meta.agent_may`: a list of AGENT_ACTS; anything else is reported (and left out, so it grants nothing). */
function readAgentMay(r: Reader, e: Entry | undefined): AgentAct[] | undefined {
  const items = r.refArray(e);
  if (!items) return undefined;
  const acts: AgentAct[] = [];
  for (const item of items) {
    if ((AGENT_ACTS as readonly string[]).includes(item.name)) {
      if (!acts.includes(item.name as AgentAct)) acts.push(item.name as AgentAct);
      continue;
    }
    const closest = closestName(item.name, AGENT_ACTS);
    r.report('error', 'invalid-value', `Each item of \`agent_may\` must be one of ${AGENT_ACTS.map((a) => `"${a}"`).join(', ')}; found "${item.name}". Approving is always a person's act.${didYouMean(closest)}`, item.loc);
  }
  return acts;
}

/** Known meta keys are type-checked; every key, known or not, is kept in `raw`. */
export function readMeta(r: Reader, e: Entry | undefined): WorkflowMeta {
  const defaults: WorkflowMeta = { approvalMode: 'ask', captureOutput: false, debug: false, raw: {} };
  if (!e || !r.isObject(e.node, e.pointer, '`meta`')) return defaults;
  const f: Fields = fieldsOf(r.entries(e.node, e.pointer, '`meta`'));
  const meta: { -readonly [K in keyof WorkflowMeta]: WorkflowMeta[K] } = {
    ...defaults,
    approvalMode: r.oneOf(f.get('approval_mode'), APPROVAL_MODES) ?? 'ask',
    captureOutput: r.boolean(f.get('capture_output')) ?? false,
    debug: r.boolean(f.get('debug')) ?? false,
    raw: nodeValue(e.node) as JsonObject,
  };
  const taskType = r.string(f.get('task_type'));
  const estimatedSteps = r.number(f.get('estimated_steps'));
  const dangerLevel = r.oneOf(f.get('danger_level'), DANGER_LEVELS);
  const requiresHumanApproval = r.boolean(f.get('requires_human_approval'));
  const failureStates = r.stringArray(f.get('failure_states'));
  const defaultModel = r.string(f.get('default_model'));
  const agentMay = readAgentMay(r, f.get('agent_may'));
  if (agentMay !== undefined) meta.agentMay = agentMay;
  if (taskType !== undefined) meta.taskType = taskType;
  if (estimatedSteps !== undefined) meta.estimatedSteps = estimatedSteps;
  if (dangerLevel !== undefined) meta.dangerLevel = dangerLevel;
  if (requiresHumanApproval !== undefined) meta.requiresHumanApproval = requiresHumanApproval;
  if (failureStates !== undefined) meta.failureStates = failureStates;
  if (defaultModel !== undefined) meta.defaultModel = defaultModel;
  return meta;
}
