/**
 * The stage fields of a state (Statewright) or a state node (statecharts):
 * `prompt`, `completion_tool`, `completion_schema`, `turn_cap`. Both loaders
 * read them with this one function. What they mean together (a stage needs a
 * way out, its schema must be a schema, ...) is validation's (check/stage-rules.ts).
 */
import type { SourceLoc, StateNode } from '../model/index.js';
import { childPointer, nodeLoc, type JsonNode } from './jsonc.js';
import { fieldsOf, type Fields, type Reader } from './reader.js';

/**
 * The camelCase spellings of the stage fields (the stage-pipeline notation:
 * `allowedTools`, `completionTool`, `completionSchema`, `turnCap`), read as
 * the snake_case fields they stand for. Statewright states only: a statechart
 * node keeps its own field names.
 */
export const STAGE_FIELD_ALIASES: Readonly<Record<string, string>> = {
  allowedTools: 'allowed_tools',
  completionTool: 'completion_tool',
  completionSchema: 'completion_schema',
  turnCap: 'turn_cap',
};

export const STAGE_ALIAS_NAMES: readonly string[] = Object.keys(STAGE_FIELD_ALIASES);

/**
 * The state's fields with each camelCase alias read as its snake_case field.
 * Both spellings of one field on one state is an error (which one was meant
 * cannot be told); the snake_case one is read.
 */
export function withStageAliases(r: Reader, f: Fields, what: string): Fields {
  if (!f.list.some((e) => Object.hasOwn(STAGE_FIELD_ALIASES, e.key))) return f;
  const list = [];
  for (const e of f.list) {
    const canonical = Object.hasOwn(STAGE_FIELD_ALIASES, e.key) ? STAGE_FIELD_ALIASES[e.key]! : undefined;
    if (canonical === undefined) list.push(e);
    else if (f.has(canonical)) {
      r.report('error', 'duplicate-stage-field', `${what} sets both \`${e.key}\` and \`${canonical}\`, two spellings of one field; keep one of them (\`${canonical}\` is read).`, e.keyLoc, {
        related: [{ message: `\`${canonical}\``, loc: f.get(canonical)!.keyLoc }],
      });
    } else list.push(e.renamed(canonical));
  }
  return fieldsOf(list);
}

export type StageFields = Pick<StateNode, 'prompt' | 'completionTool' | 'completionSchema' | 'completionSchemaLocs' | 'turnCap'>;

/** Sets the stage fields the state has on `into` (absent ones stay absent). */
export function readStage(r: Reader, f: Fields, into: { -readonly [K in keyof StageFields]: StageFields[K] }): void {
  const promptEntry = f.get('prompt');
  const prompt = r.string(promptEntry);
  if (promptEntry && prompt !== undefined) into.prompt = { text: prompt, loc: nodeLoc(promptEntry.node, promptEntry.pointer) };
  const completionTool = r.string(f.get('completion_tool'));
  if (completionTool !== undefined) into.completionTool = completionTool;
  const schemaEntry = f.get('completion_schema');
  const completionSchema = r.jsonObject(schemaEntry);
  if (schemaEntry && completionSchema) {
    into.completionSchema = completionSchema;
    into.completionSchemaLocs = valueLocs(schemaEntry.node, schemaEntry.pointer);
  }
  const turnCap = r.number(f.get('turn_cap'));
  if (turnCap !== undefined) into.turnCap = turnCap;
}

/** Every value inside `node` by its pointer relative to it (schemas are small: this runs only for stages). */
function valueLocs(node: JsonNode, pointer: string): Map<string, SourceLoc> {
  const out = new Map<string, SourceLoc>();
  const walk = (n: JsonNode, rel: string, abs: string): void => {
    out.set(rel, nodeLoc(n, abs));
    if (n.type === 'object') {
      for (const p of n.children ?? []) {
        const [key, value] = [p.children?.[0], p.children?.[1]];
        if (typeof key?.value !== 'string' || !value) continue;
        walk(value, childPointer(rel, key.value), childPointer(abs, key.value));
      }
    } else if (n.type === 'array') {
      (n.children ?? []).forEach((item, i) => walk(item, childPointer(rel, i), childPointer(abs, i)));
    }
  };
  walk(node, '', pointer);
  return out;
}
