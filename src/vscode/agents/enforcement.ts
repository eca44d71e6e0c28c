/**
 * "stategate: Enable Agent Enforcement" / "Disable Agent Enforcement": write
 * (and take back) the hook files that make VS Code's agents (and optionally
 * Claude Code) ask `stategate hook` before every tool call. Trusted
 * workspaces only, and only after the person has seen what will be written.
 * The JSON itself is built by hook-install.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clientLaunch, enableNotes, HOOK_CLIENTS, planDisable, planEnable, applyClientWrites, clientFileReader, planRepointMcp, writeFileAtomic, type HookClientName } from '../../engine/index.js';
import type { RegisterCommand } from '../contributions.js';
import type { HostRuntime } from './cli-launch.js';
import { CLAUDE_SETTINGS_FILE, describeWrites, repointHookEntries, VSCODE_HOOK_FILE } from './hook-install.js';

function hostRuntime(context: vscode.ExtensionContext): HostRuntime {
  return { execPath: process.execPath, extensionPath: context.extensionPath, platform: process.platform };
}

/**
 * Warn when VS Code's hook settings keep the written hooks from doing their job:
 * hooks off, the Claude Code file alone while VS Code ignores it, or both files
 * read by VS Code (every call would be decided twice; recent-calls.ts counts it once).
 */
function warnAboutHookSettings(files: { vscode: boolean; claude: boolean }): void {
  const chat = vscode.workspace.getConfiguration('chat');
  const notes: string[] = [];
  if (chat.get<boolean>('useHooks') === false) notes.push('chat.useHooks is off, so VS Code\'s agents run no hooks');
  const claudeHooks = chat.get<boolean>('useClaudeHooks') === true;
  if (files.claude && !files.vscode && !claudeHooks) notes.push('chat.useClaudeHooks is off, so VS Code\'s agents ignore the Claude Code file (Claude Code itself reads it)');
  if (files.claude && files.vscode && claudeHooks) notes.push('chat.useClaudeHooks is on, so VS Code runs both files\' hooks for every call (counted once, but decided twice): turn it off');
  if (notes.length === 0) return;
  void vscode.window.showWarningMessage(`stategate: hooks are written, but ${notes.join('; ')}.`, 'Open Settings').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'chat.use');
  });
}

/** The choices of the Enable command: the first three as before, then the other clients. */
const CHOICES: readonly { label: string; description: string; clients: readonly HookClientName[] }[] = [
  { label: 'VS Code agents', description: VSCODE_HOOK_FILE, clients: ['vscode'] },
  { label: 'VS Code agents and Claude Code', description: `${VSCODE_HOOK_FILE} + ${CLAUDE_SETTINGS_FILE}`, clients: ['vscode', 'claude'] },
  { label: 'Claude Code', description: CLAUDE_SETTINGS_FILE, clients: ['claude'] },
  { label: 'OpenAI Codex CLI', description: '.codex/hooks.json + .codex/config.toml', clients: ['codex'] },
  { label: 'Gemini CLI', description: '.gemini/settings.json', clients: ['gemini'] },
  { label: 'GitHub Copilot CLI', description: '.github/hooks/stategate-copilot.json + .mcp.json', clients: ['copilot'] },
  { label: 'Cursor', description: '.cursor/hooks.json + .cursor/mcp.json', clients: ['cursor'] },
  { label: 'OpenCode', description: '.opencode/plugin/stategate.js + opencode.json', clients: ['opencode'] },
  { label: 'Every agent', description: 'all of the above', clients: HOOK_CLIENTS },
];

