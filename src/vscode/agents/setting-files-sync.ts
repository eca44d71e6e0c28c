/**
 * Settings that processes outside VS Code (the hook, the CLI, the MCP server)
 * must follow, kept as files in `.stategate/` where they can read them:
 * - `stategate.toolAliases` → `.stategate/tool-aliases.json`, so every client
 *   decides with the same aliases as the `@stategate` participant;
 * - `stategate.mirrorRunRecord` → `.stategate/record-mirror.json`, so whichever
 *   process commits a change of the run also copies its record to
 *   `.claude/agent-state.json`.
 * Only in a trusted workspace: Restricted Mode writes nothing.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeMirrorSetting, writeToolAliases } from '../../engine/index.js';
import type { RunService } from '../runtime/run-service.js';
import { mirrorRunRecord, toolAliases } from './settings.js';

interface SettingFile {
  readonly setting: string;
  readonly file: string;
  /** What agents outside the participant miss when the file cannot be written. */
  readonly missed: string;
  write(storeDir: string, folder: vscode.WorkspaceFolder): void;
}

const SETTING_FILES: readonly SettingFile[] = [
  {
    setting: 'stategate.toolAliases',
    file: 'tool-aliases.json',
    missed: 'agents outside the @stategate participant do not see stategate.toolAliases',
    write: (dir, folder) => writeToolAliases(dir, toolAliases(folder)),
  },
  {
    setting: 'stategate.mirrorRunRecord',
    file: 'record-mirror.json',
    missed: 'the run record is not mirrored to .claude/agent-state.json',
    write: (dir, folder) => writeMirrorSetting(dir, mirrorRunRecord(folder)),
  },
];

export function syncSettingFiles(service: RunService): vscode.Disposable[] {
  const run = (only?: SettingFile): void => {
    if (!vscode.workspace.isTrusted) return;
    const dir = path.join(service.folder.uri.fsPath, '.stategate');
    for (const s of only ? [only] : SETTING_FILES) {
      try {
        s.write(dir, service.folder);
      } catch (err) {
        void vscode.window.showWarningMessage(`stategate: could not write .stategate/${s.file}, so ${s.missed}: ${(err as Error)?.message ?? String(err)}`);
      }
    }
  };
  run();
  return [
    vscode.workspace.onDidChangeConfiguration((e) => {
      for (const s of SETTING_FILES) if (e.affectsConfiguration(s.setting, service.folder)) run(s);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => run()),
  ];
}
