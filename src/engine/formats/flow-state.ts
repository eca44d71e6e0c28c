/**
 * One flow state -> a `StateNode` whose `flow` is the tool call (model/flow.ts).
 * What the loader reports itself is what only reading can tell: wrong types,
 * unknown fields, a malformed `var()`/`file()`, an `on-error` key that is not
 * an exit code. What the flow means (tools, targets, reachability) is
 * check/flow-rules.ts's.
 */
import type { FlowErrorRoute, FlowGotoRoute, FlowOutput, FlowStep, FlowTask, JsonObject, NameRef, SourceLoc, StateNode } from '../model/index.js';
import { FLOW_STATE_FIELDS, FLOW_TASK_FIELDS, VARIABLE_NAME } from './flow-fields.js';
import { childPointer, nodeLoc, nodeValue, type JsonNode } from './jsonc.js';
import type { Entry, Reader } from './reader.js';

export function readFlowState(r: Reader, e: Entry): StateNode {
  const f = r.fields(e.node, e.pointer, `state \`${e.key}\``, FLOW_STATE_FIELDS);
  // A field's value, except for a map (`arguments`, `on-error`, `goto`): its key, since a block
  // map's range runs over its lines (and the trailing newline) and is no place to underline.
  const fieldLocs: Record<string, SourceLoc> = {};
  for (const [key, entry] of f) fieldLocs[key] = entry.node.type === 'object' ? entry.keyLoc : nodeLoc(entry.node, entry.pointer);
  const toolEntry = f.get('tool');
  if (!toolEntry) r.missing(e.node, e.pointer, 'tool', `state \`${e.key}\``, ' Add `tool:` with one of the built-in tools (bash, switch, pause, ...).');
  const tool = r.string(toolEntry) ?? '';
  const args = readArguments(r, f.get('arguments'));
  const output = readOutput(r, f.get('output'));
  const next = r.ref(f.get('next'));
  const tasks = tool === 'parallel' ? readTasks(r, f.get('arguments')) : undefined;
  const flow: FlowStep = {
    tool,
    toolLoc: toolEntry ? nodeLoc(toolEntry.node, toolEntry.pointer) : e.keyLoc,
    arguments: args.values,
    argumentLocs: args.locs,
    ...(output ? { output } : {}),
    ...(next ? { next } : {}),
    onError: readErrorRoutes(r, f.get('on-error')),
    goto: readGotoRoutes(r, f.get('goto')),
    ...(tasks ? { tasks } : {}),
  };
  return {
    key: e.key,
    id: e.key,
    kind: 'atomic',
    children: [],
    rules: { disallowedTools: [], blockedEnv: [], envOverrides: {} },
    on: [],
    keyLoc: e.keyLoc,
    loc: nodeLoc(e.node, e.pointer),
    fieldLocs,
    flow,
  };
}

function readArguments(r: Reader, e: Entry | undefined): { values: JsonObject; locs: Record<string, SourceLoc> } {
  const values: JsonObject = {};
  const locs: Record<string, SourceLoc> = {};
  if (!e || !r.isObject(e.node, e.pointer, '`arguments`')) return { values, locs };
  for (const a of r.entries(e.node, e.pointer, '`arguments`')) {
    values[a.key] = nodeValue(a.node);
    locs[a.key] = nodeLoc(a.node, a.pointer);
  }
  return { values, locs };
}

