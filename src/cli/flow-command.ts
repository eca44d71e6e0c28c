/**
 * `stategate flow run|resume|stop|pause|status|list`: run FlowState flows
 * (README.md, "The command line" and "Flows"). The workspace is the current folder:
 * commands run there and instances live in `./.stategate/flows/<instance>/`.
 * Each subcommand prints one JSON object on stdout; `run` and `resume` show
 * progress and the tools' output on stderr and exit with the flow's exit
 * code (0 when completed or paused). A refusal (a missing or invalid flow
 * file, an unknown instance, an interrupted one resumed without --rerun) is
 * `{"error":{"code","message"}}`, one line on stderr, and exit 1 (2 for
 * usage and I/O), with nothing run.
 */
import {
  FlowError,
  flowStatus,
  listFlows,
  pauseFlow,
  resumeFlow,
  startFlow,
  stopFlow,
  type FlowSummary,
} from '../engine/index.js';
import { parse, stringOption, type Parsed } from './args.js';
import { CliError, parseJsonObjectOption, printJson, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';
import { cliFlowHost, stoppingOnSignals } from './flow-host.js';

interface Sub {
  readonly usage: string;
  readonly help: string;
  readonly options?: Parameters<typeof parse>[1];
  /** How many positionals: exactly `min` to `max`. */
  readonly min: number;
  readonly max: number;
  exec(workspace: string, parsed: Parsed, out: Output): Promise<ExitCode>;
}

/** The flow's exit code as the process's: 0 when completed or paused. */
function flowExit(summary: FlowSummary): ExitCode {
  if (summary.status === 'completed' || summary.status === 'paused') return 0;
  return summary.exit_code ?? 1;
}

function printed(out: Output, summary: FlowSummary): ExitCode {
  printJson(out, summary);
  return flowExit(summary);
}

/** `--var K=V`, repeatable: V may hold `=`; K may be a variable the flow does not declare. */
export function parseVars(values: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new CliError('usage', `--var ${JSON.stringify(v)} is not K=V (a variable name, \`=\`, its value)`);
    vars[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return vars;
}

/** `--answers JSON`: an object keyed by ask-user state; scalar answers become text. */
export function parseAnswers(text: string | undefined): Record<string, string> | undefined {
  const obj = parseJsonObjectOption('answers', text);
  if (!obj) return undefined;
  const answers: Record<string, string> = {};
  for (const [state, value] of Object.entries(obj)) {
    if (value === null || typeof value === 'object') throw new CliError('invalid_json', `--answers: the answer for ${JSON.stringify(state)} must be a string, number or boolean`);
    answers[state] = String(value);
  }
  return answers;
}

function strings(parsed: Parsed, name: string): string[] {
  const v = (parsed.values as Record<string, unknown>)[name];
  return Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : [];
}

const SUBCOMMANDS: Record<string, Sub> = {
  run: {
    usage: 'run FLOW_FILE [--name INSTANCE] [--var K=V]... [--answers JSON]',
    help: 'Run a flow to its end or a pause. --answers answers ask-user states by name (needed when stdin is not a terminal).',
    options: { name: { type: 'string' }, var: { type: 'string', multiple: true }, answers: { type: 'string' } },
    min: 1,
    max: 1,
    async exec(workspace, parsed, out) {
      const vars = parseVars(strings(parsed, 'var'));
      const answers = parseAnswers(stringOption(parsed, 'answers'));
      const name = stringOption(parsed, 'name');
      const host = cliFlowHost(workspace, out);
      const summary = await stoppingOnSignals(workspace, out, () =>
        startFlow(host, { file: parsed.positionals[0]!, ...(name !== undefined ? { name } : {}), vars, ...(answers ? { answers } : {}) }),
      );
      return printed(out, summary);
    },
  },
  resume: {
    usage: 'resume INSTANCE [--rerun] [--answers JSON]',
    help: 'Continue a paused instance; --rerun runs again the state an interrupted instance (its runner was killed) was in.',
    options: { rerun: { type: 'boolean' }, answers: { type: 'string' } },
    min: 1,
    max: 1,
    async exec(workspace, parsed, out) {
      const answers = parseAnswers(stringOption(parsed, 'answers'));
      const host = cliFlowHost(workspace, out);
      const summary = await stoppingOnSignals(workspace, out, () =>
        resumeFlow(host, parsed.positionals[0]!, { rerun: parsed.values.rerun === true, ...(answers ? { answers } : {}) }),
      );
      return printed(out, summary);
    },
  },
  stop: {
    usage: 'stop INSTANCE',
    help: 'Stop an instance: its running command and every process it started are killed, the next state never runs.',
    min: 1,
    max: 1,
    async exec(workspace, parsed, out) {
      return printed(out, stopFlow(workspace, parsed.positionals[0]!));
    },
  },
  pause: {
    usage: 'pause INSTANCE',
    help: 'Ask a running instance to pause after the state it is running; `flow resume` continues it.',
    min: 1,
    max: 1,
    async exec(workspace, parsed, out) {
      printJson(out, pauseFlow(workspace, parsed.positionals[0]!));
      return 0;
    },
  },
  status: {
    usage: 'status [INSTANCE]',
    help: "An instance's summary and per-state log (state, exit code, start, end, bytes of output); without INSTANCE, every instance.",
    min: 0,
    max: 1,
    async exec(workspace, parsed, out) {
      const name = parsed.positionals[0];
      printJson(out, name === undefined ? { instances: listFlows(workspace) } : flowStatus(workspace, name));
      return 0;
    },
  },
  list: {
    usage: 'list',
    help: "Every instance of this folder's flows with its status.",
    min: 0,
    max: 0,
    async exec(workspace, _parsed, out) {
      printJson(out, { instances: listFlows(workspace) });
      return 0;
    },
  },
};

const USAGE = `stategate flow ${Object.values(SUBCOMMANDS)
  .map((s) => s.usage.split(' ')[0])
  .join('|')} ...`;

function helpText(): string {
  return [
    `usage: ${USAGE}`,
    '',
    'Runs FlowState flows (*.flow.yaml, or any YAML/JSON with start-at and states with a tool) in the current folder; instances are kept in .stategate/flows/.',
    '',
    ...Object.values(SUBCOMMANDS).flatMap((s) => [`  stategate flow ${s.usage}`, `      ${s.help}`]),
  ].join('\n');
}

/** A refusal of the runner, as the CLI reports errors: usage and I/O exit 2, the rest 1. */
function asCliError(err: FlowError): CliError {
  const exit: ExitCode = err.code === 'io' || err.code === 'not_found' || err.code === 'invalid_name' ? 2 : 1;
  const details = err.details?.length ? `\n${err.details.join('\n')}` : '';
  return new CliError(err.code, `${err.message}${details}`, exit);
}

export const command: Command = {
  name: 'flow',
  answersInJson: () => true,
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    const [name, ...rest] = args;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      out.stdout(`${helpText()}\n`);
      return name === undefined ? 2 : 0;
    }
    const sub = SUBCOMMANDS[name];
    if (!sub) throw new CliError('usage', `unknown flow subcommand '${name}'\nusage: ${USAGE}`);
    const usage = `stategate flow ${sub.usage}`;
    const parsed = parse(rest, sub.options ?? {}, usage);
    if (parsed.values.help) {
      out.stdout(`usage: ${usage}\n\n${sub.help}\n`);
      return 0;
    }
    const n = parsed.positionals.length;
    if (n < sub.min || n > sub.max) throw new CliError('usage', `${n < sub.min ? 'missing' : 'unexpected'} argument\nusage: ${usage}`);
    try {
      return await sub.exec(process.cwd(), parsed, out);
    } catch (err) {
      if (err instanceof FlowError) throw asCliError(err);
      throw err;
    }
  },
};
