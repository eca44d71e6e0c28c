/**
 * The known field names of each object in the Statewright format (the seed's
 * schema reference plus the reference implementation's additions). The loader
 * warns about any other key (except under `meta`, which is open by design).
 */

export const WORKFLOW_FIELDS = [
  '$schema',
  'id',
  'name',
  'description',
  'version',
  'initial',
  'context',
  'states',
  'guards',
  'interrupts',
  'meta',
] as const;

/** The stage fields (docs/pipelines.md): a state with `completion_tool` is a stage of a pipeline. */
export const STAGE_FIELDS = ['prompt', 'completion_tool', 'completion_schema', 'turn_cap'] as const;

/**
 * The fields that set a state's rules (what readRules in statewright.ts reads;
 * a node without any of them gets the shared empty rules).
 */
export const RULE_FIELDS = [
  'instructions',
  'allowed_tools',
  'disallowed_tools',
  'allowed_commands',
  'allowed_commands_tool',
  'blocked_env',
  'deny_env',
  'env_overrides',
  'env',
  'max_iterations',
  'max_edit_lines',
  'max_files_per_state',
  'context_budget_bytes',
  // Our addition (docs/format.md): where the agent may write.
  'allowed_paths',
  'denied_paths',
  // Our addition: whether shell commands reach the network (the sandbox, src/engine/sandbox/plan.ts).
  'network',
  'model',
  'thinking_level',
  'model_ladder',
] as const;

export const STATE_FIELDS = ['type', ...RULE_FIELDS, 'on', 'safe_next', ...STAGE_FIELDS] as const;

/** Numeric per-state limits that must be at least 1 (`turn_cap` has its own rule: check/stage-rules.ts). */
export const LIMIT_FIELDS = ['max_iterations', 'max_edit_lines', 'max_files_per_state', 'context_budget_bytes'] as const;

/** `parallel` is recognised separately: reserved for statecharts, reported with its own message. */
export const STATE_TYPES = ['final', 'normal', 'atomic'] as const;

export const GUARDED_TRANSITION_FIELDS = ['target', 'guard', 'guards', 'requires_approval', 'approval_message'] as const;
/** `requires_approval` is known here only so the validator can say it is unsupported in branches. */
export const BRANCH_FIELDS = ['target', 'guard', 'guards', 'requires_approval'] as const;
export const INVOKE_FIELDS = ['invoke', 'input', 'on_complete', 'on_fail'] as const;
/** `on_complete` / `on_fail` / `mode` may sit inside `fork` or beside it. */
export const FORK_OUTER_FIELDS = ['fork', 'on_complete', 'on_fail', 'mode'] as const;
export const FORK_FIELDS = ['branches', 'join', 'on_complete', 'on_fail', 'mode'] as const;
export const FORK_BRANCH_FIELDS = ['initial', 'terminal'] as const;
export const JOIN_RULES = ['all', 'any'] as const;
export const FORK_MODES = ['sequential', 'parallel'] as const;

export const GUARD_FIELDS = ['field', 'op', 'value'] as const;
export const INTERRUPT_FIELDS = ['trigger', 'target'] as const;
export const TRIGGER_FIELDS = ['file_pattern'] as const;
export const MODEL_RUNG_FIELDS = ['model', 'thinking_level', 'health_url', 'requires_provider_switch'] as const;

export const DANGER_LEVELS = ['safe', 'moderate', 'dangerous'] as const;
/** `ui` is the seed's name for what `ask` does here: park for a person (the panel, `stategate run approve`). */
export const APPROVAL_MODES = ['ask', 'ui', 'none'] as const;
