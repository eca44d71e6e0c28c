/**
 * Which workflow format a file holds, read from its content, so that a plain
 * `code_review.yaml` (the name a statechart machine registry gives its charts)
 * is what it says it is. The roots that name a format:
 *
 * - `statechart:` -> an AGENT-33 statechart;
 * - `start-at:` with `states` of which at least one has a `tool` -> a FlowState flow;
 * - `initial:` with `states` (also inside a `definition:` wrapper) -> a Statewright workflow.
 *
 * Anything else is none of ours (undefined). Typed suffixes
 * (`.statechart.yaml`, `.flow.yml`, `.workflow.json`; file-kinds.ts reads
 * names) stay hints: they are honoured by detectFormat (formats/index.ts),
 * which reports a suffix that disagrees with the content.
 */
import type { WorkflowFormat } from '../model/index.js';
import type { JsonNode } from './jsonc.js';
import { parseJsonc } from './jsonc.js';
import { parseYamlTree } from './yaml-tree.js';
import { isJsonName, isYamlName } from './file-kinds.js';

/** Whether the text is JSON rather than YAML: by the file's suffix, else by its first character. */
export function looksLikeJson(text: string, file: string | undefined): boolean {
  if (file !== undefined && isYamlName(file)) return false;
  if (file !== undefined && isJsonName(file)) return true;
  return /^\ufeff?\s*[{[/]/.test(text);
}

/** The format the content names, or undefined when it names none of ours. */
export function sniffFormat(text: string, file?: string): WorkflowFormat | undefined {
  // Every unrelated file (package.json, docker-compose.yaml, CI workflows) stops here, unparsed.
  if (!/statechart|start-at|initial/.test(text)) return undefined;
  const root = looksLikeJson(text, file) ? parseJsonc(text).root : parseYamlTree(text).root;
  if (root?.type !== 'object') return undefined;
  return formatOfRoot(root);
}

function formatOfRoot(root: JsonNode): WorkflowFormat | undefined {
  const keys = members(root);
  if (keys.has('statechart')) return 'statechart';
  const states = keys.get('states');
  if (keys.has('start-at') && states?.type === 'object' && [...members(states).values()].some((s) => s.type === 'object' && members(s).has('tool'))) return 'flow';
  if (keys.has('initial') && states) return 'statewright';
  const definition = keys.get('definition');
  if (definition?.type === 'object') {
    const inner = members(definition);
    if (inner.has('initial') && inner.has('states')) return 'statewright';
  }
  return undefined;
}

/** An object node's members by key (the last of a repeated key wins, as the loaders read it). */
function members(node: JsonNode): Map<string, JsonNode> {
  const out = new Map<string, JsonNode>();
  for (const p of node.children ?? []) {
    const key = p.children?.[0]?.value;
    const value = p.children?.[1];
    if (typeof key === 'string' && value) out.set(key, value);
  }
  return out;
}
