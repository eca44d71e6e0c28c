/**
 * A stage's completion tool passes the stage's tool envelope (it is how the
 * stage ends), so only stategate's own spelling of it may pass (issue 29:
 * "any MCP server's statewright_* look-alike is taken for stategate's own").
 * A hook client's bare `submit_plan` is a tool of that client's own (an
 * OpenCode custom tool the agent wrote, say): it is decided by the stage's
 * rules. Each client's spelling of stategate's server passes; VS Code's bare
 * name (its language-model tool) passes; another server's tool of that name
 * does not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { completionToolCalled } from '../../src/engine/pipeline/completion-call';

const WORKFLOW = {
  id: 'plan-only',
  initial: 'plan',
  states: {
    plan: {
      prompt: 'Plan it.',
      allowed_tools: ['Read'],
      completion_tool: 'submit_plan',
      completion_schema: { type: 'object', properties: { steps: { type: 'array' } }, required: ['steps'] },
      on: { submit_plan: 'done' },
    },
    done: { type: 'final' },
  },
};

type Client = 'claude' | 'vscode' | 'codex' | 'gemini' | 'copilot' | 'opencode';
const ROWS: readonly [Client, string, boolean][] = [
  ['claude', 'mcp__stategate__submit_plan', true],
  ['claude', 'submit_plan', false],
  ['claude', 'mcp__evil__submit_plan', false],
  ['vscode', 'submit_plan', true],
  ['vscode', 'mcp_stategate_submit_plan', true],
  ['vscode', 'mcp__evil__submit_plan', false],
  ['codex', 'mcp__stategate__submit_plan', true],
  ['codex', 'submit_plan', false],
  ['copilot', 'stategate-submit_plan', true],
  ['copilot', 'submit_plan', false],
  ['copilot', 'evil-submit_plan', false],
  ['opencode', 'stategate_submit_plan', true],
  ['opencode', 'submit_plan', false],
];

function ask(cwd: string, client: Client, tool: string): boolean {
  const input = { steps: ['a'] };
  if (client === 'copilot') {
    const r = cli(['hook', '--client', 'copilot', '--event', 'preToolUse'], { cwd, input: JSON.stringify({ timestamp: 1, cwd, toolName: tool, toolArgs: JSON.stringify(input) }) });
    return r.code === 0 && r.stdout === '';
  }
  if (client === 'opencode') {
    const r = cli(['hook', '--client', 'opencode'], { cwd, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: tool, tool_input: input }) });
    return r.code === 0 && r.json?.decision === 'allow';
  }
  const body = client === 'vscode' ? { hookEventName: 'PreToolUse', sessionId: 's', cwd, tool_name: tool, tool_input: input } : { hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: tool, tool_input: input };
  const r = cli(['hook', '--client', client], { cwd, input: JSON.stringify(body) });
  if (client === 'codex') return r.code === 0 && r.stdout.trim() === '';
  // A look-alike is outside the stage's tools: denied, or (Claude Code, VS Code) put to the person with "ask". Neither passes.
  const decision = r.json?.hookSpecificOutput?.permissionDecision;
  return r.code === 0 && decision !== 'deny' && decision !== 'ask';
}

for (const [client, tool, passes] of ROWS) {
  test(`${client}: ${tool} ${passes ? 'passes as the stage\'s completion tool' : 'is decided by the stage\'s rules (denied, or asked of the person)'}`, () => {
    const cwd = tempDir('sg-completion-alike-');
    try {
      fs.writeFileSync(path.join(cwd, 'p.workflow.json'), JSON.stringify(WORKFLOW));
      assert.equal(cli(['run', 'start', 'p.workflow.json'], { cwd }).code, 0);
      assert.equal(ask(cwd, client, tool), passes);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
}

test('completionToolCalled: bare names only where they are stategate\'s', () => {
  assert.equal(completionToolCalled('submit_plan', ['submit_plan']), 'submit_plan');
  assert.equal(completionToolCalled('submit_plan', ['submit_plan'], false), undefined);
  assert.equal(completionToolCalled('mcp_stategate_submit_plan', ['submit_plan'], false), 'submit_plan');
  assert.equal(completionToolCalled('stategate/submit_plan', ['submit_plan'], false), 'submit_plan');
  assert.equal(completionToolCalled('mcp__other__submit_plan', ['submit_plan']), undefined);
});
