/**
 * The shell analyser for the extension host, loaded on the first shell call
 * decided (by the @stategate participant). Its code (the analysis and
 * web-tree-sitter's JS) is a bundle of its own (dist/cli/hook-shell.js, shared with the hook; see
 * scripts/build.mjs), so activating the extension never loads it.
 */
import type { ShellAnalyser, ShellRewriter } from '../../engine/index.js';

type ShellGate = typeof import('../../engine/shell/gate.js');
let gate: ShellGate | undefined;

function shellGate(): ShellGate {
  gate ??= require('../../engine/shell/gate.js') as ShellGate;
  return gate;
}

export const analyseShellLazily: ShellAnalyser = (command, rules) => shellGate().analyseForPolicy(command, rules);
export const rewriteShellLazily: ShellRewriter = (command, blockedEnv, overrides) => shellGate().rewriteForPolicy(command, blockedEnv, overrides);
