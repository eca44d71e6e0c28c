// A test-only extension installed next to stategate in the end-to-end runs.
// On activation (onStartupFinished) it serves requests from the outer test
// through files in the folder named by STATEGATE_E2E_IPC:
//   <id>.request.json  {"suite": "smoke", "only"?: ["test name"]}
//                      or {"command": "workbench.action.closePanel", "args"?: [...]}
//   <id>.result.json   the HostSuiteResult, or {"ok", "value"?, "error"?} for a
//                      command; written atomically (tmp + rename)
// and writes `ready.json` ({"vscodeVersion", ...}) once it listens.
// Its own command `stategateE2e.setUserSetting(key, value)` changes a user
// setting through VS Code's configuration service, as the Settings editor does
// (written to the user's settings.json, onDidChangeConfiguration fired);
// `undefined` as the value removes it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runSuite } from './suite';
import '../suites/index';

function writeJson(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2));
  fs.renameSync(tmp, file);
}

export function activate(context: vscode.ExtensionContext): void {
  const dir = process.env.STATEGATE_E2E_IPC;
  if (!dir || !fs.existsSync(dir)) return;
  const busy = new Set<string>();
  let queue: Promise<void> = Promise.resolve();

  const scan = (): void => {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.request.json') || busy.has(name)) continue;
      busy.add(name);
      const id = name.slice(0, -'.request.json'.length);
      const request = path.join(dir, name);
      // One suite at a time, in arrival order: tests share one window.
      queue = queue.then(async () => {
        let result: unknown;
        try {
          const req = JSON.parse(fs.readFileSync(request, 'utf8')) as { suite?: string; only?: string[]; command?: string; args?: unknown[] };
          if (req.command) {
            try {
              result = { ok: true, value: await vscode.commands.executeCommand(req.command, ...(req.args ?? [])) };
            } catch (e) {
              result = { ok: false, error: String(e) };
            }
          } else {
            result = await runSuite(req.suite ?? '', req.only);
          }
        } catch (e) {
          result = { suite: '?', ok: false, tests: [], error: String(e) };
        }
        writeJson(path.join(dir, `${id}.result.json`), result);
        fs.rmSync(request, { force: true });
        busy.delete(name);
      });
    }
  };
  const timer = setInterval(scan, 100);
  context.subscriptions.push(
    { dispose: () => clearInterval(timer) },
    vscode.commands.registerCommand('stategateE2e.setUserSetting', async (key: string, value: unknown) => {
      await vscode.workspace.getConfiguration().update(key, value ?? undefined, vscode.ConfigurationTarget.Global);
      return vscode.workspace.getConfiguration().inspect(key)?.globalValue ?? null;
    }),
  );
  writeJson(path.join(dir, 'ready.json'), {
    vscodeVersion: vscode.version,
    execPath: process.execPath,
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    trusted: vscode.workspace.isTrusted,
  });
  scan();
}

export function deactivate(): void {}
