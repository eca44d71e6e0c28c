/**
 * The workspace's VS Code custom agents as agents for `agents.select(role,
 * hint)` in statecharts (docs/statecharts.md, "Agents"): the Markdown files
 * under `.github/agents/*.agent.md` and, under the name VS Code used before,
 * `.github/chatmodes/*.chatmode.md`, read from their YAML front matter.
 * An agent's id is its `name` (else the file name without the suffix); its
 * roles are `roles` when the front matter has them (a list or one string),
 * else its id alone; `tags` likewise (else none); `description` as written.
 * Files stategate writes itself (WRITTEN_MARKER) are not agents of the
 * workspace. A file that does not read is skipped: the extension never fails
 * a start over a custom agent VS Code itself may show fine.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { ChartAgent } from '../engine/index.js';
import { WRITTEN_MARKER } from './agents/custom-agent.js';

const FOLDERS: readonly { dir: string; suffix: string }[] = [
  { dir: '.github/agents', suffix: '.agent.md' },
  { dir: '.github/chatmodes', suffix: '.chatmode.md' },
];

/** Front matter: the YAML between a first line `---` and the next `---` line. */
const FRONT_MATTER = /^\ufeff?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/;

export function readCustomAgents(workspaceRoot: string): ChartAgent[] {
  const out: ChartAgent[] = [];
  for (const { dir, suffix } of FOLDERS) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(workspaceRoot, dir)).filter((n) => n.endsWith(suffix)).sort();
    } catch {
      continue; // no such folder
    }
    for (const name of names) {
      const agent = customAgent(readText(path.join(workspaceRoot, dir, name)), name.slice(0, -suffix.length));
      if (agent && !out.some((a) => a.id === agent.id)) out.push(agent);
    }
  }
  return out;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** One custom agent file's agent (undefined: stategate's own file, or no usable id). */
export function customAgent(text: string | undefined, fileId: string): ChartAgent | undefined {
  if (text === undefined || text.includes(WRITTEN_MARKER)) return undefined;
  const m = FRONT_MATTER.exec(text);
  let front: Record<string, unknown> = {};
  if (m) {
    try {
      const parsed: unknown = parse(m[1] as string);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) front = parsed as Record<string, unknown>;
    } catch {
      front = {};
    }
  }
  const id = typeof front['name'] === 'string' && front['name'].trim() !== '' ? front['name'].trim() : fileId;
  if (!id) return undefined;
  const roles = strings(front['roles']);
  const description = typeof front['description'] === 'string' ? front['description'] : undefined;
  return { id, roles: roles.length ? roles : [id], tags: strings(front['tags']), ...(description !== undefined ? { description } : {}) };
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}
