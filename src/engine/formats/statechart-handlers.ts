/**
 * The chart's root `handlers:` table (docs/statechart-handlers.md): a name
 * mapped to exactly one of `{command: [argv...]}`, `{flow: FILE}` or
 * `{mcp: {server, tool}}`. A malformed entry is reported where it is written
 * and left out (an action or service naming it is then reported as unknown).
 */
import type { HandlerDef } from '../model/index.js';
import { nodeLoc } from './jsonc.js';
import type { Entry, Reader } from './reader.js';

export const HANDLER_KINDS = ['command', 'flow', 'mcp'] as const;
const MCP_FIELDS = ['server', 'tool'] as const;
const SHAPES = '`{command: [program, args...]}`, `{flow: FILE}` or `{mcp: {server, tool}}`';

export function readHandlers(r: Reader, e: Entry | undefined): Map<string, HandlerDef> | undefined {
  if (!e) return undefined;
  if (!r.isObject(e.node, e.pointer, '`handlers`')) return undefined;
  const out = new Map<string, HandlerDef>();
  for (const item of r.entries(e.node, e.pointer, '`handlers`')) {
    const def = readHandler(r, item);
    if (def) out.set(item.key, def);
  }
  return out;
}

function readHandler(r: Reader, e: Entry): HandlerDef | undefined {
  const what = `handler \`${e.key}\``;
  if (!r.isObject(e.node, e.pointer, `The value of ${what}`)) return undefined;
  const f = r.fields(e.node, e.pointer, what, HANDLER_KINDS);
  const kinds = HANDLER_KINDS.filter((k) => f.has(k));
  const loc = nodeLoc(e.node, e.pointer);
  if (kinds.length !== 1) {
    const found = kinds.length ? `it has ${kinds.map((k) => `\`${k}\``).join(' and ')}` : 'it has none of them';
    r.report('error', 'invalid-handler', `${capital(what)} must be exactly one of ${SHAPES}; ${found}.`, e.keyLoc);
    return undefined;
  }
  const kind = kinds[0];
  if (kind === 'command') {
    const argvEntry = f.get('command') as Entry;
    const argv = r.stringArray(argvEntry);
    if (!argv) return undefined;
    if (argv.length === 0 || (argv[0] as string).trim() === '') {
      r.report('error', 'invalid-handler', `The \`command\` of ${what} needs at least the program to run, e.g. \`command: [npm, test]\`.`, nodeLoc(argvEntry.node, argvEntry.pointer));
      return undefined;
    }
    return { kind, argv, loc };
  }
  if (kind === 'flow') {
    const file = r.string(f.get('flow'));
    if (file === undefined) return undefined;
    if (file.trim() === '') {
      r.report('error', 'invalid-handler', `The \`flow\` of ${what} names the flow file to run, relative to this chart.`, loc);
      return undefined;
    }
    return { kind, file, loc };
  }
  const mcp = f.get('mcp') as Entry;
  if (!r.isObject(mcp.node, mcp.pointer, `The \`mcp\` of ${what}`)) return undefined;
  const m = r.fields(mcp.node, mcp.pointer, `the \`mcp\` of ${what}`, MCP_FIELDS);
  const server = r.string(m.get('server'));
  const tool = r.string(m.get('tool'));
  if (!m.has('server')) r.missing(mcp.node, mcp.pointer, 'server', `the \`mcp\` of ${what}`, ' Name a server of the workspace\'s .mcp.json or .vscode/mcp.json.');
  if (!m.has('tool')) r.missing(mcp.node, mcp.pointer, 'tool', `the \`mcp\` of ${what}`, ' Name the tool to call.');
  if (server === undefined || tool === undefined) return undefined;
  return { kind: 'mcp', server, tool, loc };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
