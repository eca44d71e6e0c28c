/**
 * `.stategate/agents.yaml`: the workspace's agents for `agents.select(role,
 * hint)` in statecharts (docs/statecharts.md, "Agents"), written as
 * `agents: [{id, roles: [..], tags: [..], description}]`. A file that does not
 * read gives its problems with line numbers, so `run start` can refuse with a
 * message that says where.
 */
import type { ChartAgent, Diagnostic } from '../model/index.js';
import { nodeLoc } from './jsonc.js';
import { Reader } from './reader.js';
import { readAgentList } from './statechart-env.js';
import { offsetToPosition } from './text-position.js';
import { parseYamlTree } from './yaml-tree.js';

export const AGENTS_FILE = 'agents.yaml';

export interface AgentsFile {
  readonly agents: ChartAgent[];
  readonly diagnostics: readonly Diagnostic[];
}

export function loadAgentsFile(text: string): AgentsFile {
  const parsed = parseYamlTree(text);
  const r = new Reader();
  r.diagnostics.push(...parsed.diagnostics);
  const root = parsed.root;
  if (!root || (root.type === 'null' && !r.diagnostics.length)) return { agents: [], diagnostics: r.diagnostics };
  if (root.type !== 'object') {
    r.report('error', 'invalid-type', 'agents.yaml is an object with one key, `agents`, holding a list of agents `{id, roles: [..], tags: [..], description}`.', nodeLoc(root, ''));
    return { agents: [], diagnostics: r.diagnostics };
  }
  const f = r.fields(root, '', 'agents.yaml', ['agents']);
  const agents = readAgentList(r, f.get('agents'), '`agents` of agents.yaml') ?? [];
  return { agents, diagnostics: r.diagnostics };
}

/** The file's errors as one message, each with its line and column (1-based). */
export function agentsFileErrors(text: string, file: string, diagnostics: readonly Diagnostic[]): string | undefined {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (!errors.length) return undefined;
  return errors
    .map((d) => {
      const p = offsetToPosition(text, d.loc.start);
      return `${file}:${p.line + 1}:${p.character + 1}: ${d.message}`;
    })
    .join('\n');
}
