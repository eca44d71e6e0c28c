// In-host checks that the packaged extension is installed and activates in the real VS Code.
import * as vscode from 'vscode';
import { hostTest, waitFor } from '../src/suite';

const ID = 'stategate.stategate';

/** The part of stategate's exports these tests read. */
interface StategateExports {
  readonly version: string;
  /** How long activate() itself took (ms). */
  readonly activation?: { readonly startedAt: number; readonly ms: number };
}

hostTest('smoke', 'the host is a real VS Code', () => {
  if (!/^\d+\.\d+\.\d+/.test(vscode.version)) throw new Error(`odd vscode.version ${vscode.version}`);
  return { vscodeVersion: vscode.version, execPath: process.execPath, node: process.version };
});

hostTest('smoke', 'stategate is installed, activates and registers its commands', async () => {
  const ext = vscode.extensions.getExtension<StategateExports>(ID);
  if (!ext) throw new Error(`${ID} is not installed`);
  const activeBefore = ext.isActive;
  // The smoke workspace has no workflow file, so nothing has activated stategate yet:
  // this times loading its bundle and running activate() in this extension host.
  const start = performance.now();
  const api = await ext.activate();
  const activateMs = performance.now() - start;
  if (!ext.isActive) throw new Error('not active after activate()');
  const commands = await vscode.commands.getCommands(true);
  const ours = commands.filter((c) => c.startsWith('stategate.'));
  if (!ours.includes('stategate.showVersion')) throw new Error(`stategate.showVersion missing; have ${ours.join(', ')}`);
  const shown = await vscode.commands.executeCommand<string>('stategate.showVersion');
  if (shown !== ext.packageJSON.version) throw new Error(`showVersion returned ${shown}, package says ${ext.packageJSON.version}`);
  return { activeBefore, activateMs, activateCallMs: api.activation?.ms, apiVersion: api.version, commands: ours };
});

hostTest('activation', 'a workspace with workflow files activates stategate by itself', async () => {
  const ext = await waitFor('the stategate extension', () => vscode.extensions.getExtension<StategateExports>(ID));
  await waitFor('stategate to activate (workspaceContains)', () => ext.isActive, 30_000);
  return { activateCallMs: ext.exports.activation?.ms };
});