/** `var(NAME)` or `file(PATH)`; anything else is `flow-malformed-output`. */
export function readOutput(r: Reader, e: Entry | undefined): FlowOutput | undefined {
  const text = r.string(e);
  if (!e || text === undefined) return undefined;
  const loc = nodeLoc(e.node, e.pointer);
  const m = /^\s*(var|file)\((.*)\)\s*$/s.exec(text);
  const inner = m?.[2]?.trim() ?? '';
  if (m?.[1] === 'var' && VARIABLE_NAME.test(inner)) return { kind: 'var', name: inner, loc };
  if (m?.[1] === 'file' && inner !== '' && !/[\r\n]/.test(inner)) return { kind: 'file', path: inner, loc };
  const why =
    m?.[1] === 'var'
      ? `\`var(...)\` needs a variable name (letters, digits, \`_\`, \`-\`; not starting with a digit); found \`${inner}\`.`
      : m?.[1] === 'file'
        ? '`file(...)` needs a workspace-relative path on one line.'
        : `\`output\` is \`var(NAME)\` or \`file(PATH)\`; found \`${text}\`.`;
  r.report('error', 'flow-malformed-output', `${why} Write \`output: var(result)\` or \`output: file(logs/out.txt)\`.`, loc);
  return undefined;
}

function readErrorRoutes(r: Reader, e: Entry | undefined): FlowErrorRoute[] {
  const out: FlowErrorRoute[] = [];
  if (!e || !r.isObject(e.node, e.pointer, '`on-error`')) return out;
  for (const route of r.entries(e.node, e.pointer, '`on-error`')) {
    const target = r.ref(route);
    const code = route.key === '_' ? '_' : /^\d{1,3}$/.test(route.key) && Number(route.key) <= 255 ? Number(route.key) : undefined;
    if (code === undefined) {
      r.report(
        'error',
        'flow-invalid-exit-code',
        `\`on-error\` keys are exit codes (whole numbers 0-255) or \`_\` for any other code; found \`${route.key}\`.`,
        route.keyLoc,
      );
      continue;
    }
    if (target) out.push({ code, target, keyLoc: route.keyLoc });
  }
  return out;
}

function readGotoRoutes(r: Reader, e: Entry | undefined): FlowGotoRoute[] {
  const out: FlowGotoRoute[] = [];
  if (!e || !r.isObject(e.node, e.pointer, '`goto`')) return out;
  for (const route of r.entries(e.node, e.pointer, '`goto`')) {
    const target = r.ref(route);
    if (target) out.push({ value: route.key, target, keyLoc: route.keyLoc });
  }
  return out;
}

/** `arguments.tasks` of a `parallel` state: each a state name or an inline `{tool, arguments, output}`. */
function readTasks(r: Reader, argsEntry: Entry | undefined): FlowTask[] | undefined {
  if (!argsEntry || argsEntry.node.type !== 'object') return undefined;
  const e = r.entries(argsEntry.node, argsEntry.pointer, '`arguments`').find((a) => a.key === 'tasks');
  if (!e) return undefined;
  if (e.node.type !== 'array') {
    r.report('error', 'invalid-type', '`tasks` must be a list: each item a state name or `{tool, arguments, output}`.', nodeLoc(e.node, e.pointer));
    return undefined;
  }
  const out: FlowTask[] = [];
  (e.node.children ?? []).forEach((item, i) => {
    const pointer = childPointer(e.pointer, i);
    const task = readTask(r, item, pointer);
    if (task) out.push(task);
  });
  return out;
}

function readTask(r: Reader, item: JsonNode, pointer: string): FlowTask | undefined {
  const loc = nodeLoc(item, pointer);
  if (item.type === 'string') return { kind: 'state', state: { name: item.value as string, loc } as NameRef, loc };
  if (item.type !== 'object') {
    r.report('error', 'invalid-type', 'A task of `parallel` is a state name or `{tool, arguments, output}`.', loc);
    return undefined;
  }
  const f = r.fields(item, pointer, 'the task', FLOW_TASK_FIELDS);
  const toolEntry = f.get('tool');
  if (!toolEntry) {
    r.missing(item, pointer, 'tool', 'the task');
    return undefined;
  }
  const tool = r.string(toolEntry);
  if (tool === undefined) return undefined;
  const output = readOutput(r, f.get('output'));
  return {
    kind: 'call',
    tool,
    toolLoc: nodeLoc(toolEntry.node, toolEntry.pointer),
    arguments: readArguments(r, f.get('arguments')).values,
    ...(output ? { output } : {}),
    loc,
  };
}
