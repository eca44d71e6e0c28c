// In-host: the Problems of a big workflow come from the language server's process, and the extension
// host's thread stays free while it checks (run in rules.test.ts's launch, after the rules' Problems).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { hostTest, waitFor } from '../src/suite';
import { BIG_STATES, bigWorkflow, type HostThreadReport } from './big-workflow';

const ID = 'stategate.stategate';


interface StategateExports {
  languageServerPid(): Promise<number | undefined>;
}

hostTest('diagnostics', 'a big workflow is checked in the language server, not on the extension host\'s thread', async (): Promise<HostThreadReport> => {
  const ext = await waitFor('stategate to activate', () => {
    const found = vscode.extensions.getExtension<StategateExports>(ID);
    return found?.isActive ? found : undefined;
  }, 30_000);
  // The previous test opened workflows, which started the client; wait for its server to answer.
  const serverPid = await waitFor('the language server', () => ext.exports.languageServerPid(), 30_000);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  const file = path.join(folder.uri.fsPath, 'big', 'big.workflow.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bigWorkflow(BIG_STATES));
  const uri = vscode.Uri.file(file);

  const problems = (what: string, has: (message: string) => boolean): Promise<vscode.Diagnostic[]> =>
    waitFor(what, () => {
      const ours = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'stategate');
      return ours.some((d) => has(d.message)) ? ours : undefined;
    }, 60_000);
  const started = performance.now();
  const doc = await vscode.workspace.openTextDocument(uri);
  await problems('Problems for the big workflow', (m) => m.includes('`nowhere`'));
  const waitedMs = performance.now() - started;

  // Then an edit of a few characters, which the server checks again in full, while the host's
  // event loop is watched: opening 1.9 MB costs the host itself (the document, its copy to the
  // server), a re-check after a small edit costs the host nothing but its own idle work.
  const at = doc.getText().lastIndexOf('"nowhere"') + 1;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, doc.positionAt(at + 'nowhere'.length), '_else');
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the edit was not applied');
  const diagnostics = await problems('Problems after the edit', (m) => m.includes('`nowhere_else`'));
  delay.disable();

  // The lenses' arguments arrive from the server as JSON; the client hands the commands VS Code's own types.
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  const refs = lenses.find((l) => l.command?.command === 'editor.action.showReferences')?.command?.arguments ?? [];
  const start = lenses.find((l) => l.command?.command === 'stategate.startRun')?.command?.arguments ?? [];
  const lensArguments = {
    startRun: start[0] instanceof vscode.Uri && start[0].toString() === uri.toString(),
    showReferences: refs[0] instanceof vscode.Uri && refs[1] instanceof vscode.Position && Array.isArray(refs[2]) && refs[2].length > 0 && refs[2].every((l: unknown) => l instanceof vscode.Location),
  };

  const loaded = Object.keys(require.cache)
    .filter((k) => k.startsWith(ext.extensionPath))
    .map((k) => path.relative(ext.extensionPath, k).split(path.sep).join('/'));
  return {
    diagnosticCodes: diagnostics.map((d) => String(typeof d.code === 'object' && d.code !== null ? d.code.value : d.code)),
    waitedMs,
    maxDelayMs: delay.max / 1e6,
    p99DelayMs: delay.percentile(99) / 1e6,
    hostPid: process.pid,
    serverPid,
    loaded,
    lensArguments,
  };
});
