/**
 * A flow runner in a process of its own, for the tests that kill it (-9) or
 * stop it from another process: `node --import tsx flow-child.ts JSON` with
 * {workspace, file?, name, resume?, rerun?, dieOnTerm?}. Like the CLI, it answers
 * SIGTERM (what `stopFlow` sends) by aborting its runs, and prints the summary;
 * with dieOnTerm it just dies (so only stopFlow's own kill can end the command).
 */
import { abortFlowRuns, resumeFlow, startFlow } from '../../../src/engine/index.js';
import { testHost } from './flow-host.js';

const args = JSON.parse(process.argv[2] ?? '{}') as { workspace: string; file?: string; name: string; resume?: boolean; rerun?: boolean; dieOnTerm?: boolean };
if (!args.dieOnTerm) process.on('SIGTERM', () => abortFlowRuns());
const host = testHost(args.workspace);
const run = args.resume ? resumeFlow(host, args.name, { rerun: args.rerun ?? false }) : startFlow(host, { file: args.file ?? '', name: args.name });
run.then(
  (summary) => process.stdout.write(`${JSON.stringify(summary)}\n`),
  (err: Error) => {
    process.stdout.write(`${JSON.stringify({ error: err.message })}\n`);
    process.exitCode = 2;
  },
);
