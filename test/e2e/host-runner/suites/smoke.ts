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
  // Timed once the host has settled: right after start-up it is still activating VS Code's own
  // extensions, and whatever it runs meanwhile lands inside any await of the activation timed here.
  const settleMs = await hostSettled();
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
  return { activeBefore, activateMs, activateCallMs: api.activation?.ms, settleMs, apiVersion: api.version, commands: ours };
});

/**
 * Waits (at most 10 s) until the extension host's event loop has been free for half a second: ten
 * 50 ms sleeps in a row, each woken within 5 ms of its time. Returns how long that took.
 */
async function hostSettled(): Promise<number> {
  const start = performance.now();
  let quiet = 0;
  while (quiet < 10 && performance.now() - start < 10_000) {
    const before = performance.now();
    await new Promise((r) => setTimeout(r, 50));
    quiet = performance.now() - before - 50 < 5 ? quiet + 1 : 0;
  }
  return performance.now() - start;
}

hostTest('activation', 'a workspace with workflow files activates stategate by itself', async () => {
  const ext = await waitFor('the stategate extension', () => vscode.extensions.getExtension<StategateExports>(ID));
  await waitFor('stategate to activate (workspaceContains)', () => ext.isActive, 30_000);
  return { activateCallMs: ext.exports.activation?.ms };
});
