/**
 * The policy's door to shell analysis (analyse.ts): the analyser and the
 * rewriter in the shapes the Runner takes. Kept apart from policy/decide.ts so the
 * policy stays synchronous and pure: the async parse happens before the lock.
 */
import type { ShellRules } from './rules.js';
import { analyseCommand, rewriteCommand, type ShellVerdict } from './analyse.js';

export async function analyseForPolicy(command: string, rules: ShellRules): Promise<ShellVerdict> {
  const verdict = await analyseCommand(command, rules);
  if (verdict.ok) return verdict;
  // Name the offending text unless the reason already quotes it.
  const named = verdict.offending !== undefined && !verdict.reason.includes(verdict.offending);
  const { offending: _offending, ...rest } = verdict;
  return { ...rest, reason: named ? `${verdict.reason} (${verdict.offending})` : verdict.reason };
}

export function rewriteForPolicy(command: string, blockedEnv: readonly string[], overrides: Readonly<Record<string, string>>): string {
  return rewriteCommand(command, blockedEnv, overrides);
}
