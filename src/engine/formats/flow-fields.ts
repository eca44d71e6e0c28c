/**
 * The fields a flow file may have, and the arguments each built-in tool
 * requires (FlowState's own table of states; docs/flows.md).
 * The loader warns about other fields; the rules (check/flow-rules.ts) report
 * missing arguments; docs/flows.md and schemas/flow-schema.json list the same.
 */
import { FLOW_TOOLS, type FlowTool } from '../model/flow.js';
import { FLOW_TOOL_DOCS } from './flow-tools.js';

/** Top level of a flow file (`$schema` lets a JSON flow name its schema for editors). */
export const FLOW_FIELDS = ['start-at', 'states', 'name', 'description', 'variables', '$schema'] as const;

/** One state. */
export const FLOW_STATE_FIELDS = ['tool', 'arguments', 'output', 'next', 'on-error', 'goto'] as const;

/** One inline task of a `parallel` state. */
export const FLOW_TASK_FIELDS = ['tool', 'arguments', 'output'] as const;

/** The arguments each tool requires (from the tools table, flow-tools.ts). */
export const REQUIRED_ARGUMENTS = Object.fromEntries(
  FLOW_TOOLS.map((t) => [t, FLOW_TOOL_DOCS[t].arguments.filter((a) => a.required).map((a) => a.name)]),
) as unknown as Readonly<Record<FlowTool, readonly string[]>>;

/** A variable name as `var(NAME)` and `{{ NAME }}` accept it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A `{{ ... }}` template; what is between the braces is a variable only when `isVariableRef` says so. */
export const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** `name` or `state::name` (other text between braces is not a variable and is left alone). */
export function isVariableRef(name: string): boolean {
  const sep = name.indexOf('::');
  return sep > 0 ? VARIABLE_NAME.test(name.slice(sep + 2)) : VARIABLE_NAME.test(name);
}
