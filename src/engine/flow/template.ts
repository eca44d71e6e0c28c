/**
 * `{{ var }}` substitution in a state's arguments: textual (no shell quoting),
 * and never silent: a variable that is not defined fails the state, naming it
 * (docs/flows.md). Text between braces that is not a variable name
 * (`{{ .Field }}` of a Go template in a command) is left as it is, the same
 * rule the `flow-undefined-variable` check uses.
 */
import type { JsonValue, Workflow } from '../model/index.js';
import { isVariableRef, TEMPLATE } from '../formats/flow-fields.js';
import { StateFailure } from './failure.js';

export type Variables = Readonly<Record<string, string>>;

/** A `{{ name }}` whose variable is not defined when its state runs. */
export class UndefinedVariableError extends StateFailure {
  constructor(readonly variable: string) {
    super(`\`{{ ${variable} }}\` is not defined: no state before it captured \`${variable}\` and the flow's \`variables\` do not declare it`);
    this.name = 'UndefinedVariableError';
  }
}

export function renderText(text: string, vars: Variables): string {
  return text.replace(TEMPLATE, (whole, name: string) => {
    if (!isVariableRef(name)) return whole;
    if (!Object.prototype.hasOwnProperty.call(vars, name)) throw new UndefinedVariableError(name);
    return vars[name] as string;
  });
}

/**
 * `text` with the variables in `vars` filled in and every other `{{ name }}`
 * left as written: what a state will run as far as it is known before the run
 * (the first-run confirmation; a state's captured outputs are filled only as it runs).
 */
export function renderKnown(text: string, vars: Variables): string {
  return text.replace(TEMPLATE, (whole, name: string) =>
    isVariableRef(name) && Object.prototype.hasOwnProperty.call(vars, name) ? (vars[name] as string) : whole,
  );
}

/** Every string inside `value` rendered (objects and lists kept in shape). */
export function renderValue(value: JsonValue, vars: Variables): JsonValue {
  if (typeof value === 'string') return renderText(value, vars);
  if (Array.isArray(value)) return value.map((v) => renderValue(v, vars));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderValue(v as JsonValue, vars)]));
  return value;
}

/** An argument or a variable default as the text a template puts in: strings as they are, other values as JSON. */
export function asText(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A flow's declared `variables` as text: what a run of it starts with before any variable given to it. */
export function declaredVariables(wf: Workflow): Record<string, string> {
  return Object.fromEntries(Object.entries(wf.flow?.variables ?? {}).map(([k, v]) => [k, asText(v)]));
}
