/**
 * `stategate run [--dir DIR] <subcommand> ...`: drive the active run. Each
 * subcommand prints exactly one JSON object. A refusal by the machine (an
 * unknown event, a failing guard...) is still one object, with an `error`
 * member, a one-line message on stderr and exit 1.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { auditText, auditTimeline, detectFormat, flowNotRunnable, isSecurityMode, RunnerError, SANDBOXED_ENV, type AuditTimeline, type JournalEntry, type Runner, type JsonObject, type JsonValue } from '../engine/index.js';
import { createRunner } from './runner-factory.js';
import { parse, stringOption, type Parsed } from './args.js';
import { CliError, parseJsonObjectOption, parseJsonOption, printJson, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';
import { RUN_TOOL_SUBCOMMANDS } from './run-tool-command.js';
import { RUN_HANDLER_SUBCOMMANDS } from './run-handlers.js';
import { RUN_BIND_SUBCOMMANDS } from './run-bind.js';

interface Sub {
  readonly usage: string;
  readonly help: string;
  readonly options?: Parameters<typeof parse>[1];
  readonly positionals: number;
  /** Only reads the run: it works inside stategate's sandbox too (the others change the run, whose files are read-only there). */
  readonly readsOnly?: true;
  exec(runner: Runner, parsed: Parsed): unknown | Promise<unknown>;
}

/**
 * Inside stategate's sandbox (bwrap sets SANDBOXED_ENV) the run's files are
 * read-only: a subcommand that changes the run would fail on the first file
 * it writes. Refused up front with the way that works; read-only ones
 * (`run state`) go on.
 */
function refuseInsideSandbox(sub: string, spec: Sub): void {
  if (spec.readsOnly || process.env[SANDBOXED_ENV] !== '1') return;
  // A stage's completion goes through its own tool, never statewright_transition (pipeline/completion-only.ts).
  const instead = sub === 'complete' ? "call the stage's completion tool of stategate's MCP server (or VS Code's) with the payload" : 'send the event with the `statewright_transition` tool (MCP / VS Code)';
  throw new CliError('sandboxed', `\`stategate run ${sub}\` changes the run, but this shell runs inside stategate's sandbox, where the run's files are read-only; ${instead} instead (\`stategate run state\` still works here)`, 1);
}

/**
 * A flow is a pipeline of tool calls, not a workflow an agent is held to: it
 * loads and validates, but `run start` would make a run with no transitions.
 * Refused with the way forward (flows get their own runner, `stategate flow run`).
 */
function refuseFlow(file: string): void {
  // By content as well as by name: a plain `deploy.yaml` with `start-at` is a flow too (an unreadable file is the runner's to report).
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    /* reported by runner.start */
  }
  if (detectFormat(text, file) !== 'flow') return;
  throw new CliError('flow_not_runnable', flowNotRunnable(file), 1);
}

const dataOption = { data: { type: 'string' as const } };
const branchOption = { branch: { type: 'string' as const } };

function branch(parsed: Parsed): string | undefined {
  return stringOption(parsed, 'branch');
}

