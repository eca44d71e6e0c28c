/**
 * `stategate run tool|result`: the policy's decisions before and after a tool
 * call, as the hook makes them, for scripts and tests. `tool` counts an
 * allowed call and, for a shell call, says whether it runs in the kernel
 * sandbox (`sandbox`) and what the client runs instead (`updated_input`,
 * src/engine/sandbox/answer.ts); `result` records its bytes and edited file
 * and fires interrupts.
 */
import { typedDenial, type Runner } from '../engine/index.js';
import { parseJsonOption, CliError } from './io.js';
import { stringOption, type Parsed } from './args.js';

function input(parsed: Parsed): unknown {
  return parseJsonOption('input', stringOption(parsed, 'input')) ?? {};
}

/** `--exit-code N` and `--outcome ok|failed` as the hook reports them (an exit code alone: ok when 0). */
function callOutcome(exitRaw: string | undefined, outcomeRaw: string | undefined): { ok?: boolean; exitCode?: number } | undefined {
  const exitCode = exitRaw === undefined ? undefined : Number(exitRaw);
  if (exitCode !== undefined && (exitRaw!.trim() === '' || !Number.isInteger(exitCode))) throw new CliError('usage', `--exit-code must be a whole number, got ${exitRaw}`);
  if (outcomeRaw !== undefined && outcomeRaw !== 'ok' && outcomeRaw !== 'failed') throw new CliError('usage', `--outcome must be ok or failed, got ${outcomeRaw}`);
  if (exitCode === undefined && outcomeRaw === undefined) return undefined;
  return { ...(outcomeRaw !== undefined ? { ok: outcomeRaw === 'ok' } : {}), ...(exitCode !== undefined ? { exitCode } : {}) };
}

export const RUN_TOOL_SUBCOMMANDS = {
  tool: {
    usage: 'tool NAME [--input JSON] [--branch NAME]',
    help: 'Decide a tool call before it runs: {"decision":"allow"|"deny","reason"?,"notices","state"}. An allowed call is counted. An allowed shell call also gets "sandbox": {"enforced", "reason"?} and, when the sandbox is on, "updated_input": the input with its command wrapped in bubblewrap, as the hook hands it back.',
    options: { input: { type: 'string' as const }, branch: { type: 'string' as const } },
    positionals: 1,
    async exec(runner: Runner, parsed: Parsed) {
      const branch = stringOption(parsed, 'branch');
      const answer = await runner.tool({ tool: parsed.positionals[0]!, input: input(parsed) }, branch ? { branch } : {});
      // Outside the live stage's tools (and nothing else against it): the pipeline's typed denial beside the decision.
      return answer.outside_stage ? { ...answer, denied_tool_call: typedDenial({ tool: answer.outside_stage.tool, state: answer.outside_stage.stage }, 'outside_stage') } : answer;
    },
  },
  result: {
    usage: 'result NAME [--input JSON] [--bytes N] [--exit-code N] [--outcome ok|failed] [--branch NAME]',
    help: 'Record a call after it ran: result bytes, the edited file, how it ended (kept as evidence for guards), and the interrupt an edit fires: {"notices","interrupted","state"}.',
    options: { input: { type: 'string' as const }, bytes: { type: 'string' as const }, 'exit-code': { type: 'string' as const }, outcome: { type: 'string' as const }, branch: { type: 'string' as const } },
    positionals: 1,
    async exec(runner: Runner, parsed: Parsed) {
      const raw = stringOption(parsed, 'bytes');
      const bytes = raw === undefined ? undefined : Number(raw);
      if (bytes !== undefined && (!Number.isInteger(bytes) || bytes < 0)) throw new CliError('usage', `--bytes must be a whole number ≥ 0, got ${raw}`);
      const outcome = callOutcome(stringOption(parsed, 'exit-code'), stringOption(parsed, 'outcome'));
      const branch = stringOption(parsed, 'branch');
      return await runner.result({ tool: parsed.positionals[0]!, input: input(parsed) }, { ...(bytes === undefined ? {} : { bytes }), ...(outcome ? { outcome } : {}) }, branch ? { branch } : {});
    },
  },
};
