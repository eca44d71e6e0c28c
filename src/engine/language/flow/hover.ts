/**
 * Hover on a flow: on a tool its documentation (from the tools table), on an
 * argument's name that argument's doc, on a state (its key or any target
 * naming it) what it runs and where it goes, on a variable who declares, sets
 * and reads it, on a field name the schema's documentation of that field.
 */
import { FLOW_TOOL_DOCS, flowToolMarkdown } from '../../formats/flow-tools.js';
import { customToolMarkdown, type CustomFlowTool } from '../../formats/flow-tool-registry.js';
import { isFlowTool } from '../../model/index.js';
import type { Hover } from '../hover.js';
import { fieldDoc } from '../schema-docs.js';
import { chartCursorAt } from '../chart/cursor.js';
import { chartTree, propertyValue } from '../chart/tree.js';
import { pathMatches } from '../cursor.js';
import { flowStateSummary, flowVariableSummary } from './describe.js';
import { flowOccurrenceAt, type FlowModel, type FlowOccurrence } from './occurrences.js';

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

export function flowHoverAt(m: FlowModel, offset: number, schema?: unknown, tools?: ReadonlyMap<string, CustomFlowTool>): Hover | undefined {
  const hit = flowOccurrenceAt(m, offset);
  if (hit) return { markdown: describe(m, hit, tools), loc: hit.loc };
  const cursor = chartCursorAt(m.text, offset, m.json);
  if (!cursor.atKey || !cursor.string) return undefined;
  const loc = { pointer: '', start: cursor.string.start, end: cursor.string.end };
  const { path } = cursor;
  const key = String(path[path.length - 1]);
  if (pathMatches(path, ['states', '*', 'arguments', '*']) || pathMatches(path, ['states', '*', 'arguments', 'tasks', '#', 'arguments', '*'])) {
    const owner = path.slice(0, -2).reduce<ReturnType<typeof chartTree>>((n, seg) => (typeof seg === 'number' ? n?.children?.[seg] : propertyValue(n, seg)), chartTree(m.text, m.json));
    const tool = propertyValue(owner, 'tool')?.value;
    const arg = typeof tool === 'string' && isFlowTool(tool) ? FLOW_TOOL_DOCS[tool].arguments.find((a) => a.name === key) : undefined;
    if (arg) return { markdown: `**argument** ${code(key)} of ${code(String(tool))}${arg.required ? ' (required)' : ''}\n\n${arg.doc}`, loc };
    if (typeof tool === 'string' && isFlowTool(tool)) return { markdown: `**argument** ${code(key)}: ${code(tool)} does not read it.`, loc };
    const custom = typeof tool === 'string' ? tools?.get(tool) : undefined;
    const customArg = custom?.arguments.find((a) => a.name === key);
    if (custom) return { markdown: customArg ? `**argument** ${code(key)} of ${code(custom.name)}${customArg.required ? ' (required)' : ''}: put into ${code(custom.command)}` : `**argument** ${code(key)}: ${code(custom.name)} does not declare it.`, loc };
    return undefined;
  }
  const doc = fieldDoc(schema, path);
  return doc ? { markdown: `**${key}**\n\n${doc}`, loc } : undefined;
}

function describe(m: FlowModel, o: FlowOccurrence, tools: ReadonlyMap<string, CustomFlowTool> | undefined): string {
  switch (o.kind) {
    case 'tool':
      if (isFlowTool(o.name)) return flowToolMarkdown(o.name);
      return tools?.has(o.name) ? customToolMarkdown(tools.get(o.name)!) : `**tool** ${code(o.name)}: neither a built-in tool nor one registered in \`.stategate/flow-tools.yaml\`.`;
    case 'variable':
      return flowVariableSummary(m, o.name);
    case 'state': {
      const summary = flowStateSummary(m.wf, o.name);
      if (o.role === 'definition') return summary;
      const where = o.slot === 'start-at' ? '`start-at`' : o.slot === 'template' ? `a template in ${code(o.owner ?? '?')}` : `${o.label === 'task' ? 'a parallel task' : code(o.label ?? o.slot ?? '')} of ${code(o.owner ?? '?')}`;
      return `${where} → state ${code(o.name)}\n\n${summary}`;
    }
  }
}
