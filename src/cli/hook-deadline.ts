/**
 * The hook's answer within its bound (src/engine/store/deadline.ts): the
 * decision races the process deadline, and when the deadline comes first the
 * hook answers `late(reason)` at once (a PreToolUse: denied) instead of
 * answering after the client stopped waiting. The reason names the bound and
 * what was still being waited for. Store reads and lock waits already take
 * only what remains, so this is the last line: work that is slow without
 * waiting on anything (a huge file to check) is bounded by the checks
 * themselves (vscode-hook-settings.ts), since no timer runs while it does.
 */
import { currentWait, processDeadline, remainingMs } from '../engine/index.js';

const LATE = Symbol('late');

export async function decideInTime<T>(decide: () => Promise<T>, late: (reason: string) => T): Promise<T> {
  const deadline = processDeadline();
  const left = remainingMs();
  if (!deadline || left === undefined) return decide();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), left);
  });
  try {
    const answer = await Promise.race([decide(), expired]);
    if (answer !== LATE) return answer;
    const waiting = currentWait();
    return late(`stategate could not answer within its bound of ${deadline.boundMs} ms (${deadline.why})${waiting ? `: it was still waiting for ${waiting}` : ''}`);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
