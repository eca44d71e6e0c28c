/**
 * A stage's `prompt` template reads only what a stage has: `context`,
 * `input` and `upstream`. A placeholder that does not parse is
 * `invalid-prompt-template`; one that names another binding, or an upstream
 * that is not a stage (only a stage completes with a result), is
 * `unknown-prompt-binding`. Ranges are inside the prompt's string, at the name.
 * Keys under `context` and `input` are not checked: event data adds context
 * keys at run time, and the input is whatever the run was started with.
 */
import type { Diagnostic, ExprSource, StateNode, Workflow } from '../model/index.js';
import { parsePromptTemplate, PROMPT_BINDINGS } from '../stage/prompt-template.js';
import { insideLoc } from './chart-expr.js';
import { closestName, didYouMean } from '../util/suggest.js';

export const UNKNOWN_PROMPT_BINDING = 'unknown-prompt-binding';
export const INVALID_PROMPT_TEMPLATE = 'invalid-prompt-template';

export function promptRule(wf: Workflow, s: StateNode, prompt: ExprSource, out: Diagnostic[]): void {
  const parsed = parsePromptTemplate(prompt.text);
  for (const p of parsed.problems) {
    out.push({ severity: 'error', code: INVALID_PROMPT_TEMPLATE, message: `The prompt of \`${s.id}\`: ${p.message}.`, loc: insideLoc(prompt, p.offset, p.length) });
  }
  for (const part of parsed.parts) {
    if (part.kind !== 'placeholder') continue;
    const [binding, name] = part.path;
    if (!binding) continue;
    if (!(PROMPT_BINDINGS as readonly (string | number)[]).includes(binding.key)) {
      const closest = closestName(String(binding.key), PROMPT_BINDINGS);
      out.push({
        severity: 'error',
        code: UNKNOWN_PROMPT_BINDING,
        message: `\`${binding.key}\` is not something a prompt can read: a placeholder starts with \`context\`, \`input\` or \`upstream\`.${didYouMean(closest)}`,
        loc: insideLoc(prompt, binding.offset, binding.length),
        ...(closest === undefined ? {} : { data: { closest } }),
      });
      continue;
    }
    if (binding.key !== 'upstream' || name === undefined || typeof name.key !== 'string') continue;
    // A stage's result is kept under its key (its name under `states`; a nested chart state's last name).
    const named = [...wf.states.values()].filter((x) => x.key === name.key);
    if (named.some((x) => x.completionTool !== undefined)) continue;
    const upstream = named[0];
    const stages = [...new Set([...wf.states.values()].filter((x) => x.completionTool !== undefined && x.id !== s.id).map((x) => x.key))];
    const closest = upstream ? undefined : closestName(name.key, stages);
    out.push({
      severity: 'error',
      code: UNKNOWN_PROMPT_BINDING,
      message: upstream
        ? `\`upstream.${name.key}\`: state \`${name.key}\` is not a stage (it has no \`completion_tool\`), so it leaves no result for later stages.`
        : `\`upstream.${name.key}\`: there is no stage \`${name.key}\`; \`upstream\` holds the results of earlier stages by their names${stages.length ? ` (${stages.map((x) => `\`${x}\``).join(', ')})` : ''}.${didYouMean(closest)}`,
      loc: insideLoc(prompt, name.offset, name.length),
      ...(closest === undefined ? {} : { data: { closest } }),
    });
  }
}
