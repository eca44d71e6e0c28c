/**
 * Every path one tool call would write, whoever writes it: an edit tool's
 * targets (Write, Edit, MultiEdit, patches, notebook edits, in each client's
 * spelling) and a shell command's redirects and file commands (from the
 * shell analysis). The policy runs the path rules over this one list:
 * protected files first (util/paths/write-guard.ts), the state's path scope later.
 */
import * as path from 'node:path';
import type { ShellEffects } from '../../shell/analyse.js';
import { shellWritePaths, startFolders } from '../../shell/write-paths.js';
import type { EditLayout, ExtractedCall } from '../../agent/tools.js';
import { contentAfter, hookSettingsUnchanged } from './vscode-hook-settings.js';
import { MAX_NAMED_PATHS, namedPaths } from '../../util/paths/named-paths.js';
import type { PathGuard, Refusal, ResolvedPath } from '../../util/paths/write-guard.js';
import type { PathScope } from '../../util/paths/scope.js';

export interface PlannedWrite {
  readonly path: ResolvedPath;
  /** Everything under the path may change. */
  readonly tree: boolean;
  /** The shell command text that writes it (absent for a file tool). */
  readonly how?: string;
  /** git changing its working tree (write-targets.ts): left to the sandbox where one holds the gate's files. */
  readonly gitTree?: boolean;
}

export interface WritePlan {
  readonly writes: readonly PlannedWrite[];
  /** Paths an unknown tool's arguments name (util/paths/named-paths.ts): checked against the protected files only. */
  readonly named?: readonly PlannedWrite[];
  /** The unknown tool's arguments hold more strings than are checked: refused. */
  readonly tooManyNamed?: boolean;
  /** Shell writes whose path cannot be known before the command runs. */
  readonly unknown: ReadonlyArray<{ readonly how: string; readonly why: string }>;
}

export interface PlanInput {
  readonly extracted: ExtractedCall;
  /** Where relative paths start (the agent's folder; default the workspace folder). */
  readonly cwd?: string;
  /** The shell analysis's findings, for a shell call. */
  readonly shell?: ShellEffects;
  /** A free state's command: what cannot be followed is let go (shell/analyse.ts's lenient walk). */
  readonly lenient: boolean;
  /** The arguments of a tool stategate does not know (an MCP tool, an alias): every path they name may be written. */
  readonly unknownToolInput?: unknown;
}

export function planWrites(input: PlanInput, guard: PathGuard): WritePlan {
  const plan = plannedWrites(input, guard);
  if (input.unknownToolInput === undefined) return plan;
  const named = namedPaths(input.unknownToolInput);
  // `~/x` as a server that expands it would read it (a path resolved as written is checked too).
  const home = guard.home;
  const spellings = named.paths.flatMap((p) => (home !== undefined && (p === '~' || p.startsWith('~/')) ? [p, path.join(home, p.slice(1))] : [p]));
  // A tool that may write what it names may also remove or fill a folder it names (`delete_directory
  // {"path": ".github"}`), so each is checked as a tree, except the workspace and the folders above it:
  // everyday tools name the repository they work in, and a run's files removed that way are tampering
  // the record outside the workspace reveals (active-record.ts).
  const plannedNamed = spellings.map((p) => {
    const at = guard.resolve(p, input.cwd);
    // An existing file is no tree (and keeps the hard-link check of a single file).
    return { path: at, tree: !guard.holdsWorkspace(at) && guard.env.linkCount?.(at.real) === undefined };
  });
  return { ...plan, named: plannedNamed, ...(named.tooMany ? { tooManyNamed: true } : {}) };
}

