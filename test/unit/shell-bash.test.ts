import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { differential } from '../fuzz/shell-vs-bash';

// A short seeded run of the differential fuzzer (test/fuzz/shell-vs-bash.ts):
// nothing the analysis allows may make real bash run a forbidden command, print a blocked variable or write a file.
const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;
for (const mode of ['commands', 'env', 'writes'] as const) {
  test(`real bash never does what the analysis allowed it not to (${mode})`, { skip: !hasBash && 'no bash here' }, async () => {
    const r = await differential(mode, 20261122, 1500);
    assert.deepEqual(r.bypasses, []);
    assert.ok(r.allowed > 0, 'the fuzzer should produce some allowed commands');
  });
}
