/**
 * Bundle and VSIX sizes, read from the files `npm run package` produced
 * (the minified build the VSIX ships). Targets: extension bundle ≤ 400 KB,
 * VSIX ≤ 2 MB. What a hook process loads (the CLI dispatcher and the hook
 * command's bundle) is reported too.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from '../row.js';
import { pendingRow } from '../row.js';

export function measureSizes(root: string): Row[] {
  const rows: Row[] = [];
  const item = (measure: string, files: readonly string[], limitKb: number | undefined, target: string): void => {
    const missing = files.find((f) => !existsSync(join(root, f)));
    if (missing !== undefined) {
      rows.push(pendingRow(measure, target, `${missing} is missing: run npm run package`));
      return;
    }
    const size = files.reduce((sum, f) => sum + statSync(join(root, f)).size, 0) / 1024;
    rows.push({ measure, stat: 'size', unit: 'KB', value: size, target, ...(limitKb === undefined ? {} : { pass: size <= limitKb }) });
  };
  item('extension bundle (dist/extension.js)', ['dist/extension.js'], 400, '≤ 400 KB');
  item('hook bundles (dist/cli.js + dist/cli/hook.js)', ['dist/cli.js', 'dist/cli/hook.js'], undefined, '(informative)');
  item('VSIX (stategate.vsix)', ['stategate.vsix'], 2048, '≤ 2 MB (2,048 KB)');
  return rows;
}
