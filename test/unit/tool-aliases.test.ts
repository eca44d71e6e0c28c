/**
 * `.stategate/tool-aliases.json` (the `stategate.toolAliases` setting for
 * processes outside VS Code): read by every decision the Runner makes, so the
 * hook and the CLI map the same extra tool ids as the participant.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readToolAliases, writeToolAliases } from '../../src/engine/policy/tool-aliases-file';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const WORKFLOW = {
  id: 'aliases',
  initial: 'reading',
  states: {
    reading: { allowed_tools: ['Read'], on: { NEXT: 'open' } },
    open: { disallowed_tools: ['Write'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

function workspace(aliases?: string): string {
  const cwd = tempDir('sg-aliases-');
  fs.writeFileSync(path.join(cwd, 'aliases.workflow.json'), JSON.stringify(WORKFLOW));
  assert.equal(cli(['run', 'start', 'aliases.workflow.json'], { cwd }).code, 0);
  if (aliases !== undefined) fs.writeFileSync(path.join(cwd, '.stategate', 'tool-aliases.json'), aliases);
  return cwd;
}

function decision(cwd: string, tool: string): { decision: string; reason?: string } {
  const r = cli(['run', 'tool', tool, '--input', '{"path":"a.txt"}'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  return r.json as { decision: string; reason?: string };
}

test('an aliased reader counts as Read in a Read-only state; without the file it is an unknown tool', () => {
  assert.equal(decision(workspace('{"my_reader": "Read"}'), 'my_reader').decision, 'allow');
  assert.equal(decision(workspace(), 'my_reader').decision, 'deny');
});

test('an aliased writer is caught by disallowed_tools: Write', () => {
  const cwd = workspace('{"my_writer": "Write"}');
  assert.equal(cli(['run', 'send', 'NEXT'], { cwd }).code, 0);
  const d = decision(cwd, 'my_writer');
  assert.equal(d.decision, 'deny');
  assert.match(d.reason ?? '', /disallowed_tools/);
});

const broken: Array<[what: string, text: string, reason: RegExp]> = [
  ['not JSON', '{"my_writer": ', /is not valid JSON/],
  ['an array', '["Write"]', /must be an object of tool id → tool name strings/],
  ['a non-string name', '{"my_writer": 1}', /must be an object/],
];
for (const [what, text, reason] of broken) {
  test(`a tool-aliases.json that is ${what} denies every call, saying which file and why (fail closed)`, () => {
    const cwd = workspace(text);
    assert.equal(cli(['run', 'send', 'NEXT'], { cwd }).code, 0);
    // In `open` only Write is forbidden: ignoring the file would let an aliased writer through.
    const d = decision(cwd, 'my_writer');
    assert.equal(d.decision, 'deny');
    assert.match(d.reason ?? '', /tool-aliases\.json/);
    assert.match(d.reason ?? '', reason);
  });
}

test('the hook reads the same file', () => {
  const cwd = workspace('{"my_reader": "Read"}');
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'my_reader', tool_input: { path: 'a.txt' } });
  const r = cli(['hook'], { cwd, input });
  assert.equal(r.code, 0, r.stderr);
  assert.notEqual(r.json?.hookSpecificOutput?.permissionDecision, 'deny');
  const other = cli(['hook'], { cwd, input: input.replace('my_reader', 'their_reader') });
  assert.equal(other.json?.hookSpecificOutput?.permissionDecision, 'deny');
});

test('writeToolAliases writes only on change and removes the file when there are no aliases', () => {
  const dir = tempDir('sg-aliases-w-');
  assert.equal(writeToolAliases(dir, undefined), false, 'nothing to remove');
  assert.equal(writeToolAliases(dir, { a: 'Read' }), true);
  assert.equal(writeToolAliases(dir, { a: 'Read' }), false, 'unchanged');
  assert.deepEqual(readToolAliases(dir), { ok: true, aliases: { a: 'Read' } });
  assert.equal(writeToolAliases(dir, undefined), true);
  assert.equal(fs.existsSync(path.join(dir, 'tool-aliases.json')), false);
  assert.deepEqual(readToolAliases(dir), { ok: true });
});

test('empty names and ids are dropped when read', () => {
  const dir = tempDir('sg-aliases-r-');
  fs.writeFileSync(path.join(dir, 'tool-aliases.json'), '{"": "Read", "x": "", "y": "Write"}');
  assert.deepEqual(readToolAliases(dir), { ok: true, aliases: { y: 'Write' } });
});
