/**
 * The policy's door to shell analysis: turns a state's ShellRules into the
 * analyser's rules and its answer into a ShellVerdict. Until the analyser
 * (shell.ts) is wired in, every restricted command is denied: fail closed.
 */
import type { ShellRules, ShellVerdict } from './policy.js';

export async function analyseForPolicy(command: string, rules: ShellRules): Promise<ShellVerdict> {
  void command;
  void rules;
  return { ok: false, reason: 'shell analysis is not available in this build' };
}

export function rewriteForPolicy(command: string, blockedEnv: readonly string[], overrides: Readonly<Record<string, string>>): string {
  void blockedEnv;
  void overrides;
  return command;
}
