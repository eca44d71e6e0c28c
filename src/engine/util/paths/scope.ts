/**
 * Where a state lets the agent write (our addition to the format,
 * docs/format.md): `allowed_paths` and `denied_paths` globs, and the default
 * that a state with rules keeps writes inside the workspace folder.
 *
 * - `denied_paths` wins: a write matching one is denied.
 * - With `allowed_paths`, every write must match one of them (inside the
 *   workspace or not).
 * - Without it, a state that has rules (any field that limits the agent,
 *   `RESTRICTING_FIELDS`) denies writes outside the workspace; a state with
 *   none lets the agent write anywhere, as before.
 *
 * Writes are Write/Edit/patch tool calls and shell writes (redirects and
 * file-writing commands). Reads are not limited by these fields.
 */
import type { StateRules } from '../../model/index.js';

/** The state fields that make a state "have rules" (the format's names). */
export const RESTRICTING_FIELDS = [
  'allowed_tools',
  'disallowed_tools',
  'allowed_commands',
  'blocked_env',
  'max_iterations',
  'max_edit_lines',
  'max_files_per_state',
  'context_budget_bytes',
  'allowed_paths',
  'denied_paths',
] as const;

export interface PathScope {
  readonly allowed?: readonly string[];
  readonly denied: readonly string[];
  /** Writes outside the workspace need `allowed_paths`. */
  readonly outsideDenied: boolean;
}

/** Does the state set any field that limits the agent? */
export function stateHasRules(rules: StateRules): boolean {
  return (
    rules.allowedTools !== undefined ||
    rules.disallowedTools.length > 0 ||
    rules.allowedCommands !== undefined ||
    rules.blockedEnv.length > 0 ||
    rules.maxIterations !== undefined ||
    rules.maxEditLines !== undefined ||
    rules.maxFilesPerState !== undefined ||
    rules.contextBudgetBytes !== undefined ||
    rules.allowedPaths !== undefined ||
    (rules.deniedPaths?.length ?? 0) > 0
  );
}

export function pathScopeOf(rules: StateRules): PathScope {
  return {
    ...(rules.allowedPaths !== undefined ? { allowed: rules.allowedPaths } : {}),
    denied: rules.deniedPaths ?? [],
    outsideDenied: stateHasRules(rules),
  };
}
