/**
 * Running a list of actions (entry, exit, a transition's): `assign` changes
 * the context, `raise` queues an internal event, the others (`emit`, `send`,
 * `log`, `invoke` of a handler) become effects for the journal and the host.
 */
import type { AssignUpdate, JsonObject, JsonValue } from '../model/index.js';
import { evaluate, evaluateData } from './expressions.js';
import type { ChartEvent, EventBinding, RunState } from './run-state.js';
import type { ActionStep } from './table.js';
import { childTarget, queueChildWork } from './children.js';

/** Runs `steps` in order; `owner` names the state (or transition source) for error reports. */
export function runActions(rs: RunState, steps: readonly ActionStep[], event: ChartEvent, owner: string): void {
  for (const step of steps) runAction(rs, step, event.binding, owner);
}

function runAction(rs: RunState, step: ActionStep, event: EventBinding, owner: string): void {
  switch (step.type) {
    case 'missing':
      rs.effect({ type: 'action-error', state: owner, action: step.name, message: `no action named "${step.name}" is defined under the chart's actions` });
      return;
    case 'assign':
      assign(rs, step.updates, event, owner);
      return;
    case 'raise': {
      const data = actionData(rs, step.data, event, owner, 'raise');
      rs.queue.push({ kind: 'event', binding: data === undefined ? { type: step.event } : { type: step.event, data } });
      rs.effect(data === undefined ? { type: 'raise', event: step.event } : { type: 'raise', event: step.event, data });
      return;
    }
    case 'emit': {
      const data = actionData(rs, step.data, event, owner, 'emit');
      rs.effect(data === undefined ? { type: 'emit', event: step.event } : { type: 'emit', event: step.event, data });
      return;
    }
    case 'send': {
      const data = actionData(rs, step.data, event, owner, 'send');
      rs.effect({ type: 'send', to: step.to, event: step.event, ...(data === undefined ? {} : { data }) });
      // To a child machine of this run: delivered once the macrostep is over (child-runs.ts), as XState's sendTo.
      const child = childTarget(rs, step.to);
      if (child) queueChildWork(rs, { kind: 'send', id: child.id, state: child.state, event: data === undefined ? { type: step.event } : { type: step.event, data } });
      return;
    }
    case 'log': {
      const data = actionData(rs, step.data, event, owner, 'log');
      const message = step.message === undefined ? undefined : actionData(rs, { message: step.message }, event, owner, 'log')?.message;
      rs.effect({ type: 'log', ...(message === undefined ? {} : { message }), ...(data === undefined ? {} : { data }) });
      return;
    }
    case 'invoke': {
      const params = actionData(rs, step.params, event, owner, 'invoke');
      rs.effect({ type: 'call', handler: step.handler, ...(params === undefined ? {} : { params }) });
      return;
    }
  }
}

/**
 * `assign`: every update is evaluated against the context as it was before
 * the assign, then all are written. If one fails, nothing is written (a half
 * assign would leave the context in a state no chart describes).
 */
function assign(rs: RunState, updates: readonly AssignUpdate[], event: EventBinding, owner: string): void {
  const values: JsonValue[] = [];
  for (const update of updates) {
    const result = evaluate(rs, update.expr.text, event);
    if (!result.ok) {
      rs.effect({ type: 'action-error', state: owner, action: 'assign', message: `${update.key} = ${update.expr.text}: ${result.message}` });
      return;
    }
    values.push(result.value);
  }
  // A spread defines own data properties (a `__proto__` key stays data); writes below do the same.
  const next: JsonObject = { ...rs.context };
  const written: JsonObject = {};
  updates.forEach((update, i) => {
    setOwn(next, update.key, values[i] as JsonValue);
    setOwn(written, update.key, values[i] as JsonValue);
  });
  rs.context = next;
  rs.touched = true;
  rs.effect({ type: 'assign', values: written });
}

function setOwn(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

function actionData(rs: RunState, data: JsonObject | undefined, event: EventBinding, owner: string, action: string): JsonObject | undefined {
  if (data === undefined) return undefined;
  const errors: string[] = [];
  const out = evaluateData(rs, data, event, errors);
  for (const message of errors) rs.effect({ type: 'action-error', state: owner, action, message });
  return out;
}
