/**
 * A statechart run's diagram as `stategate export --format svg` writes it
 * (the engine's exportSvg, laid out by elkjs in the extension host). elkjs is
 * large, so it is required only here, on first export; the build points this
 * require at its own file (scripts/build.mjs, dist/elk.js, which the webview loads too)
 * so loading the run features does not evaluate it.
 */
import { exportSvg, type Workflow } from '../../engine/index.js';

export async function chartSvg(wf: Workflow): Promise<string> {
  const ELK = (require('elkjs/lib/elk.bundled.js') as typeof import('elkjs/lib/elk.bundled.js')).default;
  return exportSvg(wf, new ELK());
}
