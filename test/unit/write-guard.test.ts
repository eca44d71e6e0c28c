/**
 * The path rules of every write (write-guard.ts): the enforcement files
 * (enforcement-files.ts), the run's own files, tree writes, and a state's
 * path scope (allowed_paths, denied_paths, the workspace default).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENFORCEMENT_FILES } from '../../src/engine/util/paths/enforcement-files';
import { globProblem } from '../../src/engine/util/paths/globs';
import { stateHasRules, type PathScope } from '../../src/engine/util/paths/scope';
import { PathGuard, type PathEnv } from '../../src/engine/util/paths/write-guard';
import type { StateRules } from '../../src/engine/model/index.js';

/** A machine with no files: every path is taken as written (symlinks are real-path.test.ts's). */
const ENV: PathEnv = {
  root: '/ws',
  home: '/home/me',
  stateDir: '/home/me/.local/state/stategate',
  platform: 'linux',
  env: {},
  realpath: () => undefined,
  readlink: () => undefined,
};
const guard = new PathGuard(ENV);
const protection = (p: string, tree = false) => guard.protection(guard.resolve(p), tree);

const protectedRows: Array<[string, RegExp]> = [
  ['.github/hooks/stategate.json', /hook file of VS Code and Copilot CLI/],
  ['.github/hooks/other.json', /hook file/],
  ['.claude/settings.json', /Claude Code's settings/],
  ['.claude/settings.local.json', /Claude Code's local settings/],
  ['.CLAUDE/Settings.json', /Claude Code's settings/],
  ['.vscode/settings.json', /VS Code workspace settings/],
  ['project.code-workspace', /workspace file/],
  ['/elsewhere/team.code-workspace', /workspace file/],
  ['/home/me/.claude/settings.json', /Claude Code's settings/],
  ['/home/me/.claude/settings.local.json', /Claude Code's local settings/],
  ['/home/me/.copilot/hooks/x.json', /Copilot CLI user hook file/],
  ['/home/me/.config/Code/User/settings.json', /VS Code user settings/],
  ['/home/me/.config/Code - Insiders/User/settings.json', /VS Code user settings/],
  ['/home/me/.local/share/code-server/User/settings.json', /VS Code user settings/],
  ['/home/me/.config/Code/User/profiles/abc/settings.json', /VS Code profile settings/],
  ['.codex/hooks.json', /Codex's hook file/],
  ['.codex/config.toml', /Codex's configuration/],
  ['.gemini/settings.json', /Gemini CLI/],
  // The clients' MCP server lists: each server listed runs outside the sandbox.
  ['.mcp.json', /project's MCP servers for Claude Code and Copilot CLI/],
  ['sub/pkg/.MCP.json', /project's MCP servers/],
  ['.vscode/mcp.json', /VS Code's workspace MCP servers/],
  ['/home/me/.config/Code/User/mcp.json', /VS Code's user MCP servers/],
  ['/home/me/.config/Code/User/profiles/abc/mcp.json', /VS Code's profile MCP servers/],
  ['.cursor/mcp.json', /Cursor's MCP servers/],
  ['/home/me/.cursor/mcp.json', /Cursor's MCP servers/],
  ['/home/me/.copilot/mcp-config.json', /Copilot CLI's user MCP servers/],
  ['/home/me/.claude.json', /Claude Code's user configuration/],
  ['.cursor/hooks.json', /Cursor's hook file/],
  ['.opencode/plugin/gate.js', /OpenCode's project folder/],
  ['opencode.json', /OpenCode's configuration/],
  ['/home/me/.config/opencode/plugin/x.ts', /OpenCode's user folder/],
  ['/home/me/.local/state/stategate/launcher.js', /stategate's own state folder/],
  ['/home/me/.local/state/stategate', /stategate's own state folder/],
  ['.stategate/active', /one of the run's own files/],
  ['src/../.stategate/runs/r/run.json', /one of the run's own files/],
  // Issue 29: Claude Code's managed settings, VS Code's machine settings, stategate's installed extension.
  ['/etc/claude-code/managed-settings.json', /Claude Code's managed settings/],
  ['/etc/claude-code/managed-mcp.json', /Claude Code's managed MCP servers/],
  ['/etc/claude-code/managed-settings.d/10-hooks.json', /part of Claude Code's managed settings/],
  ['/Library/Application Support/ClaudeCode/managed-settings.json', /Claude Code's managed settings/],
  ['C:/ProgramData/ClaudeCode/managed-mcp.json', /Claude Code's managed MCP servers/],
  ['/home/me/.vscode-server/data/Machine/settings.json', /VS Code machine settings/],
  ['/home/me/.local/share/code-server/Machine/settings.json', /VS Code machine settings/],
  ['/home/me/.vscode/extensions/stategate.stategate-1.4.0/dist/cli.js', /stategate's installed extension/],
  ['/home/me/.vscode-server/extensions/stategate.stategate-1.4.0/package.json', /stategate's installed extension/],
  ['/home/me/.local/share/code-server/extensions/stategate.stategate-1.4.0/dist/cli/hook.js', /stategate's installed extension/],
  // V8's code caches the hook writes beside its bundles (src/cli/code-cache.ts).
  ['/home/me/.vscode/extensions/stategate.stategate-1.4.0/dist/cli/hook.js.0123456789abcdef.cache', /stategate's installed extension/],
  ['/home/me/.vscode-server/extensions/stategate.stategate-1.4.0/dist/cli/hook-shell.js.0123456789abcdef.cache', /stategate's installed extension/],
];
for (const [p, why] of protectedRows) {
  test(`protected: ${p}`, () => {
    const r = protection(p);
    assert.ok(r, 'was writable');
    assert.match(`${r.where} ${r.what}`, why);
    if (!/\.stategate/.test(p)) assert.match(r.what, /installs or switches on the agent gate.*"stategate: Disable Agent Enforcement" or by stopping the run/);
  });
}

const freeRows = [
  'src/app.ts',
  '.github/workflows/ci.yml',
  // Read by Copilot CLI only where `.mcp.json` is missing (enforcement-files.ts says why it is left out).
  '.github/mcp.json',
  '.vscode/launch.json',
  'mcp.json',
  'docs/mcp.json.md',
  // Claude Code reads `.claude.json` from the home folder only.
  'sub/.claude.json',
  '.claude/agents/reviewer.md',
  'src/settings.json',
  '.stategate/workflows/x.json',
  '/home/me/.bashrc',
  '/etc/claude-code/notes.txt',
  '/home/me/.vscode/extensions/other.ext-1.0.0/x.js',
  '/home/me/.vscode-server/data/Machine/keybindings.json',
];
for (const p of freeRows) test(`not protected: ${p}`, () => assert.equal(protection(p), undefined));

test('every table entry names what it is', () => {
  for (const e of ENFORCEMENT_FILES) assert.ok(e.what.length > 10, e.pattern);
});

test('a tree write is refused when a protected file lies inside it', () => {
  assert.match(protection('.', true)?.what ?? '', /holds \/ws\/\.stategate\/active/);
  assert.match(protection('.github', true)?.what ?? '', /holds \/ws\/\.github\/hooks/);
  assert.match(protection('/home/me', true)?.what ?? '', /holds \/home\/me\/\./);
  assert.match(protection('/home/me/.local/state', true)?.what ?? '', /holds \/home\/me\/\.local\/state\/stategate/);
  assert.match(protection('/home/me/.config', true)?.what ?? '', /holds \/home\/me\/\.config\/(opencode|Code)/);
  assert.match(protection('/home/me/.vscode-server', true)?.what ?? '', /holds \/home\/me\/\.vscode-server\/(extensions|data)/);
  assert.match(protection('/etc', true)?.what ?? '', /holds \/etc\/claude-code/);
  assert.equal(protection('src', true), undefined);
  assert.equal(protection('.stategate/workflows/team', true), undefined);
  // The same folder written as a single file is no tree.
  assert.equal(protection('.github'), undefined);
});

const rules = (extra: Partial<StateRules> = {}): StateRules => ({ disallowedTools: [], blockedEnv: [], envOverrides: {}, ...extra });
const scope = (s: Partial<PathScope>): PathScope => ({ denied: [], outsideDenied: true, ...s });
const refusal = (p: string, sc: PathScope, tree = false) => {
  const r = guard.scopeRefusal(guard.resolve(p), sc, 'work', tree);
  return r ? `${r.where} ${r.what}` : undefined;
};

test('a state with rules keeps writes inside the workspace, and says which field to add', () => {
  assert.equal(refusal('src/a.ts', scope({})), undefined);
  assert.match(refusal('/etc/x', scope({})) ?? '', /^\/etc\/x is outside the workspace \(\/ws\).*add "\/etc\/x" \(or a glob such as "\/etc\/\*\*"\) to the state's allowed_paths/);
  assert.match(refusal('/home/me/.ssh/authorized_keys', scope({})) ?? '', /add "~\/\.ssh\/authorized_keys" \(or a glob such as "~\/\.ssh\/\*\*"\)/);
  assert.match(refusal('../sibling/x', scope({})) ?? '', /outside the workspace/);
  assert.equal(refusal('/etc/x', scope({ outsideDenied: false })), undefined);
});

test('allowed_paths admits, denied_paths wins, globs are workspace-relative or absolute', () => {
  const sc = scope({ allowed: ['src/**', '/tmp/build-*/**', '~/.cache/tool/**'], denied: ['src/generated/**', '**/*.lock'] });
  assert.equal(refusal('src/a.ts', sc), undefined);
  assert.equal(refusal('src/.hidden/x', sc), undefined, 'dot files are matched');
  assert.equal(refusal('/tmp/build-1/out.o', sc), undefined);
  assert.equal(refusal('/home/me/.cache/tool/x', sc), undefined);
  assert.match(refusal('docs/a.md', sc) ?? '', /is not covered by allowed_paths of state 'work' \("src\/\*\*", "\/tmp\/build-\*\/\*\*", "~\/\.cache\/tool\/\*\*"\)/);
  assert.match(refusal('/tmp/other/x', sc) ?? '', /not covered by allowed_paths/);
  assert.match(refusal('src/generated/x.ts', sc) ?? '', /matches denied_paths "src\/generated\/\*\*" of state 'work'/);
  assert.match(refusal('src/yarn.lock', sc) ?? '', /matches denied_paths "\*\*\/\*\.lock"/);
  // A tree is admitted only when everything in it is.
  assert.equal(refusal('src', sc, true), undefined);
  assert.match(refusal('.', sc, true) ?? '', /\(and everything in it\) is not covered/);
});

test('denied_paths applies without allowed_paths, inside the workspace and out', () => {
  const sc = scope({ denied: ['migrations/**', '/etc/**'], outsideDenied: false });
  assert.match(refusal('migrations/001.sql', sc) ?? '', /denied_paths/);
  assert.match(refusal('/etc/hosts', sc) ?? '', /denied_paths/);
  assert.equal(refusal('/var/tmp/x', sc), undefined);
});

test('a glob that cannot be read fails closed: it denies everything, admits nothing', () => {
  assert.match(refusal('src/a.ts', scope({ denied: ['src/[oops'] })) ?? '', /denied_paths "src\/\[oops"/);
  assert.match(refusal('src/a.ts', scope({ allowed: ['src/{oops'] })) ?? '', /not covered by allowed_paths/);
});

test('globProblem: malformed, empty and negated globs are named', () => {
  assert.equal(globProblem('src/**'), undefined);
  assert.equal(globProblem('/tmp/*.log'), undefined);
  assert.match(globProblem('src/[a') ?? '', /Missing closing/);
  assert.match(globProblem('src/{a,b') ?? '', /Missing closing/);
  assert.match(globProblem('') ?? '', /empty/);
  assert.match(globProblem('!src/**') ?? '', /negated/);
});

test('a state "has rules" when it sets any field that limits the agent', () => {
  assert.equal(stateHasRules(rules()), false);
  assert.equal(stateHasRules(rules({ instructions: 'x', envOverrides: { CI: '1' }, model: 'm' })), false);
  for (const extra of [
    { allowedTools: ['Read'] },
    { disallowedTools: ['Bash'] },
    { allowedCommands: [] },
    { blockedEnv: ['X'] },
    { maxIterations: 3 },
    { maxEditLines: 3 },
    { maxFilesPerState: 3 },
    { contextBudgetBytes: 3 },
    { allowedPaths: [] },
    { deniedPaths: ['x'] },
  ] as Partial<StateRules>[]) {
    assert.equal(stateHasRules(rules(extra)), true, JSON.stringify(extra));
  }
});

test('identity: one spelling per file, workspace-relative inside, absolute outside', () => {
  assert.equal(guard.identity(guard.resolve('./src//a.ts')), 'src/a.ts');
  assert.equal(guard.identity(guard.resolve('/ws/src/a.ts')), 'src/a.ts');
  assert.equal(guard.identity(guard.resolve('/tmp/x')), '/tmp/x');
});

/** Issue 29: a `.stategate` folder is created by no agent, anywhere; the workspace's own one is written as before. */
const storeRows: Array<[string, boolean]> = [
  ['sub/.stategate/workflows/w.json', true],
  ['sub/.stategate', true],
  ['a/b/c/.STATEGATE/notes.md', true],
  ['/tmp/x/.stategate/active', true],
  ['.stategate/workflows/w.json', false],
  ['sub/.stategate-notes/x', false],
  ['sub/stategate/x', false],
];
for (const [p, refused] of storeRows) {
  test(`${refused ? 'refused' : 'passes'}: a write of ${p}`, () => {
    const r = protection(p);
    if (!refused) return assert.equal(r, undefined);
    assert.ok(r, 'was writable');
    assert.match(r.what, /would create a \.stategate folder|one of the run's own files/);
  });
}

test('the folder of the running bundle is protected, and everything in it', () => {
  const g = new PathGuard({ ...ENV, bundleDir: '/opt/stategate/dist' });
  assert.match(g.protection(g.resolve('/opt/stategate/dist/cli/hook.js'))?.what ?? '', /folder of the running stategate CLI/);
  assert.match(g.protection(g.resolve('/opt/stategate/dist/cli/hook.js.0123456789abcdef.cache'))?.what ?? '', /folder of the running stategate CLI/);
  assert.match(g.protection(g.resolve('/opt/stategate'), true)?.what ?? '', /holds \/opt\/stategate\/dist/);
  assert.equal(g.protection(g.resolve('/opt/stategate/README.md')), undefined);
});

/** Issue 29: a file with more than one name (hard links) is refused, whatever the name written. */
const linkRows: Array<[links: number | undefined, refused: boolean]> = [
  [undefined, false],
  [1, false],
  [2, true],
  [7, true],
];
for (const [links, refused] of linkRows) {
  test(`a write to a file with ${links ?? 'no'} link(s) ${refused ? 'is refused' : 'passes'}`, () => {
    const g = new PathGuard({ ...ENV, linkCount: (p) => (p === '/ws/src/x.json' ? links : 1) });
    const r = g.protection(g.resolve('src/x.json'));
    if (!refused) return assert.equal(r, undefined);
    assert.match(`${r?.where} ${r?.what}`, new RegExp(`src/x\\.json has ${links} hard links: a write to it changes the file under every one of its names.*Copy it to a new file`));
    // A tree write over it is no write through the link.
    assert.equal(g.protection(g.resolve('src/x.json'), true), undefined);
  });
}
