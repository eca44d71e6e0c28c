/**
 * The known field names of each object in a statechart (the AGENT-33 seed's
 * canonical form, what docs/statecharts.md adds, and Statewright's state
 * rules, which any node may carry). The loader warns about any other key, with
 * a suggestion for typos; `meta`, `context`, `input`, `data` and `params` are
 * open by design.
 */
import { RULE_FIELDS, STAGE_FIELDS } from './statewright-fields.js';

/** Statewright's state rules (instructions, tools, commands, env, limits, paths, model), read on every node. */
export { RULE_FIELDS };

/** The document around the chart. */
export const DOCUMENT_FIELDS = ['$schema', 'statechart'] as const;

/** What every state node may have (kind-specific fields are checked against the kind). */
const NODE_BEHAVIOUR = ['entry', 'exit', 'on', 'always', 'after', 'invoke', 'onDone', 'meta', 'description'] as const;

/** The chart itself: the root compound node, plus what only the chart has. */
export const CHART_FIELDS: readonly string[] = [
  'id',
  'version',
  'name',
  'initial',
  'context',
  'states',
  ...NODE_BEHAVIOUR,
  'actions',
  'services',
  'machine_registry',
  'interrupts',
  'env',
  'agents',
  'handlers',
];

/** A state node may also be a stage of a pipeline (a region or a history node may not). */
export const NODE_FIELDS: readonly string[] = ['type', 'initial', 'states', 'regions', 'onAllDone', ...NODE_BEHAVIOUR, ...RULE_FIELDS, ...STAGE_FIELDS];

/** A region of a parallel state: a compound node named by `id`. */
export const REGION_FIELDS: readonly string[] = ['id', 'initial', 'states', ...NODE_BEHAVIOUR, ...RULE_FIELDS];

/** A history pseudo-state only remembers: no behaviour of its own. */
export const HISTORY_FIELDS = ['type', 'variant', 'target', 'meta', 'description'] as const;

export const NODE_TYPES = ['atomic', 'compound', 'parallel', 'final', 'history'] as const;
export const HISTORY_VARIANTS = ['shallow', 'deep'] as const;

export const TRANSITION_FIELDS = ['target', 'guard', 'actions', 'reenter', 'description'] as const;

export const INVOKE_FIELDS = ['id', 'src', 'input', 'onDone', 'onError'] as const;

export const META_FIELDS = ['label', 'description', 'color', 'position'] as const;
export const POSITION_FIELDS = ['x', 'y'] as const;

export const REGISTRY_ENTRY_FIELDS = ['id', 'version', 'src'] as const;

/** The fields of each built-in action type (besides `type`). */
export const ACTION_FIELDS = {
  assign: ['context_updates'],
  raise: ['event', 'data'],
  emit: ['event', 'data'],
  send: ['target', 'event', 'data'],
  log: ['message', 'data'],
  invoke: ['handler', 'params'],
} as const;