export const RUN_SUBCOMMANDS: Record<string, Sub> = {
  start: {
    usage: 'start WORKFLOW_FILE [--context JSON] [--input JSON] [--security-mode ask|yolo] [--keep | --replace]',
    help: 'Validate WORKFLOW_FILE and start it as the active run. A live active run (running, waiting or paused) is stopped first and named as `replaced` in the answer (its journal is kept: `run list` lists it); --keep refuses instead (run_active), for a script that must not replace one. --replace says the default out loud. --input: what a pipeline\'s prompts read as `input` (e.g. {"task": "..."}). --security-mode: what happens to calls inside a stage\'s tools (docs/pipelines.md), over the workflow\'s meta.security_mode.',
    options: { context: { type: 'string' }, input: { type: 'string' }, 'security-mode': { type: 'string' }, replace: { type: 'boolean' }, keep: { type: 'boolean' } },
    positionals: 1,
    async exec(runner, parsed) {
      const context = parseJsonObjectOption('context', stringOption(parsed, 'context')) as JsonObject | undefined;
      const input = parseJsonOption('input', stringOption(parsed, 'input')) as JsonValue | undefined;
      const mode = stringOption(parsed, 'security-mode');
      if (mode !== undefined && !isSecurityMode(mode)) throw new CliError('usage', `--security-mode must be ask or yolo, got '${mode}'`);
      refuseFlow(parsed.positionals[0]!);
      if (parsed.values.keep === true && parsed.values.replace === true) throw new CliError('usage', '--keep and --replace contradict each other: give one');
      // The command line replaces a live run as it always has (scripts rely on it) and says so in `replaced`;
      // the editor and the chat ask first (docs/enforcement.md, "Starting a run over a live one").
      const { run, replaced } = await runner.start(parsed.positionals[0]!, context, input, { replace: parsed.values.keep !== true });
      const chosen = mode === undefined ? undefined : await runner.setSecurityMode(mode, 'run');
      return { run_id: run.runId, workflow: run.workflow.id, file: run.workflow.file, state: run.state, status: run.status, ...(chosen ? { security_mode: chosen.mode } : {}), ...(replaced ? { replaced } : {}) };
    },
  },
  send: {
    usage: 'send EVENT [--data JSON] [--branch NAME]',
    help: 'Fire EVENT at the active run; --data merges into the context if the transition happens.',
    options: { ...dataOption, ...branchOption },
    positionals: 1,
    exec: (runner, parsed) => runner.send(parsed.positionals[0]!, parseJsonOption('data', stringOption(parsed, 'data')) as JsonValue | undefined, branch(parsed)),
  },
  done: {
    usage: 'done INVOKE_ID [--data JSON]',
    help: 'Statecharts: the agent finished the `agent:` invocation INVOKE_ID (its onDone runs with --data as event.data).',
    options: dataOption,
    positionals: 1,
    exec: (runner, parsed) => runner.complete(parsed.positionals[0]!, true, parseJsonOption('data', stringOption(parsed, 'data')) as JsonValue | undefined),
  },
  fail: {
    usage: 'fail INVOKE_ID [--data JSON]',
    help: 'Statecharts: the `agent:` invocation INVOKE_ID failed (its onError runs with --data as event.data).',
    options: dataOption,
    positionals: 1,
    exec: (runner, parsed) => runner.complete(parsed.positionals[0]!, false, parseJsonOption('data', stringOption(parsed, 'data')) as JsonValue | undefined),
  },
  state: {
    readsOnly: true,
    usage: 'state [--branch NAME]',
    help: 'Where the run stands: state, status, allowed tools, events with their guard results, context, limits.',
    options: branchOption,
    positionals: 0,
    // `sandbox`: whether allowed shell commands run inside the kernel sandbox here, and why not (src/engine/sandbox/).
    exec: async (runner, parsed) => ({ ...(await runner.state(branch(parsed))), sandbox: runner.sandboxStatus() }),
  },
  'file-changed': {
    usage: 'file-changed PATH [--branch NAME]',
    help: 'Report that PATH was written or saved: fires the first interrupt whose file_pattern matches.',
    options: branchOption,
    positionals: 1,
    exec: (runner, parsed) => runner.fileChanged(parsed.positionals[0]!, branch(parsed)),
  },
  approve: {
    usage: 'approve [--branch NAME]',
    help: 'Approve the parked transition (a person\'s decision; agents cannot approve).',
    options: branchOption,
    positionals: 0,
    exec: (runner, parsed) => runner.approve(branch(parsed)),
  },
  reject: {
    usage: 'reject [--branch NAME]',
    help: 'Reject the parked transition; the run stays where it is.',
    options: branchOption,
    positionals: 0,
    exec: (runner, parsed) => runner.reject(branch(parsed)),
  },
  pause: { usage: 'pause', help: 'Pause the run: state and context are kept, enforcement is off.', positionals: 0, exec: (runner) => runner.pause() },
  stop: { usage: 'stop', help: 'Stop the run for good (enforcement is off).', positionals: 0, exec: (runner) => runner.stop() },
  resume: {
    usage: 'resume WORKFLOW_FILE',
    help: 'Resume the newest paused run of that workflow (iterations reset); with none paused, start it fresh.',
    positionals: 1,
    async exec(runner, parsed) {
      const { run, resumed } = await runner.resume(parsed.positionals[0]!);
      return { run_id: run.runId, workflow: run.workflow.id, state: run.state, status: run.status, resumed };
    },
  },
  force: {
    usage: 'force STATE [--context JSON]',
    help: 'Jump to STATE (only in workflows with meta.debug): bypasses guards, patches the context, clears approvals, interrupts, forks and child runs.',
    options: { context: { type: 'string' } },
    positionals: 1,
    exec: (runner, parsed) => runner.force(parsed.positionals[0]!, parseJsonObjectOption('context', stringOption(parsed, 'context')) as JsonObject | undefined),
  },
  learn: {
    usage: 'learn LESSON [--type pattern|antipattern|insight] [--pattern TEXT] [--context TEXT]',
    help: 'Record a learning in the run record (agent-state.json) and learnings.jsonl (what statewright_record_learning does).',
    options: { type: { type: 'string' }, pattern: { type: 'string' }, context: { type: 'string' } },
    positionals: 1,
    exec: (runner, parsed) =>
      runner.recordLearning({ lesson: parsed.positionals[0]!, type: stringOption(parsed, 'type'), pattern: stringOption(parsed, 'pattern'), context: stringOption(parsed, 'context') }),
  },
  usage: {
    usage: 'usage --cost DOLLARS [--model ID] [--input-tokens N] [--output-tokens N]',
    help: 'Report model usage to the run: the cost counts against meta.max_cost (warnings at 75% and 90%; past it, every tool but stategate\'s own is denied).',
    options: { cost: { type: 'string' }, model: { type: 'string' }, 'input-tokens': { type: 'string' }, 'output-tokens': { type: 'string' } },
    positionals: 0,
    async exec(runner, parsed) {
      const num = (name: string): number | undefined => {
        const raw = stringOption(parsed, name);
        if (raw === undefined) return undefined;
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new CliError('usage', `--${name} must be a number, 0 or more (got ${JSON.stringify(raw)})`);
        return n;
      };
      const cost = num('cost');
      if (cost === undefined) throw new CliError('usage', '--cost DOLLARS is required');
      const model = stringOption(parsed, 'model');
      const inputTokens = num('input-tokens');
      const outputTokens = num('output-tokens');
      return await runner.reportUsage({ cost, ...(model ? { model } : {}), ...(inputTokens === undefined ? {} : { inputTokens }), ...(outputTokens === undefined ? {} : { outputTokens }) });
    },
  },
  stage: {
    readsOnly: true,
    usage: 'stage [--branch NAME]',
    help: 'A pipeline\'s active stage: its completion tool and schema, tools, turns, attempt and rendered prompt.',
    options: branchOption,
    positionals: 0,
    async exec(runner, parsed) {
      const stage = await runner.stage(branch(parsed));
      return typeof stage === 'string' ? { stages: await runner.stages(), error: { code: 'not_a_stage', message: stage } } : stage;
    },
  },
  complete: {
    usage: 'complete TOOL [--payload JSON] [--branch NAME]',
    help: 'Call the active stage\'s completion tool with a payload: checked against completion_schema; a valid one ends the stage.',
    options: { payload: { type: 'string' }, ...branchOption },
    positionals: 1,
    exec: (runner, parsed) => runner.completeStage(parsed.positionals[0]!, parseJsonOption('payload', stringOption(parsed, 'payload')) as JsonValue | undefined, branch(parsed)),
  },
  audit: {
    readsOnly: true,
    usage: 'audit [--json]',
    help: 'The pipeline run\'s timeline from its journal: stages with attempts, turns, durations, grants and completions, and the next-stage decisions (--json: as one JSON object).',
    options: { json: { type: 'boolean' } },
    positionals: 0,
    async exec(runner) {
      const run = await runner.requireActive();
      return { run_id: run.runId, workflow: run.workflow.id, status: run.status, ...auditTimeline((await runner.store.readJournal(run.runId)) as unknown as JournalEntry[]) };
    },
  },
  list: {
    readsOnly: true,
    usage: 'list',
    help: 'Every run of this workspace (with STATEGATE_STORE_URL: of the project in the shared store), oldest first, the active one marked.',
    positionals: 0,
    async exec(runner) {
      const active = await runner.active();
      const activeId = active.kind === 'ok' ? active.runId : undefined;
      const runs = await runner.list();
      return { runs: runs.map((r) => ({ run_id: r.runId, workflow: r.workflow.id, state: r.state, status: r.status, updated_at: r.updatedAt, active: r.runId === activeId })) };
    },
  },
  join: {
    usage: 'join RUN_ID',
    help: 'Make RUN_ID the active run as it stands (another machine\'s run in the shared store); a running active run is stopped first.',
    positionals: 1,
    async exec(runner, parsed) {
      const run = await runner.join(parsed.positionals[0]!);
      return { run_id: run.runId, workflow: run.workflow.id, state: run.state, status: run.status };
    },
  },
  reload: {
    usage: 'reload',
    help: 'Apply the current text of the workflow file to the run (validated; the current state must still exist).',
    positionals: 0,
    exec: (runner) => runner.reload(),
  },
  ...RUN_TOOL_SUBCOMMANDS,
  ...RUN_HANDLER_SUBCOMMANDS,
  ...RUN_BIND_SUBCOMMANDS,
};

