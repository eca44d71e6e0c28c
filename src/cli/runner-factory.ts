/**
 * The Runner every CLI command uses, with the shell analyser plugged in.
 * The analyser's module (and its WASM parser) loads only when a shell call is
 * decided, so other commands and non-shell hook calls never pay for it.
 */
import { Runner, type ShellAnalyser, type ShellRewriter } from '../engine/runner.js';
import { analyseForPolicy, rewriteForPolicy } from '../engine/shell-gate.js';
import { configureShellParser } from '../engine/shell-parser.js';

export function createRunner(dir: string, workspaceRoot?: string): Runner {
  // A CLI process answers and exits: compile the parser's WASM without background tier-up
  // (which holds the process ~0.5-1 s at exit). The .wasm files sit beside the bundle.
  configureShellParser({ liftoffOnly: true, wasmDir: __dirname });
  const analyseShell: ShellAnalyser = analyseForPolicy;
  const rewriteShell: ShellRewriter = rewriteForPolicy;
  return new Runner({ dir, ...(workspaceRoot ? { workspaceRoot } : {}), analyseShell, rewriteShell, lockTimeoutMs: 3000 });
}
