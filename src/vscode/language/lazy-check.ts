/**
 * The workflow checker (ajv's compiled schema and the semantic rules), loaded
 * when the first workflow document or registry manifest is analysed: a bundle
 * of its own (dist/cli/hook-check.js, shared with the hook; see scripts/build.mjs), so activation
 * never loads it.
 */
import type { CheckOptions, CheckResult } from '../../engine/index.js';

type Check = typeof import('../../engine/check/check-file.js');
let check: Check | undefined;

/** A workflow or a registry manifest, each checked as what it is. */
export function checkFile(text: string, file: string, opts?: CheckOptions): CheckResult {
  check ??= require('../../engine/check/check-file.js') as Check;
  return check.checkFile(text, file, opts);
}
