/**
 * Processes a test starts and must see gone: whether a pid is alive, polling
 * with a bound, pid files the test's commands write, and a clean-up that
 * kills what a failing test left behind.
 */
import * as fs from 'node:fs';

/** Alive and not a zombie (a zombie answers kill(pid, 0) until its new parent reaps it, which a container's init may never do). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The live (not zombie) processes of a process group, from /proc. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && Number(pgrp) === pgid) members.push(Number(entry));
    } catch {
      /* gone while reading */
    }
  }
  return members;
}

/** The process group of a pid (field 5 of /proc/<pid>/stat), or undefined when it is gone. */
function groupOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}

/**
 * Poll until `check` holds, at most `tries` times 20 ms (a bound, not a timing assertion).
 * The default waits up to a minute: a loaded 2-core CI machine took more than 10 s to start a
 * flow's shell in `cli-flow-run`, and a wait that ends early only ever turns a slow pass into a failure.
 */
export async function eventually(check: () => boolean, tries = 3000): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

const lastRead = new Map<string, number[]>();

/** The pids a command wrote into `file`, one or more a line; what was last read once the file is gone (its folder removed first). */
export function pidsIn(file: string): number[] {
  try {
    const pids = fs.readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number);
    lastRead.set(file, pids);
    return pids;
  } catch {
    return lastRead.get(file) ?? [];
  }
}

/** After the test, SIGKILL these pids and their process groups (never this process's own group). */
export function killAfter(t: { after(fn: () => void): unknown }, pids: () => number[]): void {
  t.after(() => {
    const own = groupOf(process.pid);
    for (const pid of pids().filter((p) => Number.isInteger(p) && p > 0)) {
      const group = groupOf(pid);
      for (const target of [pid, ...(group !== undefined && group !== own && group > 1 ? [-group] : [])]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
  });
}