async function enable(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder): Promise<string[] | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('stategate: agent enforcement writes hook commands that VS Code runs; it is available in trusted workspaces only.');
    return undefined;
  }
  const choice = await vscode.window.showQuickPick(CHOICES.map((c) => ({ ...c })), { title: 'stategate: Enable Agent Enforcement', placeHolder: 'Which agents should ask stategate before every tool call?' });
  if (!choice) return undefined;
  const rt = hostRuntime(context);
  const root = folder.uri.fsPath;
  const read = clientFileReader(root);
  const launch = clientLaunch(rt, path.join(root, '.stategate'));
  // Plan every client first: a file that cannot be edited stops the command before anything is written.
  const writes = choice.clients.flatMap((client) => planEnable(client, read, launch, rt));
  const notes = choice.clients.flatMap(enableNotes);
  const legacy = choice.clients.filter((c): c is 'vscode' | 'claude' => c === 'vscode' || c === 'claude').map((client) => ({ file: client === 'vscode' ? VSCODE_HOOK_FILE : CLAUDE_SETTINGS_FILE, client }));
  const others = writes.filter((w) => w.file !== VSCODE_HOOK_FILE && w.file !== CLAUDE_SETTINGS_FILE).map((w) => `${w.file}: ${w.what}`);
  const detail = [describeWrites(legacy, rt), ...(others.length ? ['', ...others] : []), ...(notes.length ? ['', ...notes] : [])].join('\n');
  const ok = await vscode.window.showInformationMessage('stategate will write these files:', { modal: true, detail }, 'Write');
  if (ok !== 'Write') return undefined;
  applyClientWrites(root, writes);
  warnAboutHookSettings({ vscode: choice.clients.includes('vscode'), claude: choice.clients.includes('claude') });
  void vscode.window.setStatusBarMessage('stategate: agent enforcement is on', 4000);
  return writes.map((w) => w.file);
}

function disable(folder: vscode.WorkspaceFolder): string[] {
  const root = folder.uri.fsPath;
  const read = clientFileReader(root);
  const plans = HOOK_CLIENTS.map((client) => planDisable(client, read));
  const writes = plans.flatMap((p) => p.writes);
  for (const note of plans.flatMap((p) => p.notes)) void vscode.window.showWarningMessage(`stategate: ${note}.`);
  applyClientWrites(root, writes);
  const changed = writes.map((w) => w.file);
  void vscode.window.setStatusBarMessage(changed.length ? `stategate: removed hooks from ${changed.join(', ')}` : 'stategate: no stategate hooks to remove', 4000);
  return changed;
}

/**
 * On activation: point stategate's existing hook entries, MCP server entries
 * and OpenCode plugin at this extension's CLI and runtime, when an update (a
 * new version folder) or a moved VS Code changed them. Only our entries' commands change; nothing is enabled that was
 * not; trusted workspaces only. A file that is not JSON is left alone.
 */
export function repointHooks(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder): void {
  if (!vscode.workspace.isTrusted) return;
  const rt = hostRuntime(context);
  const changed: string[] = [];
  for (const rel of [VSCODE_HOOK_FILE, CLAUDE_SETTINGS_FILE, '.codex/hooks.json', '.gemini/settings.json', '.cursor/hooks.json', '.github/hooks/stategate-copilot.json']) {
    const file = path.join(folder.uri.fsPath, rel);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // not enabled there
    }
    const next = repointHookEntries(text, rt);
    if (next === undefined) continue;
    try {
      writeFileAtomic(file, next);
      changed.push(rel);
    } catch (err) {
      void vscode.window.showWarningMessage(`stategate: could not point the hooks in ${rel} at this version: ${(err as Error).message}. Run "stategate: Enable Agent Enforcement" again.`);
    }
  }
  // The MCP entries of every client (and OpenCode's plugin) name the same CLI and runtime.
  for (const w of planRepointMcp(clientFileReader(folder.uri.fsPath), rt)) {
    try {
      writeFileAtomic(path.join(folder.uri.fsPath, w.file), w.text!);
      changed.push(w.file);
    } catch (err) {
      void vscode.window.showWarningMessage(`stategate: could not point stategate's entry in ${w.file} at this version: ${(err as Error).message}. Run "stategate: Enable Agent Enforcement" again.`);
    }
  }
  if (changed.length) void vscode.window.setStatusBarMessage(`stategate: agent hooks and MCP entries in ${changed.join(', ')} now run this version`, 4000);
}

export function registerEnforcementCommands(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder, register: RegisterCommand): vscode.Disposable[] {
  const guarded = <T>(fn: () => T | Promise<T>) => async (): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (err) {
      void vscode.window.showErrorMessage(`stategate: ${(err as Error)?.message ?? String(err)}`);
      return undefined;
    }
  };
  return [
    register('stategate.enableEnforcement', guarded(() => enable(context, folder))),
    register('stategate.disableEnforcement', guarded(() => disable(folder))),
  ];
}
