/**
 * Custom flow tools: `.stategate/flow-tools.yaml` registers tools a flow state
 * names in `tool:` beside the built-in ones (docs/flows.md, "Custom tools"):
 *
 *     tools:
 *       lint:
 *         command: "npx eslint {{ path }}"
 *         arguments:
 *           path: {required: true}
 *
 * A custom tool runs its `command` with bash, as the `bash` tool does, after
 * `{{ ARG }}` is replaced by the state's argument of that name (textual, no
 * shell quoting, as for `bash`; an optional argument the state leaves out is
 * the empty string). The file sits under `.stategate/`, which the gated agent
 * cannot write (the hook and the sandbox protect the folder), and what it
 * runs is part of what a person trusts before a flow's first run.
 *
 * Malformed input never throws: problems are diagnostics at this file, and a
 * tool with an error is left out (a flow naming it is then told why).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic, SourceLoc } from '../model/index.js';
import { FLOW_TOOLS } from '../model/flow.js';
import { nodeLoc } from './jsonc.js';
import { Reader } from './reader.js';
import { LineIndex } from './text-position.js';
import { isVariableRef, TEMPLATE, VARIABLE_NAME } from './flow-fields.js';
import { parseYamlTree } from './yaml-tree.js';

/** Where the registry lives, under the workspace's `.stategate/` folder. */
export const FLOW_TOOLS_FILE = 'flow-tools.yaml';

export interface CustomToolArgument {
  readonly name: string;
  readonly required: boolean;
}

export interface CustomFlowTool {
  readonly name: string;
  /** The command template: `{{ ARG }}` names an argument. */
  readonly command: string;
  /** In the order written. */
  readonly arguments: readonly CustomToolArgument[];
  readonly loc: SourceLoc;
}

export interface FlowToolRegistry {
  readonly tools: ReadonlyMap<string, CustomFlowTool>;
  readonly diagnostics: Diagnostic[];
}

const TOOL_FIELDS = ['command', 'arguments', 'description'] as const;
const ARGUMENT_FIELDS = ['required', 'description'] as const;

/** Whether a path is a flow tool registry (`.stategate/flow-tools.yaml`), checked as one by `stategate validate` and the editor. */
export function isFlowToolRegistryFile(file: string): boolean {
  return path.basename(file) === FLOW_TOOLS_FILE && path.basename(path.dirname(path.resolve(file))) === '.stategate';
}

