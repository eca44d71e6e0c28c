/**
 * The workflow checker (ajv's compiled schema and the semantic rules), required
 * on the first check: in the built server a bundle of its own (dist/cli/hook-check.js,
 * the hook's, shipped anyway; scripts/build.mjs points this require at it).
 */
import type { CheckOptions, CheckResult } from '../engine/index.js';

type Check = typeof import('../engine/check/check-file.js');
let check: Check | undefined;

/** A workflow or a registry manifest, each checked as what it is. */
export function checkFile(text: string, file: string, opts?: CheckOptions): CheckResult {
  check ??= require('../engine/check/check-file.js') as Check;
  return check.checkFile(text, file, opts);
}
