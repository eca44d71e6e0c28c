/**
 * The path rules every write passes, whoever writes (a file tool, a patch,
 * a shell redirect or file command): the run's own files and the
 * enforcement configuration are protected, and the state's path scope holds.
 * Each path is checked where it really lands (real-path.ts) and as written,
 * and a protected match on either spelling denies.
 *
 * A "tree" write (`rm -rf X`, `mv X Y`, `cp -r A X`, an archive extracted
 * into X) may change anything under X: it is denied when a protected file
 * or folder lies inside X, and admitted by `allowed_paths` only when
 * everything under X is.
 */
import * as path from 'node:path';
import { enforcementFileAt, enforcementLocations, type EnforcementFile, type EnforcementPlaces } from './enforcement-files.js';
import { globMatches, globProblem, type GlobPlaces } from './globs.js';
import type { PathScope } from './scope.js';
import { protectedPathReason } from './protected.js';
import { isInside, resolveReal, type PathLookup } from './real-path.js';

/** What path rules need from the machine: the file system and where things are. */
export interface PathEnv extends PathLookup {
  /** The workspace folder (absolute; may itself be reached through a symlink). */
  readonly root: string;
  readonly home?: string;
  /** stategate's user state folder (util/user-state-dir.ts). */
  readonly stateDir?: string;
  /** Where `mktemp` writes. */
  readonly tmpDir?: string;
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A file's text (for the content a `.vscode/settings.json` edit leaves). */
  readonly readFile?: (p: string) => string | undefined;
  /** The names in a folder (to expand a shell glob the way bash will). */
  readonly readdir?: (p: string) => string[] | undefined;
  /** How many names (hard links) an existing regular file has; undefined for a folder or where nothing is. */
  readonly linkCount?: (p: string) => number | undefined;
  /** The folder of the running stategate bundle (env.ts): its files are the hook itself. */
  readonly bundleDir?: string;
}

/** A path as written (made absolute) and where it really leads. */
export interface ResolvedPath {
  /** As the call wrote it, for messages. */
  readonly shown: string;
  readonly lexical: string;
  readonly real: string;
}

/** Why a write is refused, in two parts so a file tool and a shell command can each say it: "<where> <what>". */
export interface Refusal {
  /** The path as written, with where it really leads when that differs. */
  readonly where: string;
  /** Starts with a verb: "is one of the run's own files ...", "holds ...", "is outside the workspace ...". */
  readonly what: string;
}

export interface Protection extends Refusal {
  /** The enforcement entry, when the path is one (not a tree, not the run's own files). */
  readonly entry?: EnforcementFile;
}

const GATE_WAY_OUT = 'A person changes it with "stategate: Disable Agent Enforcement" or by stopping the run (`stategate run stop`).';
/** The folder that holds a workspace's runs. */
const STORE_NAME = '.stategate';
/** A name no real file has: a tree write is admitted only where a file inside it would be. */
const INSIDE_PROBE = '.stategate-path-probe';

export class PathGuard {
  private readonly realRoot: string;
  private readonly places: EnforcementPlaces;
  private treeLocations?: Array<{ at: string; shown: string }>;

  constructor(readonly env: PathEnv) {
    this.realRoot = resolveReal(env.root, env.root, env) ?? path.resolve(env.root);
    const stateDir = env.stateDir === undefined ? undefined : resolveReal(env.stateDir, env.root, env);
    const home = env.home === undefined ? undefined : resolveReal(env.home, env.root, env);
    const bundleDir = env.bundleDir === undefined ? undefined : resolveReal(env.bundleDir, env.root, env);
    this.places = { root: this.realRoot, platform: env.platform, env: env.env, ...(home ? { home } : {}), ...(stateDir ? { stateDir } : {}), ...(bundleDir ? { bundleDir } : {}) };
  }

  /**
   * `p` made absolute against `cwd` (default: the workspace folder) and
   * resolved. `cwd` is taken as a shell keeps it (logically: `cd link/..` is
   * where it started), `p` as the kernel opens it (`../x` from inside a
   * symlinked folder leaves the link's target).
   */
  resolve(p: string, cwd?: string): ResolvedPath {
    const dir = path.resolve(this.env.root, cwd ?? '.');
    const lexical = path.resolve(dir, p);
    // A symlink loop cannot be written through; the lexical path is all there is to check.
    const real = resolveReal(p, resolveReal(dir, dir, this.env) ?? dir, this.env) ?? lexical;
    return { shown: p, lexical, real };
  }

  /** Is `p` an existing folder (where it really leads)? */
  isFolder(p: ResolvedPath): boolean {
    return this.env.readdir?.(p.real) !== undefined;
  }

  /** Is `p` the workspace folder or a folder above it? */
  holdsWorkspace(p: ResolvedPath): boolean {
    return isInside(this.realRoot, p.real) || isInside(path.resolve(this.env.root), p.lexical);
  }

  /** The home folder as given (for `~` in shell words and globs). */
  get home(): string | undefined {
    return this.env.home;
  }

  /** The same file however it was spelled: workspace-relative with `/`, or the real absolute path outside. */
  identity(p: ResolvedPath): string {
    if (!isInside(p.real, this.realRoot)) return p.real;
    return path.relative(this.realRoot, p.real).split(path.sep).join('/');
  }

  /** The path as written, and where it really leads when that is not where it seems to. */
  private where(p: ResolvedPath): string {
    return p.real === path.resolve(this.env.root, p.shown) ? p.shown : `${p.shown} (really ${p.real})`;
  }

