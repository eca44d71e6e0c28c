/**
 * The paths an unknown tool's arguments may name. An MCP tool
 * (`mcp__fs__write_file {"path": ".claude/settings.json"}`), a tool the table
 * does not know, or one known only through a user's alias may write whatever
 * its arguments name, and stategate cannot know that it only reads: every
 * string among its arguments, at any depth (object keys too: `{files:
 * {"<path>": "<text>"}}`), is taken as a path the call may write, and checked
 * against the protected files only (policy/paths/write-plan.ts). Not against the path
 * scope: a string that is not a path in the workspace or a protected location
 * is not a path, so a search query or a message never turns an everyday MCP
 * call into a write outside the workspace.
 */
import { fileURLToPath } from 'node:url';

/** Longer strings are never paths (PATH_MAX on Linux). */
const MAX_PATH_LENGTH = 4096;
/** Strings looked at before the call is refused instead (each one is resolved on the disk). */
export const MAX_NAMED_PATHS = 5000;

/** `file:` URLs as the path they name; other URLs (`https://...`) name no file here. */
function asPath(s: string): string | undefined {
  if (s === '' || s.length > MAX_PATH_LENGTH || /[\n\r\0]/.test(s)) return undefined;
  if (/^file:/i.test(s)) {
    try {
      return fileURLToPath(s);
    } catch {
      return undefined;
    }
  }
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(s)) return undefined;
  return s;
}

/**
 * Every string of `input` that could be a path, once each, in the order met;
 * `tooMany` when there are more than MAX_NAMED_PATHS (the caller denies: a
 * path hidden past the limit must not pass unchecked).
 */
export function namedPaths(input: unknown): { paths: string[]; tooMany: boolean } {
  const seen = new Set<string>();
  // An explicit stack, not recursion: the hook input may nest as deep as MAX_JSON_DEPTH.
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      const p = asPath(v);
      if (p !== undefined) seen.add(p);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]![1], entries[i]![0]);
    }
    if (seen.size > MAX_NAMED_PATHS) return { paths: [], tooMany: true };
  }
  return { paths: [...seen], tooMany: false };
}
