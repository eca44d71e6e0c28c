/**
 * The chart's `version` is semver (MAJOR.MINOR.PATCH, with an optional
 * pre-release and build): `statechart:<id>@<version>` asks for it and the
 * highest one runs when none is asked for (formats/version-order.ts). The
 * `semver` package is not one of this project's dependencies, so the check is
 * the grammar of semver.org 2.0.0 as a regular expression: no leading zeros in
 * numbers, no `v` prefix, no missing parts.
 */
import type { Diagnostic, Workflow } from '../model/index.js';

export const CHART_VERSION = 'chart-version';

const NUM = '(?:0|[1-9]\\d*)';
const PRE_ID = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
const BUILD_ID = '[0-9A-Za-z-]+';
const SEMVER = new RegExp(`^${NUM}\\.${NUM}\\.${NUM}(?:-${PRE_ID}(?:\\.${PRE_ID})*)?(?:\\+${BUILD_ID}(?:\\.${BUILD_ID})*)?$`);

export function isSemver(text: string): boolean {
  return SEMVER.test(text);
}

export function versionRule(wf: Workflow, out: Diagnostic[]): void {
  const version = wf.version;
  const loc = wf.chart?.versionLoc;
  if (version === undefined || loc === undefined) return;
  if (typeof version === 'string' && isSemver(version)) return;
  const hint = hintFor(version);
  out.push({
    severity: 'error',
    code: CHART_VERSION,
    message: `The chart's \`version\` must be semver, MAJOR.MINOR.PATCH (e.g. "1.2.0", "2.0.0-rc.1"); found ${JSON.stringify(version)}.${hint ? ` ${hint}` : ''}`,
    loc,
    data: { version: String(version), ...(hint && fixed(version) ? { closest: fixed(version) as string } : {}) },
  });
}

/** A likely meaning of a version that is not semver (a number, a `v` prefix, missing parts). */
function fixed(version: string | number): string | undefined {
  const text = String(version).replace(/^v/i, '');
  const parts = text.split('.');
  if (parts.length < 3 && parts.every((p) => /^\d+$/.test(p))) return [...parts, '0', '0'].slice(0, 3).map((p) => String(Number(p))).join('.');
  return isSemver(text) ? text : undefined;
}

function hintFor(version: string | number): string {
  const f = fixed(version);
  if (typeof version === 'number') return `A YAML number loses its parts (1.10 is 1.1): write it as a string${f ? `, "${f}"` : ''}.`;
  return f ? `Did you mean "${f}"?` : '';
}
