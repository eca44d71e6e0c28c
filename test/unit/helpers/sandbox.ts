/**
 * For the sandbox tests (test/unit/sandbox*.test.ts): is bubblewrap usable
 * here? Under CI=true a missing or broken bwrap FAILS the test (the README's
 * `npm ci && npm test` installs it: scripts/ensure-bubblewrap.mjs); elsewhere
 * the test is skipped with the reason.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { findSandbox } from '../../../src/engine/sandbox/bwrap-probe';
import { tempDir } from './temp-dir';

/** The bwrap path, or undefined after skipping `t` (outside CI) when there is none. */
export function bwrapOrSkip(t: TestContext): string | undefined {
  // STATEGATE_BWRAP, as the CLI reads it (runner-factory.ts): also how a run without bwrap is tried here.
  const override = process.env.STATEGATE_BWRAP;
  const found = findSandbox({ stateDir: tempDir('sg-probe-', t), ...(override ? { candidates: [override] } : {}) });
  if (found.kind === 'bwrap') return found.path;
  if (process.env.CI === 'true') assert.fail(`the sandbox tests need bubblewrap under CI: ${found.reason}`);
  t.skip(`no usable bubblewrap: ${found.reason}`);
  return undefined;
}
