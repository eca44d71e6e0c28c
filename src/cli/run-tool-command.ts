/**
 * `stategate run tool|result`: the policy's decisions before and after a tool
 * call, as the hook makes them, for scripts and tests. `tool` counts an
 * allowed call and, for a shell call, says whether it runs in the kernel
 * sandbox (`sandbox`) and what the client runs instead (`updated_input`,
 * src/engine/sandbox/answer.ts); `result` records its bytes and edited file
 * and fires interrupts.
 */
import type { Runner } from '../engine/index.js';
import { parseJsonOption, CliError } from './io.js';
import { stringOption, type Parsed } from './args.js';

function input(parsed: Parsed): unknown {
  return parseJsonOption('input', stringOption(parsed, 'input')) ?? {};
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
      return answer;
    },
  },
  result: {
    usage: 'result NAME [--input JSON] [--bytes N] [--branch NAME]',
    help: 'Record a call after it ran: result bytes, the edited file, and the interrupt an edit fires: {"notices","interrupted","state"}.',
    options: { input: { type: 'string' as const }, bytes: { type: 'string' as const }, branch: { type: 'string' as const } },
    positionals: 1,
    async exec(runner: Runner, parsed: Parsed) {
      const raw = stringOption(parsed, 'bytes');
      const bytes = raw === undefined ? undefined : Number(raw);
      if (bytes !== undefined && (!Number.isInteger(bytes) || bytes < 0)) throw new CliError('usage', `--bytes must be a whole number ≥ 0, got ${raw}`);
      const branch = stringOption(parsed, 'branch');
      return await runner.result({ tool: parsed.positionals[0]!, input: input(parsed) }, bytes === undefined ? {} : { bytes }, branch ? { branch } : {});
    },
  },
};
