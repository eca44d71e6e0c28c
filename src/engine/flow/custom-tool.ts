/**
 * A custom tool's state (`.stategate/flow-tools.yaml`, formats/flow-tool-registry.ts)
 * turned into the command it runs: the state's arguments are templated with the
 * flow's variables first (as every tool's are), then put into the tool's
 * `command` with the same `{{ }}` rule (textual, as for `bash`). An optional
 * argument the state leaves out reads as the empty string.
 */
import type { CustomFlowTool } from '../formats/flow-tool-registry.js';
import type { JsonObject } from '../model/index.js';
import { asText, renderText } from './template.js';

export function customToolCommand(tool: CustomFlowTool, args: JsonObject): string {
  const values: Record<string, string> = {};
  for (const a of tool.arguments) values[a.name] = args[a.name] === undefined ? '' : asText(args[a.name]);
  return renderText(tool.command, values);
}
