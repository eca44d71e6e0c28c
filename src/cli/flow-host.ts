/**
 * What `stategate flow run|resume` runs a flow with: the engine's Node host
 * (real processes, the terminal), progress and the tools' output on stderr
 * (stdout carries only the JSON summary), Claude Code under this CLI's own
 * hook, and signals turned into a stop: Ctrl-C (SIGINT), a closed terminal
 * (SIGHUP) and `flow stop` from another process (SIGTERM, after it marked
 * the instance stopped) all end the running state's process group and leave
 * the instance `stopped`, then the summary is printed. A second signal
 * exits at once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { abortFlowRuns, claudeHookCommandFor, instanceFile, listFlows, nodeFlowHost, stopFlow, type FlowHost, type FlowSink } from '../engine/index.js';
import type { Output } from './io.js';

/** Progress lines and the tools' live output, all on stderr; a progress line never continues a tool's unfinished line. */
export function stderrSink(out: Output): FlowSink {
  let atLineStart = true;
  return {
    progress(line) {
      out.stderr(`${atLineStart ? '' : '\n'}${line}\n`);
      atLineStart = true;
    },
    output(_state, chunk) {
      if (chunk === '') return;
      out.stderr(chunk);
      atLineStart = chunk.endsWith('\n');
    },
  };
}

/**
 * The command line that runs this CLI's `hook --client claude`: the same
 * runtime and script as this process, so Claude Code started by a flow is
 * gated by the stategate that started it (claude-code.ts passes it with
 * `--settings` unless the workspace has the hook installed).
 */
export function ownClaudeHookCommand(): string | undefined {
  const script = require.main?.filename ?? process.argv[1];
  if (!script || !script.endsWith('.js')) return undefined;
  return claudeHookCommandFor(process.execPath, path.resolve(script), process.env.ELECTRON_RUN_AS_NODE === '1');
}

export function cliFlowHost(workspace: string, out: Output): FlowHost {
  const hook = ownClaudeHookCommand();
  return nodeFlowHost(workspace, stderrSink(out), hook ? { claudeHookCommand: hook } : {});
}

/** The instances this process drives (their instance.json names this pid as the runner). */
function ownInstances(workspace: string): string[] {
  return listFlows(workspace)
    .filter((s) => s.status === 'running' || s.status === 'interrupted')
    .map((s) => s.instance)
    .filter((name) => {
      try {
        const rec = JSON.parse(fs.readFileSync(instanceFile(workspace, name), 'utf8')) as { runner?: { pid?: unknown } };
        return rec.runner?.pid === process.pid;
      } catch {
        return false;
      }
    });
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * While `body` runs, a stop signal stops this process's instances (marked
 * `stopped`, process groups killed, the runner aborted) so `body` ends with
 * the stopped summary. A second signal exits at once with 128+n.
 */
export async function stoppingOnSignals<T>(workspace: string, out: Output, body: () => Promise<T>): Promise<T> {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143);
    signalled = true;
    out.stderr(`\nstategate: ${signal}: stopping the flow (again to exit at once)\n`);
    try {
      for (const name of ownInstances(workspace)) stopFlow(workspace, name);
    } finally {
      abortFlowRuns();
    }
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  try {
    return await body();
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
  }
}
