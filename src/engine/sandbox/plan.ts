/**
 * The kernel boundary under an allowed shell command (issue 29): which
 * folders a command the policy allowed may write, which it may only read, and
 * whether it reaches the network. The static analysis (src/engine/shell/)
 * decides from the command line; a test runner or a build the agent may run
 * executes code the agent wrote, so the line alone cannot prove what it will
 * touch. This plan is what the operating system holds it to instead.
 *
 * - The whole file system is readable and read-only, except the workspace and
 *   the folders outside it that the state's `allowed_paths` admit (their
 *   literal prefix: `/srv/out/**` binds `/srv/out`).
 * - `/tmp` is a private, empty tmpfs: test runners and compilers need a
 *   scratch folder, and a private one leaks nothing between commands and lets
 *   nothing be left for a later unsandboxed process to pick up.
 * - Inside those writable folders, the gate's own files are read-only again:
 *   the run's store (`.stategate/`), stategate's user state folder (the record
 *   of the active run), every hook and settings file of util/paths/enforcement-files.ts,
 *   and stategate's installed files (the CLI bundle's folder, the extension's).
 * - A protected path that does not exist yet cannot be created either: the
 *   first missing folder on its way is covered by an empty read-only folder
 *   (`sealed`; bwrap makes an empty folder there as its mount point, which
 *   stays: `.claude/`, `.github/hooks/`, `.vscode/`, `.codex/`, `.gemini/`,
 *   `.cursor/`, `.opencode/` may appear empty in the workspace, which every
 *   client reads as "nothing configured"); a missing file in an existing folder makes that folder
 *   read-only. A missing file directly in a writable root (`opencode.json` at
 *   the workspace root) cannot be covered without leaving a file there: it is
 *   listed in `uncovered` and left to the analysis, which denies writing it
 *   by name.
 * - The network is cut when the state says `network: false`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENFORCEMENT_FILES, enforcementLocations } from '../util/paths/enforcement-files.js';

export interface SandboxSetting {
  /** The workspace folder. */
  readonly workspaceRoot: string;
  /** The run's store folder (`.stategate`). */
  readonly storeDir: string;
  /** stategate's user state folder (userStateDir()). */
  readonly stateDir: string;
  readonly home?: string;
  /** stategate's installed files: the folder of the running CLI bundle, the extension's folder. */
  readonly installDirs: readonly string[];
  /** The state's `allowed_paths` (absolute or `~/` globs name folders outside the workspace). */
  readonly allowedPaths?: readonly string[];
  /** false: no network inside (the state's `network: false`). */
  readonly network: boolean;
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface SandboxPlan {
  /** Bound read-write, over the read-only root (real paths, outermost first). */
  readonly writable: readonly string[];
  /** Existing paths inside a writable folder bound read-only again (real paths, outermost first). */
  readonly readOnly: readonly string[];
  /** Missing folders inside a writable folder covered by an empty read-only folder. */
  readonly sealed: readonly string[];
  /** Protected files that could not be covered (a missing file directly in a writable root). */
  readonly uncovered: readonly string[];
  /**
   * Existing places under the real `/tmp` shown read-only inside the private one: stategate's own
   * installed files (a checkout under /tmp runs its CLI from there), the ssh agent's socket folder
   * (`git push` over ssh) and X11's sockets.
   */
  readonly visible: readonly string[];
  readonly network: boolean;
}

/** The real path when it exists, else undefined. */
function real(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function inside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The folder an absolute (or `~/`) glob's literal part names: `/srv/out/**` → `/srv/out`. */
export function globRoot(glob: string, home: string | undefined): string | undefined {
  const expanded = glob.startsWith('~/') && home !== undefined ? path.join(home, glob.slice(2)) : glob;
  if (!path.isAbsolute(expanded)) return undefined;
  const literal: string[] = [];
  for (const seg of expanded.split('/')) {
    if (/[*?[\]{}()!+@]/.test(seg)) break;
    literal.push(seg);
  }
  // `/srv/out/file.txt` (no glob): the file's folder must be writable to write it.
  const joined = literal.join('/') || '/';
  return literal.length === expanded.split('/').length ? path.dirname(joined) : joined;
}

/**
 * Enforcement folders (util/paths/enforcement-files.ts) that only matter in a home, config or system folder,
 * never in a workspace: VS Code's user and machine settings, Copilot CLI's user hooks, Claude
 * Code's managed settings (`/etc/claude-code`, `/Library/Application Support/ClaudeCode`).
 */
const USER_ONLY: ReadonlySet<string> = new Set(['User', '.copilot', 'Machine', 'claude-code', 'ClaudeCode']);

/** An existing folder with nothing in it. */
function emptyFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory() && fs.readdirSync(p).length === 0;
  } catch {
    return false;
  }
}

const depth = (p: string): number => p.split(path.sep).length;
// Ties by code units, not localeCompare: the first localeCompare of a process sets up ICU's collator (~7 ms
// of a hook's shell call), and two paths of one depth never hold each other, so their order is only for stable output.
const byDepth = (a: string, b: string): number => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);

