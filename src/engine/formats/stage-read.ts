/**
 * The stage fields of a state (Statewright) or a state node (statecharts):
 * `prompt`, `completion_tool`, `completion_schema`, `turn_cap`. Both loaders
 * read them with this one function. What they mean together (a stage needs a
 * way out, its schema must be a schema, ...) is validation's (check/stage-rules.ts).
 */
import type { SourceLoc, StateNode } from '../model/index.js';
import { childPointer, nodeLoc, type JsonNode } from './jsonc.js';
import type { Fields, Reader } from './reader.js';

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
