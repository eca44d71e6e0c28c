/**
 * The flow file an instance runs, read from its instance.json (the top frame's
 * `file`). Shared by the runs (Show Flow opens it) and the state panel (which
 * draws its diagram); small, so both bundles may carry it.
 */
import * as fs from 'node:fs';
import { instanceFile } from '../../engine/index.js';

/** The flow file of `instance`, when its instance.json names one that is still there. */
export function flowFileOf(workspace: string, instance: string): string | undefined {
  try {
    const rec = JSON.parse(fs.readFileSync(instanceFile(workspace, instance), 'utf8')) as { frames?: { file?: unknown }[] };
    const file = rec.frames?.[0]?.file;
    return typeof file === 'string' && fs.existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}
