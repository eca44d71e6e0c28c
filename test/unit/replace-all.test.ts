/**
 * Issue 29: `replace_all` changes every occurrence, so max_edit_lines counts
 * the change block once per occurrence in the file (edit-lines.ts
 * editLinesInFile); a replace_all on a file that cannot be read is `unknown`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editLinesInFile, type EditShape } from '../../src/engine/agent/edit-lines';
import { extractCall } from '../../src/engine/agent/tools';

const FILE = `top\n${'foo\n'.repeat(8)}end\n`;

const rows: Array<[name: string, shape: EditShape, current: string | undefined, lines: number, unknown: boolean]> = [
  ['one replacement, one line', { kind: 'replace', oldText: 'top', newText: 'TOP' }, FILE, 1, false],
  ['replace_all of a line found 8 times', { kind: 'replace', oldText: 'foo', newText: 'bar', all: true }, FILE, 8, false],
  ['replace_all of a 1-line block by 2 lines, 8 times', { kind: 'replace', oldText: 'foo\n', newText: 'bar\nbaz\n', all: true }, FILE, 16, false],
  ['replace_all found once', { kind: 'replace', oldText: 'end', newText: 'END', all: true }, FILE, 1, false],
  ['replace_all found nowhere counts its own size', { kind: 'replace', oldText: 'nope', newText: 'x', all: true }, FILE, 1, false],
  ['replace_all on a file that cannot be read', { kind: 'replace', oldText: 'foo', newText: 'bar', all: true }, undefined, 1, true],
  ['multi: edits apply in order (the first removes 8 foo)', { kind: 'multi', edits: [{ oldText: 'foo', newText: 'qux', all: true }, { oldText: 'foo', newText: 'bar', all: true }] }, FILE, 9, false],
  ['multi: one plain edit and one replace_all', { kind: 'multi', edits: [{ oldText: 'top', newText: 'TOP' }, { oldText: 'foo', newText: 'bar', all: true }] }, FILE, 9, false],
  ['a write is its content, whatever the file', { kind: 'write', content: 'a\nb\n' }, undefined, 2, false],
];
for (const [name, shape, current, lines, unknown] of rows) {
  test(`edit size: ${name}`, () => assert.deepEqual(editLinesInFile(shape, current), { lines, unknown }));
}

test('replace_all is read in every client spelling, and only when true', () => {
  assert.equal((extractCall('Edit', { file_path: 'a', old_string: 'x', new_string: 'y', replace_all: true }).editShape as { all?: boolean }).all, true);
  assert.equal((extractCall('edit', { filePath: 'a', oldString: 'x', newString: 'y', replaceAll: true }).editShape as { all?: boolean }).all, true);
  assert.equal((extractCall('Edit', { file_path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' }).editShape as { all?: boolean }).all, undefined);
  const multi = extractCall('MultiEdit', { file_path: 'a', edits: [{ old_string: 'x', new_string: 'y' }, { old_string: 'p', new_string: 'q', replace_all: true }] }).editShape as unknown as { edits: Array<{ all?: boolean }> };
  assert.deepEqual(multi.edits.map((e) => e.all === true), [false, true]);
});
