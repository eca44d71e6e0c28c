/**
 * What a flow file will execute, for the first-run confirmation (docs/flows.md
 * "Flows": a flow runs commands on the machine, so its first run in VS Code
 * lists them and asks). Pure: no 'vscode', so the unit tests read it directly.
 * The answer is remembered in the engine's trust store (handlers/flow-trust.ts), so an edit asks again.
 */
import { declaredVariables, renderKnown, type CustomFlowTool, type FlowStep, type JsonValue, type Workflow } from '../../engine/index.js';

/** The argument that says what each tool does, as the confirmation shows it. */
const WHAT: Readonly<Record<string, string>> = {
  bash: 'command',
  switch: 'value',
  pause: 'reason',
  'ask-user': 'question',
  claude: 'prompt',
  codex: 'prompt',
  gemini: 'prompt',
  'claude-code': 'prompt',
  'get-gh-issue': 'issue-number',
  'sub-flow': 'workflow',
};

export interface PlanLine {
  readonly state: string;
  readonly tool: string;
  /**
   * The command, prompt, question... with the flow's declared variables filled in (what will run, not a
   * template); a variable a state captures during the run stays `{{ name }}`. '' when the argument is missing.
   */
  readonly what: string;
}

function text(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

type Vars = Readonly<Record<string, string>>;

function lineOf(state: string, step: Pick<FlowStep, 'tool' | 'arguments'>, tools: ReadonlyMap<string, CustomFlowTool> | undefined, vars: Vars): PlanLine {
  // A custom tool runs its registered command: that is what the person is asked to allow.
  const custom = WHAT[step.tool] ? undefined : tools?.get(step.tool);
  if (custom) return { state, tool: step.tool, what: custom.command };
  const key = WHAT[step.tool];
  return { state, tool: step.tool, what: key ? renderKnown(text(step.arguments[key]), vars) : '' };
}

/** One line per state in file order; a `parallel` state's inline tasks follow it as `<state>[i]`. */
export function flowPlan(wf: Workflow, tools?: ReadonlyMap<string, CustomFlowTool>): PlanLine[] {
  // The values a run starts with, filled into what each state shows.
  const vars: Vars = declaredVariables(wf);
  const out: PlanLine[] = [];
  for (const s of wf.states.values()) {
    if (!s.flow) continue;
    out.push(lineOf(s.key, s.flow, tools, vars));
    (s.flow.tasks ?? []).forEach((t, i) => {
      if (t.kind === 'call') out.push(lineOf(`${s.key}[${i}]`, t, tools, vars));
      else out.push({ state: `${s.key}[${i}]`, tool: 'state', what: t.state.name });
    });
  }
  return out;
}

/** Longest shown per line: the modal is not the place for a whole script (the file is one click away). */
const MAX_WHAT = 160;

/** The confirmation's detail text: `state (tool): what`, one per line. */
export function planText(lines: readonly PlanLine[]): string {
  return lines
    .map((l) => {
      const one = l.what.trim().replace(/\s*\n\s*/g, ' ⏎ ');
      const what = one.length > MAX_WHAT ? `${one.slice(0, MAX_WHAT - 1)}…` : one;
      return what ? `${l.state} (${l.tool}): ${what}` : `${l.state} (${l.tool})`;
    })
    .join('\n');
}
