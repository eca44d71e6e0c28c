/**
 * A Runner over the same `.stategate/` as the RunService, with the shell
 * analyser plugged in: the participant decides shell calls (run_in_terminal)
 * itself, and without an analyser a restricted state denies every command.
 * The files are the single source of truth, so two Runner objects on one
 * folder agree; the parser's WASM loads only when a shell call is decided.
 */
import * as path from 'node:path';
import { Runner } from '../../engine/runner.js';
import { analyseShellLazily, rewriteShellLazily } from '../runtime/lazy-shell.js';
import type { RunService } from '../runtime/run-service.js';

export function gatedRunner(service: RunService): Runner {
  const root = service.folder.uri.fsPath;
  return new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, analyseShell: analyseShellLazily, rewriteShell: rewriteShellLazily });
}
