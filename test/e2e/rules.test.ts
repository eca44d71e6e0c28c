// Every semantic rule the authoring e2e test does not already cover (authoring.test.ts has
// no-final-state, unknown-target, unknown-guard, return-outside-interrupt, unreachable-state)
// reaches the Problems of the real VS Code with the engine's code, message and exact range.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { withVsCode } from './harness';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { LineIndex } from '../../src/engine/formats/text-position';
import type { ReportedDiagnostic } from './host-runner/suites/diagnostics';
import { BIG_STATES, bigWorkflow, type HostThreadReport } from './host-runner/suites/big-workflow';

const RULES: Record<string, string> = {
  'final-state-transition.workflow.json': 'final-state-transition',
  'unreachable-branch.workflow.json': 'unreachable-branch',
  'unknown-workflow.workflow.json': 'unknown-workflow',
  'unknown-initial.workflow.json': 'unknown-initial',
  'return-not-allowed.workflow.json': 'return-not-allowed',
  'cycle-a.workflow.json': 'invoke-cycle',
  'cycle-b.workflow.json': 'invoke-cycle',
  'invalid-limit.workflow.json': 'invalid-limit',
  'fork-terminal-not-final.workflow.json': 'fork-terminal-not-final',
  'empty-fork.workflow.json': 'empty-fork',
  'empty-branches.workflow.json': 'empty-branches',
  'approval-in-branch.workflow.json': 'approval-in-branch',
};

test('each semantic rule shows in Problems with its code, message and exact range', { timeout: 240_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/rules-workspace' }, async (vsc) => {
    await vsc.hostReady();
    const result = await vsc.host('diagnostics', undefined, 120_000);
    for (const r of result.tests) assert.ok(r.ok, `${r.name}: ${r.error}`);
    const reported = result.tests[0]!.data as Record<string, ReportedDiagnostic[]>;
    for (const [file, code] of Object.entries(RULES)) {
      const abs = path.join(vsc.workspaceDir, 'rules', file);
      const text = fs.readFileSync(abs, 'utf8');
      const lines = new LineIndex(text);
      const expected = checkWorkflowFile(text, abs).diagnostics.filter((d) => d.code === code);
      assert.ok(expected.length > 0, `the engine itself reports ${code} for ${file}`);
      const got = reported[file] ?? [];
      for (const d of expected) {
        const start = lines.position(d.loc.start);
        const end = lines.position(d.loc.end);
        assert.ok(
          got.some((g) => g.code === d.code && g.message === d.message && g.start[0] === start.line && g.start[1] === start.character && g.end[0] === end.line && g.end[1] === end.character),
          `${file}: ${code} at ${start.line}:${start.character} in ${JSON.stringify(got)}`,
        );
      }
    }
    t.diagnostic(`rules checked in VS Code: ${[...new Set(Object.values(RULES))].join(', ')}`);

    // The language server checked a big workflow in its own process while the host's event loop stayed
    // free: had the check run on the host's thread, the loop would have stalled for the check's whole time.
    const big = result.tests.find((r) => r.name.startsWith('a big workflow'))?.data as HostThreadReport | undefined;
    assert.ok(big, 'the in-host language server test ran');
    assert.deepEqual(big.diagnosticCodes.sort(), ['unknown-target', 'unreachable-state'], 'the big workflow\'s Problems arrived');
    assert.ok(big.serverPid !== undefined && big.serverPid !== big.hostPid, `server pid ${big.serverPid}, host pid ${big.hostPid}`);
    const checkers = big.loaded.filter((f) => /(^|\/)(cli\/hook-check|cli\/hook-yaml|lsp-server|extension-language)\.js$/.test(f));
    assert.deepEqual(checkers, [], 'no checker, YAML reader or server module loaded in the extension host');
    assert.ok(big.loaded.includes('dist/extension-lsp-client.js'), `the host loaded the client (the list is of the extension's modules): ${big.loaded.join(', ')}`);
    assert.deepEqual(big.lensArguments, { startRun: true, showReferences: true }, 'the lenses\' commands get a Uri, a Position and Locations');
    const text = bigWorkflow(BIG_STATES);
    const file = path.join(vsc.workspaceDir, 'big', 'big.workflow.json');
    const times = [0, 1, 2].map(() => {
      const t0 = performance.now();
      checkWorkflowFile(text, file);
      return performance.now() - t0;
    });
    const checkMs = times.sort((a, b) => a - b)[1]!;
    t.diagnostic(`big workflow (${BIG_STATES} states): Problems in ${big.waitedMs.toFixed(0)} ms; host event loop max delay ${big.maxDelayMs.toFixed(1)} ms (p99 ${big.p99DelayMs.toFixed(1)}); the check alone takes ${checkMs.toFixed(0)} ms here`);
    assert.ok(big.maxDelayMs < checkMs / 2, `the host's event loop stalled ${big.maxDelayMs.toFixed(1)} ms, not far below the check's ${checkMs.toFixed(0)} ms`);
  });
});
