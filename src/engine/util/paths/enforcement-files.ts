/**
 * The files that install or switch on stategate's enforcement, for every
 * client a later hook installer may write to. While a run is enforced an
 * agent may not write them (by a file tool, a patch or a shell command): one
 * write of `.github/hooks/stategate.json` or `chat.useHooks: false` and every
 * later call of that agent would be ungated. A person changes them with
 * "stategate: Disable Agent Enforcement" or by stopping the run.
 *
 * One table, matched against the real path (after symlinks, see
 * real-path.ts), without regard to case:
 * - `anywhere`: a path ending in these segments, in any folder, inside or
 *   outside the workspace (a client reads `.claude/settings.json` from the
 *   folder it starts in and from the home folder alike);
 * - `home`: under the user's home folder; `state`: stategate's own user
 *   state folder (the tamper-evidence record and the hook launcher);
 *   `bundle`: the folder the running stategate bundle was loaded from.
 *
 * The clients' MCP server lists are here too: a client starts every server
 * listed there itself, outside the sandbox, with the user's rights (VS Code
 * starts a new or changed one on the next chat request), and stategate's own
 * entry serves the workflow tools that every state allows. An agent that
 * rewrote one would run code it chose outside the gate, or answer its own
 * transitions (docs/design/policy.md). `.github/mcp.json` is left
 * out: Copilot CLI reads it only when `.mcp.json` is missing, and the sandbox
 * would have to make all of `.github/` read-only to cover it.
 */
import * as path from 'node:path';
import { isInside } from './real-path.js';

export interface EnforcementFile {
  /** Segments, `*` within a segment, a trailing `/**` for a folder and everything in it. */
  readonly pattern: string;
  readonly at: 'anywhere' | 'home' | 'state' | 'bundle';
  /** What it is, for the denial ("Claude Code's project settings, which hold its hooks"). */
  readonly what: string;
  /** A VS Code settings file: a write that leaves its hook settings unchanged may pass (policy/paths/vscode-hook-settings.ts). */
  readonly hookSettings?: boolean;
}

