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
  });
});