/** The registry's text read: its tools, and what is wrong with it. */
export function loadFlowToolRegistry(text: string): FlowToolRegistry {
  const tools = new Map<string, CustomFlowTool>();
  if (/^\s*$/.test(text)) return { tools, diagnostics: [] }; // an empty registry registers nothing
  const parsed = parseYamlTree(text);
  const r = new Reader();
  r.diagnostics.push(...parsed.diagnostics);
  const root = parsed.root;
  if (!root || root.type !== 'object') {
    if (root) r.report('error', 'invalid-type', 'The flow tool registry is a mapping with `tools: {NAME: {command, arguments}}`.', nodeLoc(root, ''));
    return { tools, diagnostics: r.diagnostics };
  }
  const top = r.fields(root, '', 'the flow tool registry', ['tools']);
  const list = top.get('tools');
  if (!list) {
    r.missing(root, '', 'tools', 'the flow tool registry');
    return { tools, diagnostics: r.diagnostics };
  }
  if (!r.isObject(list.node, list.pointer, '`tools`')) return { tools, diagnostics: r.diagnostics };
  for (const entry of r.entries(list.node, list.pointer, '`tools`')) {
    const before = r.diagnostics.filter((d) => d.severity === 'error').length;
    const name = entry.key;
    if (FLOW_TOOLS.includes(name as (typeof FLOW_TOOLS)[number])) {
      r.report('error', 'flow-tool-shadows-builtin', `\`${name}\` is a built-in flow tool: a custom tool needs a name of its own.`, entry.keyLoc);
    } else if (!VARIABLE_NAME.test(name)) {
      r.report('error', 'invalid-value', `The tool name \`${name}\` must start with a letter or \`_\` and hold only letters, digits, \`_\` and \`-\`.`, entry.keyLoc);
    }
    const what = `tool \`${name}\``;
    if (!r.isObject(entry.node, entry.pointer, `The value of ${what}`)) continue;
    const f = r.fields(entry.node, entry.pointer, what, TOOL_FIELDS);
    const commandEntry = f.get('command');
    const command = r.string(commandEntry);
    if (!commandEntry) r.missing(entry.node, entry.pointer, 'command', what, ' It is the shell command the tool runs.');
    else if (command !== undefined && command.trim() === '') r.report('error', 'invalid-value', `The \`command\` of ${what} is empty.`, nodeLoc(commandEntry.node, commandEntry.pointer));
    r.string(f.get('description'));
    const args: CustomToolArgument[] = [];
    const argsEntry = f.get('arguments');
    if (argsEntry && r.isObject(argsEntry.node, argsEntry.pointer, `\`arguments\` of ${what}`)) {
      for (const a of r.entries(argsEntry.node, argsEntry.pointer, `the arguments of ${what}`)) {
        if (!VARIABLE_NAME.test(a.key)) r.report('error', 'invalid-value', `The argument name \`${a.key}\` of ${what} must start with a letter or \`_\` and hold only letters, digits, \`_\` and \`-\`.`, a.keyLoc);
        // `ARG: {}` and `ARG:` (null) both declare an optional argument.
        if (a.node.type === 'null') {
          args.push({ name: a.key, required: false });
          continue;
        }
        if (!r.isObject(a.node, a.pointer, `The argument \`${a.key}\` of ${what}`)) continue;
        const af = r.fields(a.node, a.pointer, `the argument \`${a.key}\` of ${what}`, ARGUMENT_FIELDS);
        r.string(af.get('description'));
        args.push({ name: a.key, required: r.boolean(af.get('required')) ?? false });
      }
    }
    if (command !== undefined && commandEntry) {
      // A `{{ x }}` that no argument declares would fail every run: said here, where the fix is.
      for (const m of command.matchAll(TEMPLATE)) {
        const ref = m[1] ?? '';
        if (!isVariableRef(ref) || args.some((a) => a.name === ref)) continue;
        r.report('error', 'flow-tool-undeclared-argument', `The command of ${what} uses \`{{ ${ref} }}\`, which is not one of its \`arguments\`. Declare it under \`arguments\`.`, nodeLoc(commandEntry.node, commandEntry.pointer));
      }
    }
    if (r.diagnostics.filter((d) => d.severity === 'error').length > before || command === undefined) continue;
    tools.set(name, { name, command, arguments: args, loc: entry.keyLoc });
  }
  // Text that does not parse registers nothing: what was read of it may be cut short anywhere.
  if (parsed.diagnostics.some((d) => d.severity === 'error')) tools.clear();
  return { tools, diagnostics: r.diagnostics };
}

/** The registry a flow file sees: found, absent, or a problem naming the file and the first error's place. */
export type RegistryLookup =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly file: string; readonly text: string; readonly registry: FlowToolRegistry }
  | { readonly kind: 'problem'; readonly file: string; readonly text?: string; readonly problem: string };

/** The nearest `.stategate/flow-tools.yaml` at or above the flow file's folder. */
export function findFlowToolRegistry(flowFile: string): RegistryLookup {
  for (let dir = path.dirname(path.resolve(flowFile)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.stategate', FLOW_TOOLS_FILE);
    const read = readFlowToolRegistry(candidate);
    if (read.kind !== 'none') return read;
    if (path.dirname(dir) === dir) return read;
  }
}

/** One registry file read and checked (`none` when it does not exist). */
export function readFlowToolRegistry(file: string): RegistryLookup {
  let text: string;
  try {
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return { kind: 'none' };
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return { kind: 'problem', file, problem: `the flow tool registry ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  const registry = loadFlowToolRegistry(text);
  const error = registry.diagnostics.find((d) => d.severity === 'error');
  if (!error) return { kind: 'ok', file, text, registry };
  const at = new LineIndex(text).position(error.loc.start);
  return { kind: 'problem', file, text, problem: `the flow tool registry ${file} is malformed at line ${at.line + 1}, column ${at.character + 1}: ${error.message}` };
}

/** A custom tool's documentation (completion and hover): the command it runs and its arguments. */
export function customToolMarkdown(t: CustomFlowTool): string {
  const args = t.arguments.map((a) => `- \`${a.name}\`${a.required ? ' (required)' : ''}`).join('\n');
  return `**tool** \`${t.name}\` (custom, \`.stategate/flow-tools.yaml\`): runs \`${t.command}\` with bash.${args ? `\n\nArguments:\n${args}` : ''}`;
}
