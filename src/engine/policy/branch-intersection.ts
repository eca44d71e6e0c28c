/**
 * The rules of the sandbox an unbound session's shell command runs in while a
 * parallel fork runs (docs/design/forks.md). Each branch decided the call
 * already; these are what must hold while it runs, where no static check
 * reaches: every branch's blocked variables are unset (their union), the
 * network is cut where any branch cuts it, and a write is allowed only under
 * the allowed_paths globs every branch that sets them shares (none shared:
 * nowhere). Conflicting env_overrides: the later branch in name order sets
 * the value; a variable some branch blocks is never set.
 */
import type { StateRules } from '../model/index.js';

export function intersectRules(all: readonly StateRules[]): StateRules | undefined {
  const [first] = all;
  if (!first) return undefined;
  const blockedEnv = [...new Set(all.flatMap((r) => r.blockedEnv))];
  const envOverrides: Record<string, string> = Object.assign({}, ...all.map((r) => r.envOverrides));
  for (const name of blockedEnv) delete envOverrides[name];
  const lists = all.map((r) => r.allowedPaths).filter((p): p is readonly string[] => p !== undefined);
  const allowedPaths = lists.length ? lists.reduce((a, b) => a.filter((g) => b.includes(g))) : undefined;
  const deniedPaths = [...new Set(all.flatMap((r) => r.deniedPaths ?? []))];
  const network = all.some((r) => r.network === false) ? false : first.network;
  return {
    ...first,
    blockedEnv,
    envOverrides,
    ...(allowedPaths === undefined ? {} : { allowedPaths }),
    ...(deniedPaths.length ? { deniedPaths } : {}),
    ...(network === undefined ? {} : { network }),
  };
}
