/**
 * Names the IR keeps without a source location, found in the text itself.
 * `meta` is free-form in the IR (only its values are kept), but
 * `meta.failure_states` lists state names that a rename must update.
 */
import type { NameRef, Workflow } from '../model/index.js';
import { childPointer, nodeAtPointer, nodeLoc, parseJsoncTree } from '../formats/jsonc.js';

export function failureStateRefs(text: string, wf: Workflow): NameRef[] {
  if (!wf.meta.failureStates?.length) return []; // nothing to find: skip the parse
  const root = parseJsoncTree(text);
  if (!root) return [];
  const pointer = `${wf.loc.pointer}/meta/failure_states`;
  const list = nodeAtPointer(root, pointer);
  if (list?.type !== 'array') return [];
  const out: NameRef[] = [];
  (list.children ?? []).forEach((item, i) => {
    if (item.type === 'string') out.push({ name: item.value as string, loc: nodeLoc(item, childPointer(pointer, i)) });
  });
  return out;
}