const USAGE = `stategate run [--dir DIR] <${Object.keys(RUN_SUBCOMMANDS).join('|')}> ...`;

function helpText(): string {
  return [
    `usage: ${USAGE}`,
    '',
    'Drives the active run under DIR (default: ./.stategate). Every subcommand prints one JSON object.',
    '',
    ...Object.values(RUN_SUBCOMMANDS).map((s) => `  ${s.usage}\n      ${s.help}`),
  ].join('\n');
}

/** Split `[--dir DIR] SUB ...` so --dir may come before or after the subcommand. */
function splitArgs(args: readonly string[]): { dir?: string; sub?: string; rest: string[] } {
  const rest: string[] = [];
  let dir: string | undefined;
  let sub: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--dir') {
      dir = args[++i];
      if (dir === undefined) throw new CliError('usage', `--dir needs a directory\nusage: ${USAGE}`);
    } else if (a.startsWith('--dir=')) dir = a.slice('--dir='.length);
    else if (sub === undefined && !a.startsWith('-')) sub = a;
    else rest.push(a);
  }
  return { ...(dir === undefined ? {} : { dir }), ...(sub === undefined ? {} : { sub }), rest };
}

export const command: Command = {
  name: 'run',
  answersInJson: (args) => !args.includes('--help') && !args.includes('-h'),
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    const { dir, sub, rest } = splitArgs(args);
    if (sub === undefined) {
      if (rest.includes('--help') || rest.includes('-h')) {
        out.stdout(`${helpText()}\n`);
        return 0;
      }
      throw new CliError('usage', `no subcommand\nusage: ${USAGE}`);
    }
    const spec = RUN_SUBCOMMANDS[sub];
    if (!spec) throw new CliError('usage', `unknown run subcommand '${sub}'\nusage: ${USAGE}`);
    const parsed = parse(rest, spec.options ?? {}, `stategate run ${spec.usage}`);
    if (parsed.values.help) {
      out.stdout(`usage: stategate run [--dir DIR] ${spec.usage}\n\n${spec.help}\n`);
      return 0;
    }
    if (parsed.positionals.length !== spec.positionals) {
      throw new CliError('usage', `expected ${spec.positionals} argument(s), got ${parsed.positionals.length}\nusage: stategate run ${spec.usage}`);
    }
    refuseInsideSandbox(sub, spec);
    const runner = createRunner(path.resolve(dir ?? '.stategate'));
    let answer: unknown;
    try {
      answer = await spec.exec(runner, parsed);
    } catch (err) {
      // Exit 3: enforcement cannot use its state (README.md, "The command line").
      if (err instanceof RunnerError) throw new CliError(err.code, err.message, err.code === 'run_unreadable' || err.code === 'run_tampered' || err.code === 'store_unavailable' ? 3 : 1);
      throw err;
    }
    if (sub === 'audit' && parsed.values.json !== true) {
      // The one run subcommand with a text form: the timeline for a person (--json for tools).
      out.stdout(`${auditText(answer as AuditTimeline)}\n`);
      return 0;
    }
    printJson(out, answer);
    const refusal = (answer as { error?: { code: string; message: string } }).error;
    if (refusal) {
      out.stderr(`stategate: ${refusal.message.replace(/\s*\n\s*/g, ' ')}\n`);
      return 1;
    }
    const denial = answer as { decision?: string; reason?: string };
    if (denial.decision === 'deny') {
      // A denial is an answer, not an error: exit 0, but say it on stderr for people reading a terminal.
      out.stderr(`stategate: denied: ${String(denial.reason).replace(/\s*\n\s*/g, ' ')}\n`);
    }
    return 0;
  },
};
