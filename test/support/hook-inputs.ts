/**
 * A hook's PreToolUse input for a Read of `a.txt` in `cwd`, in the shape each
 * client sends: Claude Code's (snake_case, `Read`) or VS Code's agent hooks'
 * (camelCase event fields, `read_file`). Used by the shared-store tests.
 */
import * as path from 'node:path';

export type HookClient = 'claude' | 'vscode';

export function preToolUseRead(client: HookClient, cwd: string, callId: string): string {
  const file = path.join(cwd, 'a.txt');
  return client === 'vscode'
    ? JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 'vs', timestamp: '2026-11-28T20:00:00.000Z', cwd, transcript_path: '/tmp/t.json', tool_use_id: callId, tool_name: 'read_file', tool_input: { filePath: file, startLine: 1, endLine: 2 } })
    : JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'cc', cwd, transcript_path: '/tmp/t.jsonl', tool_use_id: callId, tool_name: 'Read', tool_input: { file_path: file } });
}
