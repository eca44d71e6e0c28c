/** The history lines of the state panel name the agent client a tool call came from. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summary } from '../../webview/history-summary';

test('a denial and a result journaled with a client show it first; without one, the line is as before', () => {
  assert.equal(summary({ kind: 'tool_denied', at: '2026-11-28T20:00:00.000Z', seq: 1, tool: 'Bash', state: 'plan', reason: 'no', client: 'codex' }), '[codex] denied Bash in plan: no');
  assert.equal(summary({ kind: 'tool_result', at: '2026-11-28T20:00:00.000Z', seq: 2, tool: 'write_file', state: 'edit', file: 'a.ts', client: 'gemini' }), '[gemini] write_file in edit edited a.ts');
  assert.equal(summary({ kind: 'tool_denied', at: '2026-11-28T20:00:00.000Z', seq: 3, tool: 'Bash', state: 'plan', reason: 'no' }), 'denied Bash in plan: no');
});
