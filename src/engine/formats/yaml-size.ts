/**
 * The largest YAML text stategate reads. The `yaml` package reads YAML in
 * time proportional to its length, many times slower than JSON.parse:
 * measured 2026-12-07 on a shared, busy 2-core machine (docs/dev/performance-history.md),
 * parseDocument took 90-130 ms for the 205 KB generated 1,000-state chart,
 * 200 ms for 530 KB, 600 ms for 1.06 MB and 1.3-1.5 s for 2.1 MB. The editor
 * re-reads a file on every debounced edit and the hook reads the workflow in
 * every process: the cap keeps every read near half a second even on a busy
 * machine, and a longer text gets one error instead. No workflow of any
 * format comes near it (the largest example is a few KB), and one that does
 * can be written as JSON, which has no such limit. Checked before the package
 * is loaded, in characters (the text's `length`), as tree-depth.ts caps nesting.
 */
import type { Diagnostic } from '../model/index.js';

/** Characters of YAML read at most (about 1 MB). */
export const MAX_YAML_LENGTH = 1_000_000;

/** The one error for a YAML text longer than MAX_YAML_LENGTH; undefined for one that is not. */
export function yamlSizeError(text: string): Diagnostic | undefined {
  if (text.length <= MAX_YAML_LENGTH) return undefined;
  const chars = (n: number) => n.toLocaleString('en-US');
  return {
    severity: 'error',
    code: 'yaml-syntax',
    message: `The YAML is ${chars(text.length)} characters long; stategate reads YAML of at most ${chars(MAX_YAML_LENGTH)} characters (about 1 MB), so this file is not checked. Split it, or write it as JSON, which has no such limit.`,
    loc: { pointer: '', start: 0, end: Math.min(1, text.length) },
  };
}
