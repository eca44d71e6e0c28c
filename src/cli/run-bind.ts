/**
 * `stategate run bind --session ID --branch NAME`: binds an agent session to a
 * branch of the running fork, so the hook decides that session's calls by the
 * branch's rules (docs/agents.md says where each client's session id comes
 * from). The binding is stored in the run: every hook process sees it. A
 * refusal (no fork, an unknown or ended branch) is the usual JSON object with
 * an `error`, listing the fork's branches, and exit 1.
 */
import type { Runner } from '../engine/index.js';
import { CliError } from './io.js';
import { stringOption, type Parsed } from './args.js';

function required(parsed: Parsed, name: 'session' | 'branch'): string {
  const value = stringOption(parsed, name);
  if (value === undefined || value === '') throw new CliError('usage', `--${name} is required\nusage: stategate run bind --session ID --branch NAME`);
  return value;
}

export const RUN_BIND_SUBCOMMANDS = {
  bind: {
    usage: 'bind --session ID --branch NAME',
    help: 'Bind an agent session (its hook session id; a Claude Code sub-agent\'s agent_id) to a branch of the running fork: its calls are then decided by that branch\'s rules. A sequential fork runs its branches in parallel from then on. Prints {"session","branch","parallel","branches":[{"name","status","sessions"}]}.',
    options: { session: { type: 'string' as const }, branch: { type: 'string' as const } },
    positionals: 0,
    exec: (runner: Runner, parsed: Parsed) => runner.bind(required(parsed, 'session'), required(parsed, 'branch')),
  },
};
