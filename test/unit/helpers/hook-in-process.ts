/**
 * What `stategate hook` decides for a PreToolUse, in this process: the
 * client's input read by the hook's own dialect (src/cli/hook-dialects.ts),
 * the run found as the hook finds it (the record outside the workspace for the
 * call's cwd, else the nearest `.stategate`, else the shared store), the
 * Runner the hook makes (src/cli/runner-factory.ts) and the call the hook
 * hands it (runner.tool with the client, cwd, call id and session). Not here:
 * a pipeline stage's turn count and the outside-a-stage prompt (hook-command.ts),
 * and the hook's deadline. For tables of
 * commands whose point is the decision; the answer each client reads (its
 * JSON shape, exit codes) stays a process test (helpers/cli.ts), one per
 * client shape, since the hook's deadline and stdin belong to its process.
 */
import './state-dir';
import { parseClientInput } from '../../../src/cli/hook-dialects';
import { callOptions, hookTarget } from '../../../src/cli/hook-target';
import { createRunner } from '../../../src/cli/runner-factory';
import type { HookClientName } from '../../../src/engine/index';
import { withEnv } from './cli-in-process';

export interface InProcessDecision {
  readonly denied: boolean;
  /** As the hook answers: a call the Runner allows with a rewritten command goes to the person (ask). */
  readonly decision: string;
  readonly reason: string;
  /** The input the client is handed back (the command wrapped in the sandbox), when there is one. */
  readonly updatedInput?: unknown;
}

/** The hook's decision for `payload` (a PreToolUse as `client` sends it) when it runs in `cwd` with `env` set. */
export async function hookDecision(client: HookClientName, cwd: string, payload: object, env?: Readonly<Record<string, string>>): Promise<InProcessDecision> {
  return withEnv(env, () => decide(client, cwd, payload));
}

async function decide(client: HookClientName, cwd: string, payload: object): Promise<InProcessDecision> {
  const input = parseClientInput(client, JSON.stringify(payload));
  if (input.event !== 'PreToolUse' || !input.toolName) throw new Error(`hookDecision takes a PreToolUse, got ${input.event}`);
  // The hook's own rules for which run and what the Runner is told (src/cli/hook-target.ts); a payload
  // without a cwd is decided in `cwd`, as the hook decides in its process's folder.
  const target = hookTarget({ ...input, cwd: input.cwd ?? cwd });
  // No run anywhere: the hook allows by answering nothing.
  if (!target) return { denied: false, decision: 'allow', reason: 'nothing to enforce' };
  const runner = createRunner(target.dir, input.cwd ? target.workspaceRoot : undefined, `hook ${input.client}`);
  const answer = await runner.tool({ tool: input.toolName, input: input.toolInput ?? {} }, callOptions(input));
  const decision = answer.decision === 'deny' ? 'deny' : answer.rewrite !== undefined ? 'ask' : answer.decision;
  return { denied: decision === 'deny', decision, reason: answer.reason ?? '', ...(answer.updated_input !== undefined ? { updatedInput: answer.updated_input } : {}) };
}
