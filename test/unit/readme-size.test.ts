/**
 * The README is for users (issue 31): at most 15 KB, a benchmark table of at most 12 rows in which every
 * row says what it means, and every relative link names a file of the repository.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test('README.md is at most 15,000 bytes', () => {
  assert.ok(Buffer.byteLength(README) <= 15_000, `README.md is ${Buffer.byteLength(README)} bytes`);
});

test('the Performance table has at most 12 rows, each with what it means', () => {
  const section = README.slice(README.indexOf('## Performance'));
  const rows = section.split('\n').filter((l) => l.startsWith('|')).slice(2);
  assert.ok(rows.length > 0 && rows.length <= 12, `${rows.length} rows`);
  const header = section.split('\n').find((l) => l.startsWith('|'))!;
  const meaning = header.split('|').map((c) => c.trim()).indexOf('what it means');
  assert.ok(meaning > 0, 'a "what it means" column');
  for (const row of rows) assert.ok(row.split('|')[meaning]!.trim().length > 0, `no meaning in: ${row}`);
});

test('every relative link of the README names a file that exists', () => {
  for (const [, target] of README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue;
    assert.ok(fs.existsSync(path.join(ROOT, target!)), `README links to ${target}, which does not exist`);
  }
});
