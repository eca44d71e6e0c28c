/**
 * The rule fields of the `state` view (README.md, "The command line"), shared by the
 * flat view (describe.ts) and a statechart run's (describe-chart.ts). `null`
 * for a rule means "no rule of that kind" (for `allowed_tools`: every tool).
 */
export interface RuleFieldsView {
  instructions: string | null;
  allowed_tools: readonly string[] | null;
  disallowed_tools: readonly string[];
  allowed_commands: readonly string[] | null;
  blocked_env: readonly string[];
  env_overrides: Readonly<Record<string, string>>;
  /** Where writes may go (util/paths/scope.ts): allowed_paths (null: no such list), denied_paths, and whether writes outside the workspace pass. */
  allowed_paths: readonly string[] | null;
  denied_paths: readonly string[];
  writes_outside_workspace: boolean;
  model: string | null;
  thinking_level: string | null;
}

export interface LimitsView {
  max_iterations: number | null;
  max_edit_lines: number | null;
  max_files_per_state: number | null;
  context_budget_bytes: number | null;
}