  /** Why no agent may write `p` while a run is enforced, or undefined. */
  protection(p: ResolvedPath, tree = false): Protection | undefined {
    const where = this.where(p);
    const own = protectedPathReason(p.lexical) ?? protectedPathReason(p.real);
    if (own) return { where, what: own.replace(/^.*? (is one of)/, '$1') };
    const entry = enforcementFileAt(p.real, this.places) ?? enforcementFileAt(p.lexical, this.places);
    if (entry) return { entry, where, what: `is ${entry.what}: it installs or switches on the agent gate, so no agent may write it while a run is enforced. ${GATE_WAY_OUT}` };
    const created = this.newStoreFolder(p);
    if (created) return { where, what: `would create a ${STORE_NAME} folder (${created}): the hook finds runs by that name, so no agent may create one while a run is enforced. Use another folder name.` };
    if (!tree) return this.hardLinked(p, where);
    const inside = this.locations().find((l) => isInside(l.at, p.real, true) || isInside(l.at, p.lexical, true));
    if (!inside) return undefined;
    const runFile = inside.shown.includes('.stategate');
    const its = runFile ? "one of the run's own files, which only stategate writes" : 'a file or folder that installs or switches on the agent gate';
    return { where, what: `holds ${inside.shown}, ${its}, so a command that may change everything in it cannot run while a run is enforced. Aim it at a folder that holds none of them.${runFile ? '' : ` ${GATE_WAY_OUT}`}` };
  }

  /**
   * The first `.stategate` folder the write would create (a `.stategate` segment of the
   * path, as written or where it really lands, that is not an existing folder), or
   * undefined. The workspace's own `.stategate` exists while a run is enforced, so only
   * a new one is refused: one an agent makes in a subfolder could otherwise be taken
   * for the run by a hook started there (store/active-record.ts findStoreDir).
   */
  private newStoreFolder(p: ResolvedPath): string | undefined {
    for (const spelling of [p.lexical, p.real]) {
      const parts = spelling.split(/[\\/]/);
      for (let i = 0; i < parts.length; i++) {
        if (parts[i]!.toLowerCase() !== STORE_NAME) continue;
        const folder = parts.slice(0, i + 1).join(path.sep) || path.sep;
        if (this.env.readdir?.(folder) === undefined && (this.env.readdir !== undefined || !isInside(folder, path.join(this.realRoot, STORE_NAME), true))) return folder;
      }
    }
    return undefined;
  }

  /**
   * A file with more than one hard link is one file under several names, and
   * a write through any name changes it under all of them (`ln
   * .claude/settings.json x`, then a Write of `x`). Finding the other names
   * means searching every disk, so such a write is refused, saying how to
   * break the link. A new file (no links yet) and a tree write pass.
   */
  private hardLinked(p: ResolvedPath, where: string): Protection | undefined {
    const links = this.env.linkCount?.(p.real);
    if (links === undefined || links < 2) return undefined;
    return { where, what: `has ${links} hard links: a write to it changes the file under every one of its names, which may be a protected file, and stategate cannot find them all. Copy it to a new file (\`cp x x.new && mv x.new x\`) to break the link, then write that.` };
  }

  /** Why the state's path scope refuses a write to `p`, or undefined. */
  scopeRefusal(p: ResolvedPath, scope: PathScope, state: string, tree = false): Refusal | undefined {
    const where = this.where(p);
    const places: GlobPlaces = { root: this.env.root, realRoot: this.realRoot, resolve: (d) => resolveReal(d, this.env.root, this.env), ...(this.places.home ? { home: this.places.home } : {}) };
    const probe = tree ? { lexical: path.join(p.lexical, INSIDE_PROBE), real: path.join(p.real, INSIDE_PROBE) } : undefined;
    const spellings = probe ? [p, probe] : [p];
    // A glob that cannot be read fails closed: it denies everything and admits nothing (validation reports it).
    const denied = scope.denied.find((g) => globProblem(g) !== undefined || spellings.some((s) => globMatches(g, s, places, 'either')));
    if (denied !== undefined) return { where, what: `matches denied_paths "${denied}" of state '${state}': no writes there in this state.` };
    if (scope.allowed !== undefined) {
      if (spellings.every((s) => scope.allowed!.some((g) => globMatches(g, s, places, 'real')))) return undefined;
      const list = scope.allowed.length ? scope.allowed.map((g) => `"${g}"`).join(', ') : 'none';
      return { where, what: `${tree ? '(and everything in it) ' : ''}is not covered by allowed_paths of state '${state}' (${list}). Add a glob that covers it to allowed_paths, or transition to a state that allows it.` };
    }
    if (scope.outsideDenied && !isInside(p.real, this.realRoot)) {
      const suggest = `"${this.suggestion(p.real)}" (or a glob such as "${this.suggestion(path.dirname(p.real))}/**")`;
      return { where, what: `is outside the workspace (${this.realRoot}), and state '${state}' has rules, so writes outside the workspace are denied. To allow it, add ${suggest} to the state's allowed_paths.` };
    }
    return undefined;
  }

  /** How to write `real` in allowed_paths: `~/…` under the home folder, else absolute. */
  private suggestion(real: string): string {
    const home = this.places.home;
    const slashed = (x: string): string => x.split(path.sep).join('/');
    if (home !== undefined && isInside(real, home)) return real === home ? '~' : `~/${slashed(path.relative(home, real))}`;
    return slashed(real);
  }

  private locations(): Array<{ at: string; shown: string }> {
    if (!this.treeLocations) {
      const own = ['active', 'runs'].map((f) => path.join(this.realRoot, '.stategate', f));
      this.treeLocations = [...own, ...enforcementLocations(this.places)].map((l) => ({ at: resolveReal(l, this.env.root, this.env) ?? l, shown: l }));
    }
    return this.treeLocations;
  }
}
