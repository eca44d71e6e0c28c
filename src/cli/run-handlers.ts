/**
 * `stategate run handlers`: runs every pending handler of the active
 * statechart run to completion (docs/statechart-handlers.md), then prints the
 * run state (the JSON of `run state`) with `handlers`: what each run did (its
 * id, exit code, output size, or why it was refused). A person's terminal has
 * no Restricted Mode and asks nothing: a chart file no person trusted is
 * refused with the way (`stategate trust FILE`), not asked about.
 */
import { runPendingHandlers, type Runner } from '../engine/index.js';
import { cliFlowHost } from './flow-host.js';
import type { Parsed } from './args.js';
import { processOutput } from './io.js';

export const RUN_HANDLER_SUBCOMMANDS = {
  handlers: {
    usage: 'handlers',
    help: "Run the active statechart run's pending handlers (invoke actions, handler: and flow: services) to completion, then print the run state with `handlers`: what each did. A person's command; the chart file must be trusted (`stategate trust FILE`).",
    positionals: 0,
    async exec(runner: Runner, _parsed: Parsed) {
      // The flows' progress and output go to stderr: stdout carries only the JSON answer.
      const flowHost = cliFlowHost(runner.workspaceRoot, { stdout: processOutput.stderr, stderr: processOutput.stderr });
      const handlers = await runPendingHandlers(runner, { workspaceTrusted: true, flowHost });
      return { ...(await runner.state()), handlers };
    },
  },
};
