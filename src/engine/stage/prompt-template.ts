/**
 * A stage's `prompt` template (docs/pipelines.md "The prompt template"):
 * text with `{{ binding.path }}` placeholders, where the binding is `context`,
 * `input` or `upstream`, and the path steps into objects with `.name` and into
 * arrays with `[n]`. `\{{` is a literal `{{`. The same braces as flows'
 * `{{ var }}`, but a placeholder is always a path from one of the three
 * bindings: no expressions, no filters, nothing to evaluate. Validation parses
 * it (check/stage-prompt.ts); the pipeline renders it.
 */
import type { JsonValue } from '../model/index.js';

export const PROMPT_BINDINGS = ['context', 'input', 'upstream'] as const;
export type PromptBinding = (typeof PROMPT_BINDINGS)[number];

/** One step of a placeholder's path, with where it is in the template text. */
export interface PathStep {
  /** A key, or an array index written `[n]`. */
  readonly key: string | number;
  readonly offset: number;
  readonly length: number;
}

export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  /** `path[0]` is the binding as written (validation checks it is one of PROMPT_BINDINGS). */
  | { readonly kind: 'placeholder'; readonly path: readonly PathStep[]; readonly offset: number; readonly length: number };

export interface TemplateProblem {
  readonly message: string;
  readonly offset: number;
  readonly length: number;
}

export interface ParsedTemplate {
  readonly parts: readonly TemplatePart[];
  readonly problems: readonly TemplateProblem[];
}

const NAME = /[A-Za-z_][\w-]*/y;
/** A key after a dot: anything but the characters that delimit paths and placeholders (state names may have `-`). */
const KEY = /[^\s.[\]{}]+/y;
const INDEX = /\[(\d+)\]/y;
const SPACE = /\s*/y;

export function parsePromptTemplate(text: string): ParsedTemplate {
  const parts: TemplatePart[] = [];
  const problems: TemplateProblem[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open < 0) break;
    if (open > 0 && text[open - 1] === '\\') {
      literal += `${text.slice(i, open - 1)}{{`;
      i = open + 2;
      continue;
    }
    literal += text.slice(i, open);
    const close = text.indexOf('}}', open + 2);
    if (close < 0) {
      problems.push({ message: '`{{` is never closed with `}}` (write `\\{{` for literal braces)', offset: open, length: 2 });
      i = open;
      break;
    }
    const path = parsePath(text, open + 2, close);
    if ('message' in path) {
      problems.push(path);
    } else {
      if (literal) parts.push({ kind: 'text', text: literal });
      literal = '';
      parts.push({ kind: 'placeholder', path, offset: open, length: close + 2 - open });
    }
    i = close + 2;
  }
  literal += text.slice(i);
  if (literal) parts.push({ kind: 'text', text: literal });
  return { parts, problems };
}

/** `binding.key[0].key` between `start` and `end`, surrounded by optional white space. */
function parsePath(text: string, start: number, end: number): PathStep[] | TemplateProblem {
  const inner = text.slice(start, end);
  const bad = (): TemplateProblem => ({
    message: `\`{{${inner}}}\` is not a path: write \`{{ context.<field> }}\`, \`{{ input.<field> }}\` or \`{{ upstream.<stage> }}\``,
    offset: start - 2,
    length: end + 2 - (start - 2),
  });
  const steps: PathStep[] = [];
  let at = skipSpace(text, start);
  const name = match(NAME, text, at, end);
  if (!name) return bad();
  steps.push({ key: name, offset: at, length: name.length });
  at += name.length;
  for (;;) {
    if (text[at] === '.') {
      const key = match(KEY, text, at + 1, end);
      if (!key) return bad();
      steps.push({ key, offset: at + 1, length: key.length });
      at += 1 + key.length;
    } else if (text[at] === '[') {
      INDEX.lastIndex = at;
      const m = INDEX.exec(text);
      if (!m || at + m[0].length > end) return bad();
      steps.push({ key: Number(m[1]), offset: at, length: m[0].length });
      at += m[0].length;
    } else {
      break;
    }
  }
  return skipSpace(text, at) === end ? steps : bad();
}

function match(re: RegExp, text: string, at: number, end: number): string | undefined {
  re.lastIndex = at;
  const m = re.exec(text);
  return m && at + m[0].length <= end ? m[0] : undefined;
}

function skipSpace(text: string, at: number): number {
  SPACE.lastIndex = at;
  return at + (SPACE.exec(text)?.[0].length ?? 0);
}

/** What the placeholders read: the run's context, its input, and the payloads of the stages before, by stage id. */
export type PromptScope = Readonly<Record<PromptBinding, JsonValue | undefined>>;

export interface RenderedPrompt {
  readonly text: string;
  /** Placeholders that reached no value (as written, e.g. `upstream.plan.steps`); they render as nothing. */
  readonly missing: readonly string[];
}

/** Fills the placeholders: a string as it is, any other value as JSON. */
export function renderPromptTemplate(parsed: ParsedTemplate, scope: PromptScope): RenderedPrompt {
  const missing: string[] = [];
  let text = '';
  for (const part of parsed.parts) {
    if (part.kind === 'text') {
      text += part.text;
      continue;
    }
    const value = valueAt(scope, part.path);
    if (value === undefined) missing.push(pathText(part.path));
    else text += typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  }
  return { text, missing };
}

function valueAt(scope: PromptScope, path: readonly PathStep[]): JsonValue | undefined {
  const [head, ...rest] = path;
  if (!head || !(PROMPT_BINDINGS as readonly (string | number)[]).includes(head.key)) return undefined;
  let v: JsonValue | undefined = scope[head.key as PromptBinding];
  for (const step of rest) {
    if (typeof step.key === 'number') v = Array.isArray(v) ? v[step.key] : undefined;
    else v = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, step.key) ? v[step.key] : undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/** `upstream.plan.steps[0]` */
export function pathText(path: readonly PathStep[]): string {
  return path.map((s, i) => (typeof s.key === 'number' ? `[${s.key}]` : i === 0 ? s.key : `.${s.key}`)).join('');
}
