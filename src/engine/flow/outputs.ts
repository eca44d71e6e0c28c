/**
 * Where a state's stdout goes: `var(NAME)` (one trailing newline removed, as
 * `$(...)` in a shell does for all of them) or `file(PATH)`, a
 * workspace-relative file. A file path that leaves the workspace is refused:
 * an absolute path, a `..` that climbs out, or a symlink (of the file or of a
 * folder on the way) that points outside. The runner checks every `file()` of
 * a flow before its first state runs, and again when it writes (a state may
 * have made a symlink since).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { insideWorkspace } from '../check/flow-rules.js';
import type { FlowOutput } from '../model/index.js';
import { writeFileAtomic } from '../util/atomic-file.js';

/** stdout as a variable holds it: one trailing newline (`\n` or `\r\n`) removed. */
export function captured(stdout: string): string {
  return stdout.replace(/\r?\n$/, '');
}

/** The absolute path `file(rel)` writes to, or why it is refused. */
export function outputFilePath(workspace: string, rel: string): { abs: string } | { refused: string } {
  const refused = `\`file(${rel})\` is outside the workspace ${workspace}`;
  if (!insideWorkspace(rel)) return { refused: `${refused}: output files are workspace-relative paths that stay inside it` };
  const root = realOrSelf(workspace);
  const abs = path.resolve(root, rel);
  const real = realTarget(abs);
  if (real === undefined) return { refused: `${refused}: it is a symlink that points nowhere` };
  if (!within(root, real)) return { refused: `${refused}: through a symlink it is ${real}` };
  return { abs };
}

/** Each `file()` of these outputs that would be refused, as messages. */
export function refusedOutputs(workspace: string, outputs: Iterable<FlowOutput | undefined>): string[] {
  const out: string[] = [];
  for (const o of outputs) {
    if (o?.kind !== 'file') continue;
    const r = outputFilePath(workspace, o.path);
    if ('refused' in r) out.push(r.refused);
  }
  return out;
}

/** Write stdout to `file(rel)`, creating its folders. Throws with the refusal when the path leaves the workspace. */
export function writeOutputFile(workspace: string, rel: string, stdout: string): void {
  const first = outputFilePath(workspace, rel);
  if ('refused' in first) throw new Error(first.refused);
  fs.mkdirSync(path.dirname(first.abs), { recursive: true });
  // Checked again once the folders exist: a symlinked folder on the way is only resolvable now.
  const again = outputFilePath(workspace, rel);
  if ('refused' in again) throw new Error(again.refused);
  writeFileAtomic(again.abs, stdout);
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Where writing `abs` would land: the real path of its deepest existing
 * ancestor joined with the rest; the file itself followed when it is a
 * symlink. undefined for a dangling symlink (its target cannot be judged).
 */
function realTarget(abs: string): string | undefined {
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      fs.lstatSync(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return abs;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
  try {
    return path.join(fs.realpathSync(existing), ...rest);
  } catch {
    return undefined;
  }
}

function within(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
