/**
 * Issue 12, part 4, through `stategate hook` for both clients: an agent may
 * not switch its own gate off by writing the hook configuration, may not
 * reach the run's files through a symlink, and may not write outside the
 * workspace in a state with rules (unless allowed_paths admits it); by a
 * file tool or by a shell command alike. The allowed cases stay allowed.
 *
 * Per client, the hook runs as a process where its answer is the point: the
 * deny shape (the hook configuration), the allow shape with the sandbox's
 * rewrite (the allowed cases), the running CLI's own folder, a workspace
 * reached through a symlink, PostToolUse, and OpenCode's answer. The other
 * tables take the hook's decision in this process (helpers/hook-in-process.ts)
 * with the same environment (a home folder of their own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, type CliResult } from './helpers/cli';
import { cliInProcess } from './helpers/cli-in-process';
import { hookDecision, type InProcessDecision } from './helpers/hook-in-process';
import { tempDir } from './helpers/temp-dir';

/** Every call its own id, as clients send (two hooks answering one id are counted once: recent-calls.ts). */
let callSeq = 0;
const nextCallId = (): string => `call-${++callSeq}`;

type Client = 'vscode' | 'claude';

interface Place {
  readonly ws: string;
  readonly home: string;
  /** Outside the workspace, admitted by the `scoped` state's allowed_paths. */
  readonly outside: string;
  readonly env: Record<string, string>;
}

