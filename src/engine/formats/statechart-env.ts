/**
 * The chart's root `env:` and `agents:` (docs/statecharts.md, "Environment
 * variables" and "Agents"), and the same agent list as `.stategate/agents.yaml`
 * writes it. `env` is a list of names, or a map of name to default (a string,
 * number or boolean is kept as the string the environment would hold; null:
 * no default). An agent is `{id, roles, tags, description}`.
 */
import type { ChartAgent, ChartEnvVar, SourceLoc } from '../model/index.js';
import { childPointer, nodeLoc } from './jsonc.js';
import type { Entry, Reader } from './reader.js';

export const AGENT_FIELDS = ['id', 'roles', 'tags', 'description'] as const;

/** An environment variable's name as a shell writes it (what `env.NAME` can read). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function readEnvDecl(r: Reader, e: Entry | undefined): ChartEnvVar[] | undefined {
  if (!e) return undefined;
  const out: ChartEnvVar[] = [];
  const add = (name: string, fallback: string | null, loc: SourceLoc) => {
    if (!ENV_NAME.test(name)) {
      r.report('error', 'invalid-value', `\`${name}\` is not an environment variable name (letters, digits and _, not starting with a digit).`, loc);
      return;
    }
    if (out.some((v) => v.name === name)) {
      r.report('error', 'duplicate-key', `\`${name}\` is declared twice in \`env\`.`, loc);
      return;
    }
    out.push({ name, default: fallback, loc });
  };
  if (e.node.type === 'array') {
    (e.node.children ?? []).forEach((item, i) => {
      const pointer = childPointer(e.pointer, i);
      if (item.type === 'string') add(item.value as string, null, nodeLoc(item, pointer));
      else r.report('error', 'invalid-type', 'Each item of `env` is the name of an environment variable, written as a string.', nodeLoc(item, pointer));
    });
    return out;
  }
  if (e.node.type === 'object') {
    for (const item of r.entries(e.node, e.pointer, '`env`')) {
      const v = item.node;
      if (v.type === 'null') add(item.key, null, item.keyLoc);
      else if (v.type === 'string' || v.type === 'number' || v.type === 'boolean') add(item.key, String(v.value), item.keyLoc);
      else r.report('error', 'invalid-type', `The default of \`${item.key}\` must be a string, a number, true/false or null.`, nodeLoc(v, item.pointer));
    }
    return out;
  }
  r.report('error', 'invalid-type', '`env` must be a list of variable names, or a map of name to default.', nodeLoc(e.node, e.pointer));
  return undefined;
}

/** A list of agents (`what` names it in messages); malformed agents are reported and left out. */
export function readAgentList(r: Reader, e: Entry | undefined, what: string): ChartAgent[] | undefined {
  if (!e) return undefined;
  if (e.node.type !== 'array') {
    r.report('error', 'invalid-type', `${what} must be a list of agents, each \`{id, roles: [..], tags: [..], description}\`.`, nodeLoc(e.node, e.pointer));
    return undefined;
  }
  const out: ChartAgent[] = [];
  (e.node.children ?? []).forEach((item, i) => {
    const pointer = childPointer(e.pointer, i);
    const label = `agent ${i + 1} of ${what}`;
    if (item.type !== 'object') {
      r.report('error', 'invalid-type', `The ${label} must be an object \`{id, roles: [..], tags: [..], description}\`.`, nodeLoc(item, pointer));
      return;
    }
    const f = r.fields(item, pointer, `the ${label}`, AGENT_FIELDS);
    const id = r.string(f.get('id'));
    if (!f.has('id')) r.missing(item, pointer, 'id', `the ${label}`, ' Give it the id `agents.select` returns, e.g. `id: reviewer-1`.');
    if (id === undefined) return;
    if (id === '') {
      r.report('error', 'invalid-value', `The id of the ${label} is empty.`, nodeLoc((f.get('id') as Entry).node, pointer));
      return;
    }
    const idEntry = f.get('id') as Entry;
    if (out.some((a) => a.id === id)) {
      r.report('error', 'duplicate-key', `Agent \`${id}\` is listed twice in ${what}.`, nodeLoc(idEntry.node, idEntry.pointer));
      return;
    }
    const description = r.string(f.get('description'));
    out.push({
      id,
      roles: r.stringArray(f.get('roles')) ?? [],
      tags: r.stringArray(f.get('tags')) ?? [],
      ...(description !== undefined ? { description } : {}),
    });
  });
  return out;
}
