/** A `.vscode/settings.json` write passes only when it leaves the hook settings as they were (vscode-hook-settings.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentAfter, hookSettingsUnchanged } from '../../src/engine/policy/paths/vscode-hook-settings';

const BEFORE = `{
  // comments and trailing commas are fine
  "editor.tabSize": 2,
  "chat.useHooks": true,
  "chat.hookFilesLocations": { ".github/hooks": true },
}`;

const rows: Array<[string, string | undefined, string, boolean]> = [
  ['another setting changed', BEFORE, BEFORE.replace('"editor.tabSize": 2', '"editor.tabSize": 4'), true],
  ['a setting added', BEFORE, BEFORE.replace('{', '{ "files.eol": "\\n",'), true],
  ['reformatted, same values', BEFORE, JSON.stringify({ 'chat.hookFilesLocations': { '.github/hooks': true }, 'chat.useHooks': true, 'editor.tabSize': 2 }), true],
  ['chat.useHooks turned off', BEFORE, BEFORE.replace('"chat.useHooks": true', '"chat.useHooks": false'), false],
  ['chat.useHooks removed', BEFORE, BEFORE.replace('"chat.useHooks": true,', ''), false],
  ['hook files moved', BEFORE, BEFORE.replace('".github/hooks": true', '"/tmp/mine": true'), false],
  ['chat.useClaudeHooks added', BEFORE, BEFORE.replace('{', '{ "chat.useClaudeHooks": false,'), false],
  ['a nested spelling', BEFORE, BEFORE.replace('{', '{ "chat": { "useHooks": false },'), false],
  ['inside a language override', BEFORE, BEFORE.replace('{', '{ "[json]": { "chat.useHooks": false },'), false],
  ['content that does not parse', BEFORE, '{ "editor.tabSize": ', false],
  ['a new file without hook settings', undefined, '{ "editor.tabSize": 2 }', true],
  ['a new file that turns hooks off', undefined, '{ "chat.useHooks": false }', false],
  // Issue 29: every stategate.* setting (stategate.toolAliases relabels tools).
  ['stategate.toolAliases added', BEFORE, BEFORE.replace('{', '{ "stategate.toolAliases": { "my_writer": "Read" },'), false],
  ['stategate.toolAliases in the nested spelling', BEFORE, BEFORE.replace('{', '{ "stategate": { "toolAliases": { "my_writer": "Read" } },'), false],
  ['stategate.store in a language override', BEFORE, BEFORE.replace('{', '{ "[json]": { "stategate.store": "postgres://x" },'), false],
  ['a workspace file\'s settings', '{ "folders": [], "settings": { "stategate.toolAliases": {} } }', '{ "folders": [], "settings": { "stategate.toolAliases": { "w": "Read" } } }', false],
  ['a workspace file\'s folders changed, stategate.* kept', '{ "folders": [], "settings": { "stategate.store": "" } }', '{ "folders": [{ "path": "." }], "settings": { "stategate.store": "" } }', true],
  ['a key that only starts like it', BEFORE, BEFORE.replace('{', '{ "stategateNotes.x": 1,'), true],
  ['a new file setting stategate.*', undefined, '{ "stategate.toolAliases": { "x": "Read" } }', false],
];
for (const [name, before, after, same] of rows) {
  test(`guarded settings: ${name} -> ${same ? 'unchanged' : 'changed'}`, () => assert.equal(hookSettingsUnchanged(before, after), same));
}

test('contentAfter: Write is its content; Edit and MultiEdit apply to the current text', () => {
  assert.equal(contentAfter({ kind: 'write', content: 'x' }, {}, 'old'), 'x');
  assert.equal(contentAfter({ kind: 'replace', oldText: 'a', newText: 'b' }, {}, 'xay'), 'xby');
  assert.equal(contentAfter({ kind: 'replace', oldText: '$&', newText: '$1' }, {}, 'x$&y'), 'x$1y', 'replacement text is literal');
  assert.equal(contentAfter({ kind: 'multi', edits: [{ oldText: 'a', newText: 'b' }, { oldText: 'b', newText: 'c' }] }, {}, 'a'), 'c');
  assert.equal(contentAfter({ kind: 'replace', oldText: 'a', newText: 'b' }, { replace_all: true }, 'aa'), 'bb');
});

test('contentAfter: what cannot be computed is undefined (the write is then denied)', () => {
  assert.equal(contentAfter({ kind: 'replace', oldText: 'a', newText: 'b' }, {}, 'aa'), undefined, 'ambiguous without replace_all');
  assert.equal(contentAfter({ kind: 'replace', oldText: 'zz', newText: 'b' }, {}, 'aa'), undefined, 'not found');
  assert.equal(contentAfter({ kind: 'replace', oldText: 'a', newText: 'b' }, {}, undefined), undefined, 'no file to edit');
  assert.equal(contentAfter({ kind: 'replace', oldText: '', newText: 'b' }, {}, 'a'), undefined);
  assert.equal(contentAfter({ kind: 'patch', patch: '*** Begin Patch' }, {}, 'a'), undefined);
  assert.equal(contentAfter({ kind: 'insert', code: 'x' }, {}, 'a'), undefined);
});