function workflow(outside: string) {
  return {
    id: 'writes',
    initial: 'write',
    meta: { debug: true },
    interrupts: { config: { trigger: { file_pattern: 'config/**' }, target: 'review' } },
    states: {
      write: { allowed_tools: ['Read', 'Write', 'Edit', 'MultiEdit', 'Bash', 'mcp__fs'], on: { DONE: 'done', STRICT: 'strict', SCOPED: 'scoped', FILES: 'files', FREE: 'free', LINES: 'lines' } },
      strict: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash'], allowed_commands: ['echo', 'cd', 'cp'], on: { DONE: 'done' } },
      scoped: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash'], allowed_paths: ['src/**', `${outside}/**`], denied_paths: ['src/generated/**'], on: { DONE: 'done' } },
      files: { allowed_tools: ['Edit', 'Bash'], max_files_per_state: 1, on: { DONE: 'done' } },
      lines: { allowed_tools: ['Read', 'Edit', 'MultiEdit', 'edit'], max_edit_lines: 5, on: { DONE: 'done' } },
      free: { on: { DONE: 'done' } },
      review: { allowed_tools: ['Read'], on: { OK: '$return' } },
      done: { type: 'final' },
    },
  };
}

/** The folders of a place (a workspace with the workflow, its own home folder so `~` is a temp folder, a folder outside both), no run yet. */
function folders(t: { after: (f: () => void) => void }): Place {
  const base = fs.realpathSync(tempDir('sg-hook-writes-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const outside = path.join(base, 'outside');
  for (const d of [ws, home, outside]) fs.mkdirSync(d);
  const env = { HOME: home, USERPROFILE: home, XDG_STATE_HOME: '', XDG_CONFIG_HOME: '', STATEGATE_STATE_DIR: '' };
  fs.writeFileSync(path.join(ws, 'w.workflow.json'), JSON.stringify(workflow(outside)));
  return { ws, home, outside, env };
}

/** A place with a running run in `state`, started through dist/cli.js. */
function place(t: { after: (f: () => void) => void }, state = 'write'): Place {
  const p = folders(t);
  assert.equal(cli(['run', 'start', 'w.workflow.json'], { cwd: p.ws, env: p.env }).code, 0);
  if (state !== 'write') assert.equal(cli(['run', 'force', state], { cwd: p.ws, env: p.env }).code, 0);
  return p;
}

/** place(), the run started and moved through the CLI's main in this process, in the place's environment. */
async function placeHere(t: { after: (f: () => void) => void }, state = 'write'): Promise<Place> {
  const p = folders(t);
  assert.equal((await cliInProcess(['run', 'start', 'w.workflow.json'], { cwd: p.ws, env: p.env })).code, 0);
  if (state !== 'write') assert.equal((await cliInProcess(['run', 'force', state], { cwd: p.ws, env: p.env })).code, 0);
  return p;
}

function event(client: Client, cwd: string, name: string, extra: Record<string, unknown>): string {
  const common =
    client === 'vscode'
      ? { hookEventName: name, sessionId: 'vs-1', timestamp: '2026-11-22T20:00:00.000Z', cwd, transcript_path: '/tmp/t.json', tool_use_id: nextCallId() }
      : { hook_event_name: name, session_id: 'cc-1', cwd, transcript_path: '/tmp/t.jsonl', tool_use_id: nextCallId() };
  return JSON.stringify({ ...common, ...extra });
}

/** Each client's tool names and input keys (test/fixtures/hooks/README.md). */
const TOOLS = {
  vscode: {
    write: (f: string, content: string) => ({ tool_name: 'create_file', tool_input: { filePath: f, content } }),
    edit: (f: string, oldString: string, newString: string) => ({ tool_name: 'replace_string_in_file', tool_input: { filePath: f, oldString, newString } }),
    multi: (f: string, oldString: string, newString: string) => ({ tool_name: 'multi_replace_string_in_file', tool_input: { explanation: 'x', replacements: [{ filePath: f, oldString, newString }] } }),
    shell: (command: string) => ({ tool_name: 'run_in_terminal', tool_input: { command, explanation: 'x', isBackground: false } }),
  },
  claude: {
    write: (f: string, content: string) => ({ tool_name: 'Write', tool_input: { file_path: f, content } }),
    edit: (f: string, old_string: string, new_string: string) => ({ tool_name: 'Edit', tool_input: { file_path: f, old_string, new_string } }),
    multi: (f: string, old_string: string, new_string: string) => ({ tool_name: 'MultiEdit', tool_input: { file_path: f, edits: [{ old_string, new_string }] } }),
    shell: (command: string) => ({ tool_name: 'Bash', tool_input: { command, description: 'x' } }),
  },
};

function pre(p: Place, client: Client, call: Record<string, unknown>): CliResult {
  return cli(['hook', '--client', client], { cwd: p.ws, input: event(client, p.ws, 'PreToolUse', call), env: p.env });
}

/** The hook's decision in this process, in the place's environment. */
function preHere(p: Place, client: Client, call: Record<string, unknown>): Promise<InProcessDecision> {
  return hookDecision(client, p.ws, JSON.parse(event(client, p.ws, 'PreToolUse', call)) as object, p.env);
}

function denied(r: CliResult | InProcessDecision, why: RegExp): void {
  if (!('code' in r)) {
    assert.equal(r.decision, 'deny', `allowed: ${r.reason}`);
    assert.match(r.reason, why);
    return;
  }
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json?.hookSpecificOutput?.permissionDecision, 'deny', `allowed: ${r.stdout}`);
  assert.match(r.json.hookSpecificOutput.permissionDecisionReason, why);
}

/** Allowed: nothing to say, or (a shell call) only the command wrapped in the sandbox, without a decision (src/engine/sandbox/). */
function allowed(r: CliResult | InProcessDecision): void {
  if (!('code' in r)) {
    assert.equal(r.decision, 'allow', `denied: ${r.reason}`);
    if (r.updatedInput !== undefined) assert.match(String((r.updatedInput as { command?: unknown }).command), /bwrap' /, `only a sandbox rewrite: ${JSON.stringify(r.updatedInput)}`);
    return;
  }
  assert.equal(r.code, 0, r.stderr);
  if (r.stdout === '') return;
  const out = r.json?.hookSpecificOutput;
  assert.equal(out?.permissionDecision, undefined, `denied: ${out?.permissionDecisionReason}`);
  assert.match(String(out?.updatedInput?.command), /bwrap' /, `only a sandbox rewrite: ${r.stdout}`);
}

const GATE = /installs or switches on the agent gate.*"stategate: Disable Agent Enforcement" or by stopping the run/;
const RUN_FILES = /one of the run's own files under \.stategate\//;

for (const client of ['vscode', 'claude'] as const) {
  const t = TOOLS[client];

  test(`${client}: the hook configuration cannot be written in a state that allows Write`, (c) => {
    const p = place(c);
    const at = (f: string) => path.join(p.ws, f);
    denied(pre(p, client, t.write(at('.github/hooks/stategate.json'), '{"hooks":{}}')), /\.github\/hooks\/stategate\.json is a hook file of VS Code and Copilot CLI.*installs or switches on the agent gate/);
    denied(pre(p, client, t.write(at('.claude/settings.local.json'), '{}')), GATE);
    denied(pre(p, client, t.write(at('.claude/settings.json'), '{"hooks":{}}')), GATE);
    denied(pre(p, client, t.multi(at('.claude/settings.json'), '"hooks"', '"x"')), GATE);
    denied(pre(p, client, t.write(at('.vscode/settings.json'), '{ "chat.useHooks": false }')), /VS Code workspace settings.*installs or switches on the agent gate/);
    denied(pre(p, client, t.write(at('team.code-workspace'), '{"settings":{"chat.useHooks":false}}')), GATE);
    denied(pre(p, client, t.write(path.join(p.home, '.claude', 'settings.json'), '{}')), /\.claude\/settings\.json is Claude Code's settings.*Disable Agent Enforcement/);
    denied(pre(p, client, t.write(path.join(p.home, '.copilot', 'hooks', 'x.json'), '{}')), GATE);
    denied(pre(p, client, t.write(path.join(p.home, '.local', 'state', 'stategate', 'launcher.js'), '')), /stategate's own state folder/);
  });

  test(`${client}: .vscode/settings.json may be edited where its hook settings stay as they were`, async (c) => {
    const p = await placeHere(c);
    const settings = path.join(p.ws, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, '{\n  "editor.tabSize": 2,\n  "chat.useHooks": true\n}\n');
    allowed(await preHere(p, client, t.edit(settings, '"editor.tabSize": 2', '"editor.tabSize": 4')));
    denied(await preHere(p, client, t.edit(settings, '"chat.useHooks": true', '"chat.useHooks": false')), GATE);
    // An edit whose result cannot be computed (text not in the file) is denied.
    denied(await preHere(p, client, t.edit(settings, '"no such text"', '"x"')), GATE);
    allowed(await preHere(p, client, t.write(settings, '{\n  "editor.tabSize": 8,\n  "chat.useHooks": true\n}\n')));
  });

  test(`${client}: a symlink does not reach the run's files or the hook configuration`, async (c) => {
    const p = await placeHere(c);
    fs.mkdirSync(path.join(p.ws, 'sub'));
    fs.symlinkSync('../.stategate', path.join(p.ws, 'sub', 'link'));
    fs.symlinkSync('.claude', path.join(p.ws, 'cfg'));
    denied(await preHere(p, client, t.write(path.join(p.ws, 'sub', 'link', 'active'), 'forged')), /sub\/link\/active \(really .*\/\.stategate\/active\) is one of the run's own files/);
    denied(await preHere(p, client, t.edit(path.join(p.ws, 'sub', 'link', 'runs', 'r', 'run.json'), 'a', 'b')), RUN_FILES);
    denied(await preHere(p, client, t.write(path.join(p.ws, 'cfg', 'settings.json'), '{}')), /cfg\/settings\.json \(really .*\/\.claude\/settings\.json\) is Claude Code's settings/);
    denied(await preHere(p, client, t.shell('echo x > sub/link/active')), /`> sub\/link\/active` writes sub\/link\/active \(really .*\.stategate\/active\), which is one of the run's own files/);
    denied(await preHere(p, client, t.shell('cp forged.json cfg/settings.local.json')), GATE);
  });

  test(`${client}: shell commands cannot write the hook configuration either`, async (c) => {
    const p = await placeHere(c);
    denied(await preHere(p, client, t.shell('echo \'{"hooks":{}}\' > .claude/settings.json')), /`> \.claude\/settings\.json` writes \.claude\/settings\.json, which is Claude Code's settings/);
    denied(await preHere(p, client, t.shell('cd .github/hooks && echo {} > stategate.json')), GATE);
    denied(await preHere(p, client, t.shell('rm -rf .github')), /holds .*\.github\/hooks/);
    denied(await preHere(p, client, t.shell('sed -i s/true/false/ .vscode/settings.json')), GATE);
    denied(await preHere(p, client, t.shell('echo x > ~/.claude/settings.json')), GATE);
  });

  test(`${client}: writes outside the workspace are denied in a state with rules, with the field to add`, async (c) => {
    const p = await placeHere(c);
    denied(await preHere(p, client, t.write('/etc/x', 'x')), /\/etc\/x is outside the workspace .* state 'write' has rules.*add "\/etc\/x" \(or a glob such as "\/etc\/\*\*"\) to the state's allowed_paths/);
    denied(await preHere(p, client, t.shell('echo x > /etc/x')), /writes \/etc\/x, which is outside the workspace/);
    denied(await preHere(p, client, t.shell('echo "alias ls=rm" >> ~/.bashrc')), /~\/\.bashrc .*is outside the workspace.*"~\/\.bashrc"/);
    denied(await preHere(p, client, t.write(path.join(p.home, '.bashrc'), 'x')), /outside the workspace/);
    denied(await preHere(p, client, t.write(path.join(p.home, '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA')), /authorized_keys is outside the workspace.*"~\/\.ssh\/authorized_keys"/);
    denied(await preHere(p, client, t.shell('cat key.pub >> ~/.ssh/authorized_keys')), /outside the workspace/);
  });

  test(`${client}: the allowed cases stay allowed`, (c) => {
    const p = place(c);
    allowed(pre(p, client, t.write(path.join(p.ws, 'src', 'a.ts'), 'export {};\n')));
    allowed(pre(p, client, t.write(path.join(p.ws, '.stategate', 'workflows', 'x.json'), '{}')));
    fs.mkdirSync(path.join(p.ws, '.stategate', 'workflows'), { recursive: true });
    fs.writeFileSync(path.join(p.ws, '.stategate', 'workflows', 'x.json'), '{"id": "x"}');
    allowed(pre(p, client, t.edit(path.join(p.ws, '.stategate', 'workflows', 'x.json'), '"x"', '"y"')));
    allowed(pre(p, client, t.shell('echo x > out.txt && mkdir -p build && rm -rf build/*')));
    allowed(pre(p, client, t.shell('cat .stategate/active')));
  });

  test(`${client}: allowed_paths admits, denied_paths wins`, async (c) => {
    const p = await placeHere(c, 'scoped');
    allowed(await preHere(p, client, t.write(path.join(p.ws, 'src', 'a.ts'), 'x')));
    allowed(await preHere(p, client, t.write(path.join(p.outside, 'report.txt'), 'x')));
    allowed(await preHere(p, client, t.shell(`echo x > ${p.outside}/log.txt`)));
    denied(await preHere(p, client, t.write(path.join(p.ws, 'README.md'), 'x')), /README\.md is not covered by allowed_paths of state 'scoped'/);
    denied(await preHere(p, client, t.write(path.join(p.ws, 'src', 'generated', 'x.ts'), 'x')), /matches denied_paths "src\/generated\/\*\*"/);
    denied(await preHere(p, client, t.shell('echo x > /etc/x')), /not covered by allowed_paths/);
    // Protected files stay protected whatever allowed_paths says.
    denied(await preHere(p, client, t.write(path.join(p.ws, 'src', '.claude', 'settings.json'), '{}')), GATE);
  });

  test(`${client}: a state without rules writes anywhere but the protected files`, async (c) => {
    const p = await placeHere(c, 'free');
    allowed(await preHere(p, client, t.write(path.join(p.outside, 'x'), 'x')));
    denied(await preHere(p, client, t.write(path.join(p.ws, '.claude', 'settings.local.json'), '{}')), GATE);
    denied(await preHere(p, client, t.shell('echo x > .stategate/active')), RUN_FILES);
  });

  test(`${client}: with restricted commands, a write stategate cannot place is denied`, async (c) => {
    const p = await placeHere(c, 'strict');
    allowed(await preHere(p, client, t.shell('echo x > out.txt')));
    denied(await preHere(p, client, t.shell('echo x > "$F"')), /cannot tell before it runs .*"\$F" is only known when the command runs/);
    denied(await preHere(p, client, t.shell('D=.stategate; echo x > $D/active')), /cannot tell before it runs/);
    denied(await preHere(p, client, t.shell('cd .stategate && echo x > active')), RUN_FILES);
  });

  test(`${client}: two spellings of one file count once for max_files_per_state`, async (c) => {
    const p = await placeHere(c, 'files');
    fs.mkdirSync(path.join(p.ws, 'src'));
    fs.symlinkSync('src', path.join(p.ws, 'lnk'));
    allowed(await preHere(p, client, t.edit(path.join(p.ws, 'src', 'a.ts'), 'a', 'b')));
    allowed(await preHere(p, client, t.edit(path.join(p.ws, 'lnk', 'a.ts'), 'b', 'c')));
    allowed(await preHere(p, client, t.edit(path.join(p.ws, 'src', '..', 'src', 'a.ts'), 'c', 'd')));
    denied(await preHere(p, client, t.edit(path.join(p.ws, 'src', 'b.ts'), 'a', 'b')), /max_files_per_state/);
  });

  test(`${client}: a workspace reached through a symlink is the same workspace`, (c) => {
    const p = place(c, 'files');
    const link = `${p.ws}-link`;
    fs.symlinkSync(p.ws, link);
    c.after(() => fs.rmSync(link, { force: true }));
    const viaLink = (call: Record<string, unknown>) => cli(['hook', '--client', client], { cwd: link, input: event(client, link, 'PreToolUse', call), env: p.env });
    denied(viaLink(t.edit(path.join(link, '.stategate', 'active'), 'a', 'b')), RUN_FILES);
    allowed(viaLink(t.edit(path.join(link, 'src', 'a.ts'), 'a', 'b')));
    // The real spelling of the same file is the same file for max_files_per_state.
    allowed(pre(p, client, t.edit(path.join(p.ws, 'src', 'a.ts'), 'b', 'c')));
    denied(viaLink(t.edit(path.join(link, 'src', 'b.ts'), 'a', 'b')), /max_files_per_state/);
  });

  test(`${client}: an interrupt's file_pattern matches where the file really is`, (c) => {
    const p = place(c);
    fs.mkdirSync(path.join(p.ws, 'config'));
    fs.symlinkSync('config', path.join(p.ws, 'settings-link'));
    const edit = t.edit(path.join(p.ws, 'settings-link', 'app.env'), 'A=1', 'A=2');
    const r = cli(['hook', '--client', client], { cwd: p.ws, input: event(client, p.ws, 'PostToolUse', { ...edit, tool_response: 'ok' }), env: p.env });
    assert.match(r.json?.hookSpecificOutput?.additionalContext ?? '', /\[STATEWRIGHT INTERRUPT\] Writing config\/app\.env fired interrupt "config"/);
  });

  test(`${client}: shell writes count against max_files_per_state (issue 29)`, async (c) => {
    const p = await placeHere(c, 'files');
    fs.mkdirSync(path.join(p.ws, 'src'));
    allowed(await preHere(p, client, t.edit(path.join(p.ws, 'src', 'a.ts'), 'a', 'b')));
    // Re-writing the file already edited is free, whoever writes it.
    allowed(await preHere(p, client, t.shell('echo x >> src/a.ts')));
    denied(await preHere(p, client, t.shell('echo x > src/b.ts')), /allows edits to 1 file\(s\) \(max_files_per_state\) and 1 are edited \(src\/a\.ts\); src\/b\.ts \(written by the command\) would be more/);
    denied(await preHere(p, client, t.shell('cp src/a.ts src/c.ts && rm src/a.ts')), /src\/c\.ts \(written by the command\) would be more/);
  });

  test(`${client}: a shell write fires the interrupt whose file_pattern it matches (issue 29)`, (c) => {
    const p = place(c);
    fs.mkdirSync(path.join(p.ws, 'config'));
    const post = (cmd: string) => cli(['hook', '--client', client], { cwd: p.ws, input: event(client, p.ws, 'PostToolUse', { ...t.shell(cmd), tool_response: 'ok' }), env: p.env });
    assert.equal(post('echo x > notes.txt').stdout, '', 'a write outside config/ fires nothing');
    assert.match(post('echo A=2 > config/app.env').json?.hookSpecificOutput?.additionalContext ?? '', /\[STATEWRIGHT INTERRUPT\] Writing config\/app\.env fired interrupt "config"/);
  });

  test(`${client}: every stategate.* setting is guarded in every VS Code settings file (issue 29)`, async (c) => {
    const p = await placeHere(c, 'free');
    const settings = path.join(p.ws, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, '{\n  "editor.tabSize": 2\n}\n');
    denied(await preHere(p, client, t.edit(settings, '"editor.tabSize": 2', '"editor.tabSize": 2,\n  "stategate.toolAliases": { "my_writer": "Read" }')), GATE);
    denied(await preHere(p, client, t.write(settings, '{ "stategate": { "toolAliases": { "my_writer": "Read" } } }')), GATE);
    allowed(await preHere(p, client, t.edit(settings, '"editor.tabSize": 2', '"editor.tabSize": 4')));
    const wsFile = path.join(p.ws, 'team.code-workspace');
    fs.writeFileSync(wsFile, '{ "folders": [{ "path": "." }], "settings": { "editor.tabSize": 2, "stategate.store": "" } }');
    denied(await preHere(p, client, t.edit(wsFile, '"stategate.store": ""', '"stategate.store": "postgres://x"')), GATE);
    // A workspace file's other settings may change now (it was refused whole before).
    allowed(await preHere(p, client, t.edit(wsFile, '"editor.tabSize": 2', '"editor.tabSize": 4')));
    for (const user of [path.join(p.home, '.vscode-server', 'data', 'Machine', 'settings.json'), path.join(p.home, '.local', 'share', 'code-server', 'Machine', 'settings.json'), path.join(p.home, '.config', 'Code', 'User', 'settings.json')]) {
      denied(await preHere(p, client, t.write(user, '{ "stategate.toolAliases": { "x": "Read" } }')), /VS Code (machine|user) settings.*installs or switches on the agent gate/);
    }
  });

  test(`${client}: Claude Code's managed settings and stategate's own installation are protected (issue 29)`, (c) => {
    const p = place(c, 'free');
    denied(pre(p, client, t.write('/etc/claude-code/managed-settings.json', '{"allowManagedHooksOnly": true}')), /Claude Code's managed settings.*installs or switches on the agent gate/);
    denied(pre(p, client, t.write('/etc/claude-code/managed-mcp.json', '{}')), /Claude Code's managed MCP servers/);
    denied(pre(p, client, t.write(path.join(p.home, '.vscode', 'extensions', 'stategate.stategate-1.4.0', 'dist', 'cli.js'), '')), /stategate's installed extension/);
    denied(pre(p, client, t.shell(`echo > ${p.home}/.vscode-server/extensions/stategate.stategate-1.4.0/package.json`)), /stategate's installed extension/);
    denied(pre(p, client, t.shell('rm -rf ~/.vscode/extensions')), /holds .*\.vscode\/extensions/);
    // The running CLI (this repository's dist/ in tests) is the hook itself.
    denied(pre(p, client, t.write(path.join(__dirname, '..', '..', 'dist', 'cli', 'hook.js'), '')), /folder of the running stategate CLI/);
    // V8's code caches beside the bundles are code the hook runs (src/cli/code-cache.ts): planted, replaced or edited.
    const cache = path.join(__dirname, '..', '..', 'dist', 'cli', 'hook.js.0123456789abcdef.cache');
    denied(pre(p, client, t.write(cache, 'planted')), /folder of the running stategate CLI/);
    denied(pre(p, client, t.edit(cache, 'a', 'b')), /folder of the running stategate CLI/);
    for (const cmd of [`cp evil.bin ${cache}`, `tee ${cache} < evil.bin`, `mv evil.bin ${cache.replace('hook.js', 'hook-shell.js')}`]) {
      denied(pre(p, client, t.shell(cmd)), /folder of the running stategate CLI/);
    }
    denied(pre(p, client, t.write(path.join(p.home, '.vscode', 'extensions', 'stategate.stategate-1.4.0', 'dist', 'cli', 'hook.js.0123456789abcdef.cache'), '')), /stategate's installed extension/);
  });

  test(`${client}: MCP and unknown tools may not name a protected file in their arguments (issue 29)`, async (c) => {
    const p = await placeHere(c, 'free');
    const call = (tool: string, input: unknown) => preHere(p, client, { tool_name: tool, tool_input: input });
    denied(await call('mcp__fs__write_file', { path: '.claude/settings.json', content: '{}' }), /mcp__fs__write_file denied: its arguments name \.claude\/settings\.json, which is Claude Code's settings.*does not know this tool/);
    denied(await call('fs/edit', { edits: [{ target: { file: path.join(p.ws, '.github', 'hooks', 'x.json') } }] }), /\.github\/hooks\/x\.json/);
    denied(await call('mcp__fs__write_files', { files: { '.stategate/active': 'forged' } }), /one of the run's own files/);
    denied(await call('mcp__fs__copy', { from: 'a', to: '~/.claude/settings.json' }), /Claude Code's settings/);
    denied(await call('mcp__fs__write_file', { uri: `file://${p.ws}/.vscode/settings.json`, content: '{}' }), GATE);
    denied(await call('my_own_tool', { target: '.claude/settings.local.json' }), GATE);
    // A folder named may be removed or filled by the tool: one holding a protected file is refused.
    denied(await call('mcp__fs__delete_directory', { path: '.github' }), /its arguments name \.github, which holds .*\.github\/hooks/);
    denied(await call('mcp__fs__move', { source: 'evil', destination: '.claude' }), /holds .*\.claude\/settings/);
    denied(await call('mcp__fs__delete_directory', { path: '.stategate' }), /holds .*\.stategate\/(active|runs)/);
    // The workspace itself and the folders above it are what everyday tools name (a repository, a root).
    allowed(await call('mcp__git__git_status', { repo_path: p.ws }));
    allowed(await call('mcp__fs__list_directory', { path: '.' }));
    allowed(await call('mcp__fs__list_directory', { path: 'src' }));
    // Everyday calls: text that is no protected path, URLs, ordinary files.
    allowed(await call('mcp__fs__write_file', { path: 'src/a.ts', content: 'export const a = 1;' }));
    allowed(await call('mcp__search__query', { query: 'how to configure .claude settings', url: 'https://example.invalid/.claude/settings.json', limit: 5 }));
    allowed(await call('mcp__github__create_issue', { title: 'settings.json is broken', body: 'see\n.claude/settings.json' }));
    // A known read-only tool reading a protected file is fine.
    allowed(await preHere(p, client, client === 'claude' ? { tool_name: 'Read', tool_input: { file_path: '.claude/settings.json' } } : { tool_name: 'read_file', tool_input: { filePath: '.claude/settings.json' } }));
  });

  test(`${client}: the clients' MCP server lists are protected: a server listed there runs outside the sandbox`, async (c) => {
    const p = await placeHere(c, 'free');
    fs.writeFileSync(path.join(p.ws, '.mcp.json'), '{ "mcpServers": {} }\n');
    // stategate's entry re-pointed at the agent's own script would serve the always-allowed workflow tools.
    denied(await preHere(p, client, t.write(path.join(p.ws, '.mcp.json'), '{ "mcpServers": { "stategate": { "command": "node", "args": ["evil.js"] } } }')), /project's MCP servers .* outside the sandbox.*installs or switches on the agent gate/);
    denied(await preHere(p, client, t.shell(`echo '{"servers":{"x":{"command":"sh"}}}' > .vscode/mcp.json`)), /VS Code's workspace MCP servers/);
    denied(await preHere(p, client, t.shell('cp my-servers.json .cursor/mcp.json')), /Cursor's MCP servers/);
    denied(await preHere(p, client, t.write(path.join(p.home, '.claude.json'), '{}')), /Claude Code's user configuration/);
    denied(await preHere(p, client, { tool_name: 'mcp__fs__write_file', tool_input: { path: '.mcp.json', content: '{}' } }), /project's MCP servers/);
    // Reading them, and an ordinary file of that name elsewhere, stay everyday work.
    allowed(await preHere(p, client, t.shell('cat .mcp.json')));
    allowed(await preHere(p, client, t.write(path.join(p.ws, 'docs', 'mcp.json'), '{}')));
  });

}

test('vscode: an apply_patch touching the hook file is denied', (c) => {
  const p = place(c);
  const patch = '*** Begin Patch\n*** Update File: .github/hooks/stategate.json\n@@\n-{}\n+{"hooks":{}}\n*** End Patch';
  denied(pre(p, 'vscode', { tool_name: 'apply_patch', tool_input: { input: patch, explanation: 'x' } }), GATE);
});

/** replace_all changes every occurrence: max_edit_lines counts each (issue 29). [client, call, lines or refusal]. */
const REPLACE_ALL: Array<[string, Record<string, unknown>, RegExp | 'allow']> = [
  ['claude', { tool_name: 'Edit', tool_input: { file_path: 'many.txt', old_string: 'foo', new_string: 'bar', replace_all: true } }, /This edit changes 8 line\(s\); state 'lines' allows 5/],
  ['claude', { tool_name: 'Edit', tool_input: { file_path: 'many.txt', old_string: 'foo\n', new_string: 'bar\nbaz\n', replace_all: true } }, /changes 16 line\(s\)/],
  ['claude', { tool_name: 'MultiEdit', tool_input: { file_path: 'many.txt', edits: [{ old_string: 'top', new_string: 'TOP' }, { old_string: 'foo', new_string: 'bar', replace_all: true }] } }, /changes 9 line\(s\)/],
  ['opencode', { tool_name: 'edit', tool_input: { filePath: 'many.txt', oldString: 'foo', newString: 'bar', replaceAll: true } }, /changes 8 line\(s\)/],
  ['claude', { tool_name: 'Edit', tool_input: { file_path: 'missing.txt', old_string: 'foo', new_string: 'bar', replace_all: true } }, /replaces every occurrence \(replace_all\) in missing\.txt, which stategate cannot read to count them/],
  ['claude', { tool_name: 'Edit', tool_input: { file_path: 'many.txt', old_string: 'top', new_string: 'TOP', replace_all: true } }, 'allow'],
  ['claude', { tool_name: 'Edit', tool_input: { file_path: 'many.txt', old_string: 'top', new_string: 'TOP' } }, 'allow'],
];
for (const [client, call, expect] of REPLACE_ALL) {
  // OpenCode's row runs the hook process (its own answer shape); the others take the hook's decision in this process.
  test(`${client}: ${JSON.stringify(call.tool_input)} under max_edit_lines 5`, async (c) => {
    const viaProcess = client === 'opencode';
    const p = viaProcess ? place(c, 'lines') : await placeHere(c, 'lines');
    fs.writeFileSync(path.join(p.ws, 'many.txt'), `top\n${'foo\n'.repeat(8)}`);
    const payload = { hook_event_name: 'PreToolUse', session_id: 's', cwd: p.ws, tool_use_id: nextCallId(), ...call };
    let reason: string | undefined;
    if (viaProcess) {
      const r = cli(['hook', '--client', client], { cwd: p.ws, input: JSON.stringify(payload), env: p.env });
      reason = r.json?.hookSpecificOutput?.permissionDecisionReason ?? r.json?.reason;
    } else {
      const d = await hookDecision(client as Client, p.ws, payload, p.env);
      reason = d.denied ? d.reason : undefined;
    }
    if (expect === 'allow') return assert.ok(reason === undefined, `denied: ${reason}`);
    assert.match(String(reason), expect);
  });
}
