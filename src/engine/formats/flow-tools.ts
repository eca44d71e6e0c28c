/**
 * The built-in tools of a flow with their arguments and what each does, in
 * one place: the validator's required arguments (flow-fields.ts), the
 * editor's completion and hover (language/flow/) and the tools table of
 * docs/flows.md (a unit test compares them) all read this table.
 */
import type { FlowTool } from '../model/flow.js';

export interface FlowArgumentDoc {
  readonly name: string;
  readonly required: boolean;
  /** Markdown, one or two sentences. */
  readonly doc: string;
}

export interface FlowToolDoc {
  /** What the tool runs, one line of Markdown. */
  readonly summary: string;
  /** What becomes the state's output (stdout for `output: var()`/`file()`). */
  readonly output: string;
  /** Required arguments first. */
  readonly arguments: readonly FlowArgumentDoc[];
}

const prompt = (who: string): FlowArgumentDoc => ({ name: 'prompt', required: true, doc: `What to ask ${who}; \`{{ var }}\` templates are filled in first.` });
const model: FlowArgumentDoc = {
  name: 'model',
  required: false,
  doc: 'The model to use (in VS Code, matched against the language models by id or family; from the CLI, passed to the vendor CLI). Default: the vendor\'s default model.',
};

const llm = (vendor: string): FlowToolDoc => ({
  summary: `Sends \`prompt\` to a ${vendor} model: in VS Code through its language models, from the CLI through the ${vendor} CLI when installed.`,
  output: "the model's answer",
  arguments: [prompt('the model'), model],
});

export const FLOW_TOOL_DOCS: Readonly<Record<FlowTool, FlowToolDoc>> = {
  bash: {
    summary: 'Runs `command` with bash in the workspace folder; stderr is shown as it comes, the exit code routes (`next` on 0, else `on-error`).',
    output: 'stdout (one trailing newline removed)',
    arguments: [{ name: 'command', required: true, doc: 'The shell command, run with `bash -c` in the workspace folder. `{{ var }}` substitution is textual (no shell quoting).' }],
  },
  switch: {
    summary: 'Matches `value` as a string against the `goto` keys and goes to that state; `_` is the default. No match and no default fails the flow.',
    output: 'the value',
    arguments: [{ name: 'value', required: true, doc: 'The value to match, usually a template such as `"{{ answer }}"`.' }],
  },
  pause: {
    summary: 'Pauses the instance with `reason`; `flow resume` (or Resume in the Flows view) continues at `next`.',
    output: 'nothing',
    arguments: [{ name: 'reason', required: true, doc: 'Why the flow waits, shown in the status and the Flows view.' }],
  },
  'ask-user': {
    summary: 'Asks a person `question` (an input box in VS Code, a prompt on the CLI; headless it fails unless `--answers` gives the answer).',
    output: 'the answer',
    arguments: [{ name: 'question', required: true, doc: 'The question shown to the person.' }],
  },
  claude: llm('Claude'),
  codex: llm('Codex'),
  gemini: llm('Gemini'),
  'claude-code': {
    summary: 'Runs `prompt` with Claude Code (`claude -p`), under the stategate hook when a workflow run is active.',
    output: "Claude Code's answer",
    arguments: [prompt('Claude Code')],
  },
  'get-gh-issue': {
    summary: "Reads a GitHub issue with `gh` (or, in VS Code, VS Code's GitHub sign-in).",
    output: 'the issue as JSON',
    arguments: [{ name: 'issue-number', required: true, doc: 'The issue number in the workspace\'s GitHub repository, e.g. `"{{ issue }}"`.' }],
  },
  parallel: {
    summary: 'Runs `tasks` together; its exit code is the first non-zero one among them.',
    output: 'nothing of its own (each task captures its own `output`)',
    arguments: [{ name: 'tasks', required: true, doc: 'A list: each item the name of a state of the flow, or an inline `{tool, arguments, output}`.' }],
  },
  'sub-flow': {
    summary: "Runs another flow file as a child; its variables come back as `{{ <state>::<var> }}` and its states show as `<state>/<child>`.",
    output: "the child flow's variables, as `<state>::<var>`",
    arguments: [{ name: 'workflow', required: true, doc: 'The flow file to run (a `*.flow.yaml|yml|json` path in the workspace, or a plain `.yaml`/`.yml`/`.json` whose content is a flow).' }],
  },
};

/** A tool's documentation as one Markdown block: what it does, its output, its arguments. */
export function flowToolMarkdown(tool: FlowTool): string {
  const d = FLOW_TOOL_DOCS[tool];
  const args = d.arguments.map((a) => `- \`${a.name}\`${a.required ? ' (required)' : ''}: ${a.doc}`).join('\n');
  return `**tool** \`${tool}\`: ${d.summary}\n\nOutput: ${d.output}.\n\nArguments:\n${args}`;
}