export const ENFORCEMENT_FILES: readonly EnforcementFile[] = [
  { pattern: '.github/hooks/**', at: 'anywhere', what: 'a hook file of VS Code and Copilot CLI (any file there can add or shadow hooks)' },
  { pattern: '.claude/settings.json', at: 'anywhere', what: "Claude Code's settings, which VS Code reads for hooks too" },
  { pattern: '.claude/settings.local.json', at: 'anywhere', what: "Claude Code's local settings, where stategate installs its hooks" },
  { pattern: '.vscode/settings.json', at: 'anywhere', what: 'VS Code workspace settings (chat.useHooks, chat.useClaudeHooks, chat.hookFilesLocations, stategate.*)', hookSettings: true },
  { pattern: '*.code-workspace', at: 'anywhere', what: 'a VS Code workspace file, whose settings can turn hooks off or change stategate.*', hookSettings: true },
  { pattern: 'User/settings.json', at: 'anywhere', what: 'VS Code user settings (chat.useHooks, chat.useClaudeHooks, chat.hookFilesLocations, stategate.*)', hookSettings: true },
  { pattern: 'User/profiles/*/settings.json', at: 'anywhere', what: 'VS Code profile settings (chat.useHooks, chat.useClaudeHooks, chat.hookFilesLocations, stategate.*)', hookSettings: true },
  // Remote and code-server machine settings (`~/.vscode-server/data/Machine/settings.json`,
  // `~/.local/share/code-server/Machine/settings.json`): VS Code reads hook and stategate.* settings there too.
  { pattern: 'Machine/settings.json', at: 'anywhere', what: 'VS Code machine settings (chat.useHooks, chat.useClaudeHooks, chat.hookFilesLocations, stategate.*)', hookSettings: true },
  // Claude Code's managed (enterprise) settings: /etc/claude-code on Linux and WSL, /Library/Application
  // Support/ClaudeCode on macOS, C:\ProgramData\ClaudeCode on Windows. They hold hooks (and can forbid
  // every other hook) and the managed MCP servers; `managed-settings.d/` holds drop-in parts of them.
  { pattern: 'claude-code/managed-settings.json', at: 'anywhere', what: "Claude Code's managed settings, which hold hooks above every other settings file" },
  { pattern: 'claude-code/managed-settings.d/**', at: 'anywhere', what: "a part of Claude Code's managed settings, which hold hooks above every other settings file" },
  { pattern: 'claude-code/managed-mcp.json', at: 'anywhere', what: "Claude Code's managed MCP servers, which replace the user's (stategate's among them)" },
  { pattern: 'ClaudeCode/managed-settings.json', at: 'anywhere', what: "Claude Code's managed settings, which hold hooks above every other settings file" },
  { pattern: 'ClaudeCode/managed-settings.d/**', at: 'anywhere', what: "a part of Claude Code's managed settings, which hold hooks above every other settings file" },
  { pattern: 'ClaudeCode/managed-mcp.json', at: 'anywhere', what: "Claude Code's managed MCP servers, which replace the user's (stategate's among them)" },
  // stategate's installed extension in every VS Code family's extensions folder (`~/.vscode/extensions`,
  // `~/.vscode-server/extensions`, `~/.local/share/code-server/extensions`, Insiders, Cursor...): its
  // files are the hook that decides, and the launcher runs them.
  { pattern: 'extensions/stategate.stategate-*/**', at: 'anywhere', what: "stategate's installed extension, whose files are the hook that decides every call" },
  { pattern: '**', at: 'bundle', what: 'the folder of the running stategate CLI, whose files are the hook that decides every call' },
  { pattern: '.copilot/hooks/**', at: 'anywhere', what: "a Copilot CLI user hook file" },
  { pattern: '.codex/hooks.json', at: 'anywhere', what: "Codex's hook file" },
  { pattern: '.codex/config.toml', at: 'anywhere', what: "Codex's configuration, which can hold hooks" },
  { pattern: '.gemini/settings.json', at: 'anywhere', what: "Gemini CLI's settings, which hold its hooks and its MCP servers" },
  // MCP server lists: each listed server is started by the client outside the sandbox, and stategate's entry
  // serves the always-allowed workflow tools (the header above).
  { pattern: '.mcp.json', at: 'anywhere', what: "the project's MCP servers for Claude Code and Copilot CLI, which start each one outside the sandbox (stategate's own among them)" },
  { pattern: '.vscode/mcp.json', at: 'anywhere', what: "VS Code's workspace MCP servers, which it starts outside the sandbox (stategate's own among them)" },
  { pattern: 'User/mcp.json', at: 'anywhere', what: "VS Code's user MCP servers, which it starts outside the sandbox" },
  { pattern: 'User/profiles/*/mcp.json', at: 'anywhere', what: "VS Code's profile MCP servers, which it starts outside the sandbox" },
  { pattern: '.cursor/mcp.json', at: 'anywhere', what: "Cursor's MCP servers, which it starts outside the sandbox (stategate's own among them)" },
  { pattern: '.copilot/mcp-config.json', at: 'anywhere', what: "Copilot CLI's user MCP servers, which it starts outside the sandbox" },
  { pattern: '.claude.json', at: 'home', what: "Claude Code's user configuration, whose MCP servers it starts outside the sandbox" },
  { pattern: '.cursor/hooks.json', at: 'anywhere', what: "Cursor's hook file" },
  { pattern: '.opencode/**', at: 'anywhere', what: "OpenCode's project folder, whose plugins are its hooks" },
  { pattern: 'opencode.json', at: 'anywhere', what: "OpenCode's configuration, which loads plugins" },
  { pattern: 'opencode.jsonc', at: 'anywhere', what: "OpenCode's configuration, which loads plugins" },
  { pattern: '.config/opencode/**', at: 'home', what: "OpenCode's user folder, whose plugins are its hooks" },
  { pattern: '**', at: 'state', what: "stategate's own state folder (the record of the active run, the runs' compiled definitions and the hook launcher)" },
];

