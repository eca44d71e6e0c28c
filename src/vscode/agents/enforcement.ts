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
import { writeFileAtomic } from '../../engine/index.js';
import type { RegisterCommand } from '../contributions.js';
import type { HostRuntime } from './cli-launch.js';
import {
  CLAUDE_SETTINGS_FILE,
  describeWrites,
  isOurVscodeHookFile,
  mergeClaudeSettings,
  removeFromClaudeSettings,
  repointHookEntries,
  VSCODE_HOOK_FILE,
  vscodeHookFile,
} from './hook-install.js';

function hostRuntime(context: vscode.ExtensionContext): HostRuntime {
  return { execPath: process.execPath, extensionPath: context.extensionPath, platform: process.platform };
}

/** Parsed JSON of a file, undefined when absent; throws on a file that is not JSON (never clobber it). */
function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON; fix or remove it first (stategate does not overwrite it)`);
  }
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Warn when VS Code's hook settings keep the written hooks from doing their job:
 * hooks off, the Claude Code file alone while VS Code ignores it, or both files
 * read by VS Code (every call would be decided, and counted, twice).
 */
function warnAboutHookSettings(files: { vscode: boolean; claude: boolean }): void {
  const chat = vscode.workspace.getConfiguration('chat');
  const notes: string[] = [];
  if (chat.get<boolean>('useHooks') === false) notes.push('chat.useHooks is off, so VS Code\'s agents run no hooks');
  const claudeHooks = chat.get<boolean>('useClaudeHooks') === true;
  if (files.claude && !files.vscode && !claudeHooks) notes.push('chat.useClaudeHooks is off, so VS Code\'s agents ignore the Claude Code file (Claude Code itself reads it)');
  if (files.claude && files.vscode && claudeHooks) notes.push('chat.useClaudeHooks is on, so VS Code runs both files\' hooks and counts every call twice: turn it off');
  if (notes.length === 0) return;
  void vscode.window.showWarningMessage(`stategate: hooks are written, but ${notes.join('; ')}.`, 'Open Settings').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'chat.use');
  });
}

async function enable(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder): Promise<string[] | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('stategate: agent enforcement writes hook commands that VS Code runs; it is available in trusted workspaces only.');
    return undefined;
  }
  const choice = await vscode.window.showQuickPick(
    [
      { label: 'VS Code agents', description: VSCODE_HOOK_FILE, vscode: true, claude: false },
      { label: 'VS Code agents and Claude Code', description: `${VSCODE_HOOK_FILE} + ${CLAUDE_SETTINGS_FILE}`, vscode: true, claude: true },
      { label: 'Claude Code', description: CLAUDE_SETTINGS_FILE, vscode: false, claude: true },
    ],
    { title: 'stategate: Enable Agent Enforcement', placeHolder: 'Which agents should ask stategate before every tool call?' },
  );
  if (!choice) return undefined;
  const rt = hostRuntime(context);
  const files = [...(choice.vscode ? [{ file: VSCODE_HOOK_FILE, client: 'vscode' as const }] : []), ...(choice.claude ? [{ file: CLAUDE_SETTINGS_FILE, client: 'claude' as const }] : [])];
  const ok = await vscode.window.showInformationMessage('stategate will write these files:', { modal: true, detail: describeWrites(files, rt) }, 'Write');
  if (ok !== 'Write') return undefined;
  const root = folder.uri.fsPath;
  if (choice.vscode) writeJson(path.join(root, VSCODE_HOOK_FILE), vscodeHookFile(rt));
  if (choice.claude) {
    const file = path.join(root, CLAUDE_SETTINGS_FILE);
    writeJson(file, mergeClaudeSettings(readJson(file), rt));
  }
  warnAboutHookSettings(choice);
  void vscode.window.setStatusBarMessage('stategate: agent enforcement is on', 4000);
  return files.map((f) => f.file);
}

function disable(folder: vscode.WorkspaceFolder): string[] {
  const root = folder.uri.fsPath;
  const changed: string[] = [];
  const hookFile = path.join(root, VSCODE_HOOK_FILE);
  if (fs.existsSync(hookFile)) {
    if (isOurVscodeHookFile(readJson(hookFile))) {
      fs.rmSync(hookFile);
      changed.push(VSCODE_HOOK_FILE);
    } else void vscode.window.showWarningMessage(`stategate: ${VSCODE_HOOK_FILE} was changed by hand; it is left as it is.`);
  }
  const claudeFile = path.join(root, CLAUDE_SETTINGS_FILE);
  if (fs.existsSync(claudeFile)) {
    const { settings, removed } = removeFromClaudeSettings(readJson(claudeFile));
    if (removed > 0) {
      if (settings) writeJson(claudeFile, settings);
      else fs.rmSync(claudeFile);
      changed.push(CLAUDE_SETTINGS_FILE);
    }
  }
  void vscode.window.setStatusBarMessage(changed.length ? `stategate: removed hooks from ${changed.join(', ')}` : 'stategate: no stategate hooks to remove', 4000);
  return changed;
}

/**
 * On activation: point stategate's existing hook entries at this extension's
 * CLI and runtime, when an update (a new version folder) or a moved VS Code
 * changed them. Only our entries' commands change; nothing is enabled that was
 * not; trusted workspaces only. A file that is not JSON is left alone.
 */
export function repointHooks(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder): void {
  if (!vscode.workspace.isTrusted) return;
  const rt = hostRuntime(context);
  const changed: string[] = [];
  for (const rel of [VSCODE_HOOK_FILE, CLAUDE_SETTINGS_FILE]) {
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
  if (changed.length) void vscode.window.setStatusBarMessage(`stategate: agent hooks in ${changed.join(', ')} now run this version`, 4000);
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