/** What a file tool or a shell command writes. */
function plannedWrites(input: PlanInput, guard: PathGuard): WritePlan {
  const { extracted } = input;
  if (extracted.editShape) return { writes: extracted.paths.map((p) => ({ path: guard.resolve(p, input.cwd), tree: false })), unknown: [] };
  if (extracted.kind !== 'shell' || !input.shell) return { writes: [], unknown: [] };
  const start = guard.resolve(extracted.cwd ?? '.', input.cwd).lexical;
  const folders = startFolders(start, input.shell.dirs ?? [], guard.home, input.lenient);
  const writes: PlannedWrite[] = [];
  const unknown: Array<{ how: string; why: string }> = [];
  for (const w of input.shell.writes ?? []) {
    const found = shellWritePaths(w, folders, guard, guard.env.tmpDir);
    if ('unknown' in found) unknown.push({ how: w.how, why: found.unknown });
    else writes.push(...found.paths.map((path) => ({ path, tree: w.tree, how: w.how, ...(w.gitTree ? { gitTree: true } : {}) })));
  }
  return { writes, unknown };
}

const quote = (s: string): string => `\`${s.length > 120 ? `${s.slice(0, 117)}...` : s}\``;

/** "Write denied: X is ..." for a file tool, "Command denied: `cmd` writes X, which is ..." for a shell command. */
function sentence(tool: string, w: PlannedWrite, r: Refusal): string {
  return w.how === undefined ? `${tool} denied: ${r.where} ${r.what}` : `Command denied: ${quote(w.how)} writes ${r.where}, which ${r.what}`;
}

/**
 * Why the call may not run because of what it writes into protected files,
 * or undefined. A VS Code settings file passes when the call's result leaves
 * its hook settings as they were and stategate can compute that result.
 */
export function protectedWriteReason(plan: WritePlan, call: { tool: string; input: unknown; layout?: EditLayout }, extracted: ExtractedCall, guard: PathGuard, sandboxed = false): string | undefined {
  for (const w of plan.writes) {
    // `git checkout BRANCH`, `git pull`, `git stash`: the tree holds the run's files, but inside the
    // sandbox they are read-only, so git cannot change them (it fails on them and says so).
    // Without the sandbox the analysis alone decides, and a whole-tree write over them is refused.
    const p = guard.protection(w.path, w.tree && !(sandboxed && w.gitTree));
    if (!p) continue;
    if (p.entry?.hookSettings && w.how === undefined && keepsHookSettings(w.path, call, extracted, guard)) continue;
    return sentence(call.tool, w, p);
  }
  if (plan.tooManyNamed) return `${call.tool} denied: its arguments hold more than ${MAX_NAMED_PATHS} strings, and stategate checks every string an unknown tool is given against the protected files (it cannot tell which name a file the tool writes). Pass fewer at a time.`;
  for (const w of plan.named ?? []) {
    const p = guard.protection(w.path, w.tree);
    if (p) return `${call.tool} denied: its arguments name ${p.where}, which ${p.what} stategate does not know this tool, so it cannot tell that the tool only reads what it names.`;
  }
  return undefined;
}

/** A Write or Edit of one settings file whose result can be computed and keeps the hook settings. */
function keepsHookSettings(target: ResolvedPath, call: { input: unknown; layout?: EditLayout }, extracted: ExtractedCall, guard: PathGuard): boolean {
  const shape = extracted.editShape;
  if (!shape || extracted.paths.length !== 1 || !['write', 'replace', 'multi'].includes(call.layout ?? '')) return false;
  const current = guard.env.readFile?.(target.real);
  const after = contentAfter(shape, call.input, current);
  return after !== undefined && hookSettingsUnchanged(current, after);
}

/** In a state whose commands are restricted, a shell write stategate cannot place is denied. */
export function unknownWriteReason(plan: WritePlan): string | undefined {
  const u = plan.unknown[0];
  if (!u) return undefined;
  return `Command denied: ${quote(u.how)} writes where stategate cannot tell before it runs (${u.why}), so it cannot be checked against the protected files and the state's path scope. Write the path out literally, without variables, globs in folders, or a cd it depends on.`;
}

/** Why the state's path scope refuses one of the writes, or undefined. */
export function scopeWriteReason(plan: WritePlan, tool: string, scope: PathScope, state: string, guard: PathGuard): string | undefined {
  for (const w of plan.writes) {
    const why = guard.scopeRefusal(w.path, scope, state, w.tree);
    if (why) return sentence(tool, w, why);
  }
  return undefined;
}
