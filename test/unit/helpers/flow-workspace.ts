/** A temporary workspace with flow files written from objects (YAML), for the flow runner's tests. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { tempDir, type CleanupOwner } from './temp-dir.js';

export function flowWorkspace(t: CleanupOwner, flows: Record<string, unknown> = {}): string {
  const ws = tempDir('sg-flow-run-', t);
  for (const [name, flow] of Object.entries(flows)) writeFlow(ws, name, flow);
  return ws;
}

/** `name` is a file name relative to `ws` (`a.flow.yaml`); an object is written as YAML, a string as it is. */
export function writeFlow(ws: string, name: string, flow: unknown): string {
  const file = path.join(ws, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof flow === 'string' ? flow : stringify(flow));
  return file;
}

/** A state running `command` with bash, with the rest of its fields. */
export function bash(command: string, rest: Record<string, unknown> = {}): Record<string, unknown> {
  return { tool: 'bash', arguments: { command }, ...rest };
}

/** A one-file listing of what a workspace holds (to show a refused run wrote nothing). */
export function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}
