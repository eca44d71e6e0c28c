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
import * as path from 'node:path';
import './state-dir';
import { parseClientInput } from '../../../src/cli/hook-dialects';
import { createRunner } from '../../../src/cli/runner-factory';
import { chosenStoreUrl, findStoreDir, userStateDir, type HookClientName } from '../../../src/engine/index';

export interface InProcessDecision {
  readonly denied: boolean;
  readonly decision: string;
  readonly reason: string;
}

/** The hook's decision for `payload` (a PreToolUse as `client` sends it) when it runs in `cwd`. */
export async function hookDecision(client: HookClientName, cwd: string, payload: object): Promise<InProcessDecision> {
  const input = parseClientInput(client, JSON.stringify(payload));
  if (input.event !== 'PreToolUse' || !input.toolName) throw new Error(`hookDecision takes a PreToolUse, got ${input.event}`);
  const where = input.cwd ?? cwd;
  const shared = chosenStoreUrl({ workspaceRoot: where }) !== undefined;
  const found = findStoreDir(where, userStateDir()) ?? (shared ? path.join(where, '.stategate') : undefined);
  // No run anywhere: the hook allows by answering nothing.
  if (!found) return { denied: false, decision: 'allow', reason: 'nothing to enforce' };
  const dir = path.resolve(found);
  const runner = createRunner(dir, input.cwd ? path.dirname(dir) : undefined, `hook ${input.client}`);
  const session = input.agentId ?? input.sessionId;
  const answer = await runner.tool(
    { tool: input.toolName, input: input.toolInput ?? {} },
    { client: input.client, ...(input.cwd ? { cwd: input.cwd } : {}), ...(input.callId ? { callId: input.callId } : {}), ...(session ? { session } : {}) },
  );
  return { denied: answer.decision === 'deny', decision: answer.decision, reason: answer.reason ?? '' };
}