export function sandboxPlan(s: SandboxSetting): SandboxPlan {
  const workspace = real(s.workspaceRoot) ?? path.resolve(s.workspaceRoot);
  const writable = new Set<string>([workspace]);
  for (const glob of s.allowedPaths ?? []) {
    const root = globRoot(glob, s.home);
    const r = root !== undefined ? real(root) : undefined;
    // `/tmp/...` is the private tmpfs anyway: binding the real one would share it.
    if (r !== undefined && !inside(r, '/tmp') && fs.statSync(r).isDirectory()) writable.add(r);
  }
  const roots = [...writable].sort(byDepth);
  const rootOf = (p: string): string | undefined => roots.filter((w) => inside(p, w)).at(-1);

  const folders = new Set([s.storeDir, s.stateDir, ...s.installDirs].map((p) => path.resolve(p)));
  // The table's `X/**` entries are folders: missing, the folder itself is sealed rather than its parent made read-only.
  const folderTails = ENFORCEMENT_FILES.filter((e) => e.pattern.endsWith('/**') && e.pattern !== '**').map((e) => `${path.sep}${e.pattern.slice(0, -3)}`);
  const isFolder = (abs: string): boolean => folders.has(abs) || folderTails.some((tail) => abs.endsWith(tail));
  const protectedPaths = [
    s.storeDir,
    s.stateDir,
    ...s.installDirs,
    // A client reads its settings from the folder it starts in: the copies in every writable root count.
    ...roots.flatMap((root) => enforcementLocations({ root, ...(s.home !== undefined ? { home: s.home } : {}), stateDir: s.stateDir, platform: s.platform, env: s.env })),
  ];
  const readOnly = new Set<string>();
  const sealed = new Set<string>();
  const uncovered: string[] = [];
  for (const p of protectedPaths) {
    // A relative path here came from an empty variable (XDG_CONFIG_HOME=''): it names no real place.
    if (!path.isAbsolute(p)) continue;
    const abs = path.resolve(p);
    const r = real(abs);
    if (r !== undefined) {
      // A protected folder holding a whole writable root (stategate's own repository as the workspace,
      // its extension folder) would make the workspace read-only: its gate files are listed one by one.
      if (rootOf(r) !== undefined && !roots.includes(r)) readOnly.add(r);
      continue;
    }
    // Missing: walk up to the deepest existing folder, then cover the first missing step from there.
    let parent = path.dirname(abs);
    let child = abs;
    // An empty folder on the way counts as missing: the seal made it (bwrap's mount point), and the
    // next command's plan must cover the same step as the first one's did.
    const missing = (dir: string): boolean => {
      const r = real(dir);
      return r === undefined || (emptyFolder(r) && !roots.includes(r) && !folders.has(r));
    };
    while (missing(parent) && parent !== path.dirname(parent)) {
      child = parent;
      parent = path.dirname(parent);
    }
    const parentReal = real(parent);
    if (parentReal === undefined || rootOf(parentReal) === undefined) continue; // read-only or private already
    const step = path.join(parentReal, path.basename(child));
    // No client reads these from a workspace (VS Code's user folder, Copilot CLI's user hooks): an
    // empty folder left in every workspace for them would be litter with no protection in it.
    if (roots.includes(parentReal) && USER_ONLY.has(path.basename(child))) continue;
    if (child !== abs || isFolder(abs)) sealed.add(step); // a missing folder: an empty read-only folder there
    else if (roots.includes(parentReal)) uncovered.push(step); // a file directly in a writable root
    else readOnly.add(parentReal); // a missing file in an existing folder: that folder read-only
  }
  // A path under one already read-only needs nothing more.
  const covered = (p: string, set: ReadonlySet<string>): boolean => [...set].some((o) => o !== p && inside(p, o));
  // An empty folder is sealed rather than bound: the same empty read-only folder inside, and the
  // same command line as before the first sealed run made it (the Runner recognises its own wrap
  // after the call by building it again: unwrap.ts).
  for (const p of [...readOnly]) {
    if (emptyFolder(p) && !roots.includes(p) && !folders.has(p)) {
      readOnly.delete(p);
      sealed.add(p);
    }
  }
  const ro = [...readOnly].filter((p) => !covered(p, readOnly)).sort(byDepth);
  const seal = [...sealed].filter((p) => !ro.some((o) => inside(p, o)) && !covered(p, sealed)).sort(byDepth);
  const sshAgent = s.env['SSH_AUTH_SOCK'] ? path.dirname(s.env['SSH_AUTH_SOCK']) : undefined;
  const visible = [...new Set([...s.installDirs, ...(sshAgent ? [sshAgent] : []), '/tmp/.X11-unix'].map((p) => real(path.resolve(p))).filter((p): p is string => p !== undefined && inside(p, '/tmp') && p !== '/tmp' && rootOf(p) === undefined))].sort(byDepth);
  return { writable: roots, readOnly: ro, sealed: seal, uncovered: [...new Set(uncovered)].sort(), network: s.network, visible };
}
