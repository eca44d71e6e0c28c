/**
 * The run's own files are stategate's to write. An agent that could write
 * `.stategate/active` or a run's `run.json` with its file tools could put
 * itself in any state, so while a run is enforced every edit or write whose
 * target lies in a `.stategate/` folder is denied, except workflow files under
 * `.stategate/workflows/` (editing a workflow never changes a running run: the
 * run keeps the copy it started with).
 *
 * Paths are compared by segments after removing `.` and resolving `..`, so
 * `src/../.stategate/active` and `./.stategate//runs/x/run.json` are caught.
 * `.stategate` and `workflows` are matched without regard to case, since on a
 * case-insensitive disk `.STATEGATE/active` is the same file.
 */

/** Why `path` may not be written by an agent, or undefined when it may. */
export function protectedPathReason(path: string): string | undefined {
  const segments: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(part);
  }
  for (let i = 0; i < segments.length; i++) {
    if (segments[i]!.toLowerCase() !== '.stategate') continue;
    const next = segments[i + 1];
    // `.stategate` itself as a file name, and workflow files: not the run's state.
    if (next === undefined) continue;
    if (next.toLowerCase() === 'workflows' && segments.length > i + 2) continue;
    return `${path} is one of the run's own files under .stategate/, which only stategate writes. Move the workflow on with statewright_transition instead.`;
  }
  return undefined;
}
