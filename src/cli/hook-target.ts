/**
 * Which run a hook call is decided against, and what the Runner is told of the
 * call: one module, so the hook (hook-command.ts) and the tests that decide
 * tables of calls in-process (test/unit/helpers/hook-in-process.ts) find the
 * same run by the same rules.
 */
import * as path from 'node:path';
import { chosenStoreUrl, findStoreDir, userStateDir } from '../engine/index.js';
import type { HookInput } from './hook-protocol.js';

/** Where the call's run is kept, and the workspace it belongs to (undefined: the folder above `dir`'s own resolution). */
export interface HookTarget {
  readonly dir: string;
  readonly workspaceRoot?: string;
}

/**
 * The run's folder for a call: `--dir` (or STATEGATE_DIR) when given; else the
 * one the record outside the workspace names for the nearest folder at or above
 * the call's cwd (hooks may run in a subfolder), never merely the first
 * `.stategate` above it, which an agent could have made; only where no record
 * names one is a `.stategate` looked for (findStoreDir). With a shared store, a
 * clone without `.stategate/` is still held to the team's run: the store decides
 * (named by STATEGATE_STORE_URL, or by the pointer VS Code wrote for this
 * workspace outside it: store-pointer.ts). Undefined: nothing to enforce.
 */
export function hookTarget(input: HookInput, explicitDir?: string): HookTarget | undefined {
  const where = input.cwd ?? process.cwd();
  const shared = chosenStoreUrl({ workspaceRoot: where }) !== undefined;
  const found = explicitDir ?? process.env.STATEGATE_DIR ?? findStoreDir(where, userStateDir()) ?? (shared ? path.join(where, '.stategate') : undefined);
  if (!found) return undefined;
  const dir = path.resolve(found);
  return { dir, ...(input.cwd && !explicitDir ? { workspaceRoot: path.dirname(dir) } : {}) };
}

/**
 * The session a call binds to a fork branch as: a Claude Code sub-agent's
 * `agent_id` where present (sub-agents share their parent's session_id, and
 * each works its own branch), else the client's session id.
 */
export function bindingSession(input: HookInput): string | undefined {
  return input.agentId ?? input.sessionId;
}

/** Where the agent works, which client asks and its id of the call: one call is counted once, whatever number of hooks ask. */
export function callOptions(input: HookInput): { cwd?: string; client: string; callId?: string; session?: string } {
  const session = bindingSession(input);
  return { client: input.client, ...(input.cwd ? { cwd: input.cwd } : {}), ...(input.callId ? { callId: input.callId } : {}), ...(session ? { session } : {}) };
}
