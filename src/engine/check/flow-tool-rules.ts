/**
 * Which tool a flow state (or parallel task) names, and whether its arguments
 * fit: a built-in tool's required arguments (flow-fields.ts), or a custom
 * tool's from `.stategate/flow-tools.yaml` (formats/flow-tool-registry.ts):
 * required ones present, no argument the tool does not declare (a custom
 * tool's command only reads its own, so another name is a typo that would
 * silently run the command without it).
 */
import { FLOW_TOOLS, isFlowTool, type Diagnostic, type JsonObject, type SourceLoc } from '../model/index.js';
import { REQUIRED_ARGUMENTS } from '../formats/flow-fields.js';
import type { CustomFlowTool, RegistryLookup } from '../formats/flow-tool-registry.js';
import { closestName, didYouMean } from '../util/suggest.js';

/** One tool call as the rules see it: a state's or an inline parallel task's. */
export interface ToolCallSite {
  readonly tool: string;
  readonly toolLoc: SourceLoc;
  readonly arguments: JsonObject;
  /** Where each argument's value is (states have them; inline tasks do not). */
  readonly argumentLocs?: Readonly<Record<string, SourceLoc>>;
  /** Where a missing argument is reported. */
  readonly missingLoc: SourceLoc;
  /** `state \`x\`` or `a parallel task`, for messages. */
  readonly where: string;
  readonly hint: string;
}

/** False when the tool is unknown (reported), so the caller's tool-specific rules are skipped. */
export function toolCallRules(call: ToolCallSite, tools: RegistryLookup, out: Diagnostic[]): boolean {
  if (isFlowTool(call.tool)) {
    missingRule(call, REQUIRED_ARGUMENTS[call.tool], out);
    return true;
  }
  const custom = tools.kind === 'ok' ? tools.registry.tools.get(call.tool) : undefined;
  if (custom) {
    customRules(call, custom, out);
    return true;
  }
  if (tools.kind === 'problem') {
    out.push({
      severity: 'error',
      code: 'flow-tool-registry-invalid',
      message: `\`${call.tool}\` is not a built-in tool, and the custom tools cannot be used: ${tools.problem.replace(/\.$/, "")}. Fix that file (\`stategate validate ${tools.file}\`).`,
      loc: call.toolLoc,
      data: { registry: tools.file },
    });
    return false;
  }
  const custom_names = tools.kind === 'ok' ? [...tools.registry.tools.keys()] : [];
  const known = [...FLOW_TOOLS, ...custom_names];
  const closest = closestName(call.tool, known);
  const registered = custom_names.length ? ` and the custom tools of ${tools.kind === 'ok' ? tools.file : ''}: ${custom_names.map((t) => `\`${t}\``).join(', ')}` : ' (custom tools are registered in `.stategate/flow-tools.yaml`)';
  out.push({
    severity: 'error',
    code: 'flow-unknown-tool',
    message: `Unknown tool \`${call.tool}\`.${didYouMean(closest)} The tools are ${FLOW_TOOLS.map((t) => `\`${t}\``).join(', ')}${registered}.`,
    loc: call.toolLoc,
    ...(closest === undefined ? {} : { data: { closest } }),
  });
  return false;
}

function missingRule(call: ToolCallSite, required: readonly string[], out: Diagnostic[]): void {
  const missing = required.filter((a) => !(a in call.arguments));
  if (!missing.length) return;
  out.push({
    severity: 'error',
    code: 'flow-missing-argument',
    message: `\`${call.tool}\` needs the argument${missing.length > 1 ? 's' : ''} ${missing.map((m) => `\`${m}\``).join(', ')} (${call.where}). ${call.hint}`,
    loc: call.missingLoc,
    data: { missing: missing.join(',') },
  });
}

function customRules(call: ToolCallSite, tool: CustomFlowTool, out: Diagnostic[]): void {
  missingRule(call, tool.arguments.filter((a) => a.required).map((a) => a.name), out);
  const declared = tool.arguments.map((a) => a.name);
  for (const name of Object.keys(call.arguments)) {
    if (declared.includes(name)) continue;
    const closest = closestName(name, declared);
    out.push({
      severity: 'error',
      code: 'flow-unknown-argument',
      message: `\`${tool.name}\` has no argument \`${name}\` (${call.where}).${didYouMean(closest)} Its arguments are ${declared.length ? declared.map((a) => `\`${a}\``).join(', ') : 'none'}.`,
      loc: call.argumentLocs?.[name] ?? call.missingLoc,
      ...(closest === undefined ? {} : { data: { closest } }),
    });
  }
}