/** Where the table's folders are on this machine. */
export interface EnforcementPlaces {
  /** The workspace folder (real path). */
  readonly root: string;
  readonly home?: string;
  /** userStateDir() (real path). */
  readonly stateDir?: string;
  /** The folder of the running stategate bundle (real path), when it runs from one (env.ts). */
  readonly bundleDir?: string;
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const slash = (p: string): string => p.split(path.sep).join('/');

const matchers = new Map<string, (p: string) => boolean>();
function matcher(glob: string): (p: string) => boolean {
  let m = matchers.get(glob);
  if (!m) {
    // Loaded on the first write decided (a hook process deciding a Read never needs it).
    const picomatch = require('picomatch') as typeof import('picomatch');
    m = picomatch(glob, { dot: true, nocase: true });
    matchers.set(glob, m);
  }
  return m;
}

/**
 * The longest run of a glob's text that every path it matches holds, lower-cased, without the slashes
 * at its ends (a globstar beside one may match nothing: `a/**` matches `a` itself). A path that does not
 * hold it cannot match (the globs are ASCII; picomatch's `nocase` folds ASCII case only), so
 * the glob is compiled only for a path that does: picomatch compiling each of the table's globs on every
 * write decided was most of what an Edit costs beyond a Read (docs/dev/hook-time.md).
 * test/unit/enforcement-files-prefilter.test.ts checks the answers against picomatch alone.
 */
function requiredText(glob: string): string {
  const runs = glob.split(/[*?[\]{}()!+@\\]/).map((run) => run.replace(/^\/+|\/+$/g, ''));
  return runs.reduce((longest, run) => (run.length > longest.length ? run : longest), '').toLowerCase();
}

const required = new Map<string, string>();
function matches(glob: string, p: string, lower: string): boolean {
  let text = required.get(glob);
  if (text === undefined) required.set(glob, (text = requiredText(glob)));
  return lower.includes(text) && matcher(glob)(p);
}

/** The entry a real absolute path falls under, if any. */
export function enforcementFileAt(real: string, places: EnforcementPlaces): EnforcementFile | undefined {
  const anywhere = slash(real).replace(/^\/+/, '');
  const anywhereLower = anywhere.toLowerCase();
  for (const entry of ENFORCEMENT_FILES) {
    if (entry.at === 'anywhere') {
      if (matches(`**/${entry.pattern}`, anywhere, anywhereLower)) return entry;
      continue;
    }
    const base = entry.at === 'home' ? places.home : entry.at === 'bundle' ? places.bundleDir : places.stateDir;
    if (base === undefined || !isInside(real, base, true)) continue;
    const rel = slash(path.relative(base.toLowerCase(), real.toLowerCase()));
    if (entry.pattern === '**' || matches(entry.pattern, rel, rel)) return entry;
  }
  return undefined;
}

/** VS Code-family user data folders (their `User/settings.json` is matched anywhere; these are where they are). */
const VSCODE_PRODUCTS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'];

function userSettingsFiles(places: EnforcementPlaces): string[] {
  const home = places.home;
  if (home === undefined) return [];
  const config =
    places.platform === 'win32'
      ? (places.env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'))
      : places.platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (places.env['XDG_CONFIG_HOME'] ?? path.join(home, '.config'));
  const codeServer = path.join(home, '.local', 'share', 'code-server');
  return [
    ...VSCODE_PRODUCTS.map((p) => path.join(config, p, 'User', 'settings.json')),
    path.join(codeServer, 'User', 'settings.json'),
    path.join(codeServer, 'Machine', 'settings.json'),
    path.join(home, '.vscode-server', 'data', 'Machine', 'settings.json'),
    // The folders stategate's extension is installed in (a tree write over one removes it).
    ...['.vscode', '.vscode-insiders', '.vscode-server', '.vscode-server-insiders', '.cursor', '.windsurf', '.vscode-oss'].map((d) => path.join(home, d, 'extensions')),
    path.join(codeServer, 'extensions'),
  ];
}

/** Where Claude Code's managed settings are on this platform (its settings documentation). */
function managedSettingsFolder(places: EnforcementPlaces): string {
  if (places.platform === 'win32') return path.join(places.env['ProgramData'] ?? 'C:\\ProgramData', 'ClaudeCode');
  if (places.platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  return '/etc/claude-code';
}

/**
 * Concrete files and folders of the table on this machine: the workspace's
 * and the home folder's copies, VS Code's user settings, stategate's state
 * folder. A command that writes a whole tree (`rm -rf X`, `mv X Y`, `tar -x`)
 * is denied when one of these lies inside it; copies deeper in other folders
 * are not searched for.
 */
export function enforcementLocations(places: EnforcementPlaces): string[] {
  const out: string[] = [];
  for (const entry of ENFORCEMENT_FILES) {
    const literal = entry.pattern.replace(/\/\*\*$/, '');
    if (entry.at === 'state' || entry.at === 'bundle') {
      const dir = entry.at === 'state' ? places.stateDir : places.bundleDir;
      if (dir !== undefined) out.push(dir);
    } else if (entry.at === 'home') {
      if (places.home !== undefined) out.push(path.join(places.home, literal));
    } else if (!/[*?[{]/.test(literal)) {
      out.push(path.join(places.root, literal));
      if (places.home !== undefined) out.push(path.join(places.home, literal));
    }
  }
  return [...new Set([...out, ...userSettingsFiles(places), managedSettingsFolder(places)])];
}
