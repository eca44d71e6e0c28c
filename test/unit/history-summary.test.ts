/** The history lines of the state panel name the agent client a tool call came from. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summary } from '../../webview/history-summary';

test('a denial and a result journaled with a client show it first; without one, the line is as before', () => {
  assert.equal(summary({ kind: 'tool_denied', at: '2026-11-28T20:00:00.000Z', seq: 1, tool: 'Bash', state: 'plan', reason: 'no', client: 'codex' }), '[codex] denied Bash in plan: no');
  assert.equal(summary({ kind: 'tool_result', at: '2026-11-28T20:00:00.000Z', seq: 2, tool: 'write_file', state: 'edit', file: 'a.ts', client: 'gemini' }), '[gemini] write_file in edit edited a.ts');
  assert.equal(summary({ kind: 'tool_denied', at: '2026-11-28T20:00:00.000Z', seq: 3, tool: 'Bash', state: 'plan', reason: 'no' }), 'denied Bash in plan: no');
});

test("a statechart's states are said by the diagram's names, not their dotted ids; unknown ids stand", () => {
  const names = new Map([['hotfix.investigating', 'investigating'], ['hotfix.patching.writing_test', 'writing_test'], ['hotfix.resume', 'hotfix (where it was)']]);
  const at = '2026-12-07T20:00:00.000Z';
  assert.equal(summary({ kind: 'transition', at, seq: 1, event: 'FOUND', from: 'hotfix.investigating', to: 'hotfix.patching.writing_test' }, names), 'FOUND: investigating → writing_test');
  assert.equal(summary({ kind: 'chart', at, seq: 2, op: 'start', transitioned: true, state: 'hotfix.investigating' } as never, names), 'statechart started: investigating');
  assert.equal(summary({ kind: 'chart', at, seq: 3, op: 'send', event: 'GO', transitioned: true, state: 'hotfix.investigating, hotfix.resume' } as never, names), 'send GO: investigating, hotfix (where it was)');
  assert.equal(summary({ kind: 'tool_denied', at, seq: 4, tool: 'Bash', state: 'plan', reason: 'no' }, names), 'denied Bash in plan: no');
});
