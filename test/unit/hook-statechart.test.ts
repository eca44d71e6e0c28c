/**
 * `stategate hook` on a statechart run, with Claude Code- and VS Code-shaped
 * inputs (test/fixtures/hooks/README.md): a parallel configuration where a
 * call is allowed by one region only, a denial naming the configuration and
 * the events that lead to where the call passes, the same call allowed after
 * the event that moves that region; the briefing per active state; an agent
 * write that fires the chart's root interrupt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, REPO_ROOT, type CliResult } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

/** Every call its own id, as clients send (two hooks answering one id are counted once: recent-calls.ts). */
let callSeq = 0;
const nextCallId = (): string => `call-${++callSeq}`;

const CHART = path.join(REPO_ROOT, 'test', 'fixtures', 'hooks', 'statechart', 'review.statechart.yaml');

type Client = 'vscode' | 'claude';

function started(t: { after(fn: () => void): void }): string {
  const cwd = tempDir('sg-hook-chart-', t);
  fs.copyFileSync(CHART, path.join(cwd, 'review.statechart.yaml'));
  fs.writeFileSync(path.join(cwd, 'a.ts'), 'a\n');
  assert.equal(cli(['run', 'start', 'review.statechart.yaml'], { cwd }).code, 0);
  return cwd;
}

function event(client: Client, cwd: string, name: string, extra: Record<string, unknown> = {}): string {
  const common =
    client === 'vscode'
      ? { hookEventName: name, sessionId: 'vs-chart', timestamp: '2026-11-25T14:00:00.000Z', cwd, transcript_path: '/tmp/t.json', tool_use_id: nextCallId() }
      : { hook_event_name: name, session_id: 'cc-chart', cwd, transcript_path: '/tmp/t.jsonl' };
  return JSON.stringify({ ...common, ...extra });
}

const TOOLS = {
  vscode: {
    read: (f: string) => ({ tool_name: 'read_file', tool_input: { filePath: f, startLine: 1, endLine: 20 } }),
    grep: (q: string) => ({ tool_name: 'grep_search', tool_input: { query: q, isRegexp: false } }),
    edit: (f: string) => ({ tool_name: 'replace_string_in_file', tool_input: { filePath: f, oldString: 'a', newString: 'b' } }),
    write: (f: string) => ({ tool_name: 'create_file', tool_input: { filePath: f, content: 'KEY=1\n' } }),
  },
  claude: {
    read: (f: string) => ({ tool_name: 'Read', tool_input: { file_path: f } }),
    grep: (q: string) => ({ tool_name: 'Grep', tool_input: { pattern: q } }),
    edit: (f: string) => ({ tool_name: 'Edit', tool_input: { file_path: f, old_string: 'a', new_string: 'b' } }),
    write: (f: string) => ({ tool_name: 'Write', tool_input: { file_path: f, content: 'KEY=1\n' } }),
  },
};

function hook(cwd: string, client: Client, stdin: string): CliResult {
  return cli(['hook', '--client', client], { cwd, input: stdin });
}

function decision(r: CliResult): string | undefined {
  return r.json?.hookSpecificOutput?.permissionDecision;
}

function configuration(cwd: string): string[] {
  return cli(['run', 'state'], { cwd }).json.configuration;
}

for (const client of ['vscode', 'claude'] as const) {
  const tools = TOOLS[client];

  test(`${client}: PreToolUse on a parallel configuration: allowed by one region only, denied with the way forward, allowed after the event`, (t) => {
    const cwd = started(t);
    const file = path.join(cwd, 'a.ts');
    // Read is allowed only in code.reading, Grep only in notes.searching: each passes on one region.
    const read = hook(cwd, client, event(client, cwd, 'PreToolUse', tools.read(file)));
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout, '', 'an allow leaves the client\'s own permissions in charge');
    const grep = hook(cwd, client, event(client, cwd, 'PreToolUse', tools.grep('TODO')));
    assert.equal(grep.code, 0, grep.stderr);
    assert.equal(grep.stdout, '');

    // An edit no active state allows: denied, naming the configuration and the event that leads to editing.
    const denied = hook(cwd, client, event(client, cwd, 'PreToolUse', tools.edit(file)));
    assert.equal(decision(denied), 'deny', denied.stdout + denied.stderr);
    const reason: string = denied.json.hookSpecificOutput.permissionDecisionReason;
    assert.match(reason, /is not allowed in any active state \(configuration: review\.code\.reading, review\.notes\.searching\)/);
    assert.match(reason, /CHANGES_REQUESTED \(-> review\.code\.editing\)/);
    // WebFetch is denied by the parallel state around both regions: no event helps.
    const fetch = hook(cwd, client, event(client, cwd, 'PreToolUse', { tool_name: client === 'vscode' ? 'fetch_webpage' : 'WebFetch', tool_input: { url: 'http://example.invalid' } }));
    assert.equal(decision(fetch), 'deny');

    // The event moves the code region only; the edit is allowed now, the notes region still allows Grep.
    assert.equal(cli(['run', 'send', 'CHANGES_REQUESTED'], { cwd }).code, 0);
    assert.deepEqual(configuration(cwd), ['review.code.editing', 'review.notes.searching']);
    const allowed = hook(cwd, client, event(client, cwd, 'PreToolUse', tools.edit(file)));
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stdout, '');
    assert.equal(hook(cwd, client, event(client, cwd, 'PreToolUse', tools.grep('TODO'))).stdout, '');
  });

  test(`${client}: SessionStart briefs the configuration, each active state's rules, the events and the agent's task`, (t) => {
    const cwd = started(t);
    const r = hook(cwd, client, event(client, cwd, 'SessionStart'));
    const text: string = r.json.hookSpecificOutput.additionalContext;
    assert.match(text, /statechart "hook_review" is in configuration review\.code\.reading \| review\.notes\.searching/);
    assert.match(text, /In "review\.code\.reading":\n {2}Instructions: Read the diff\.\n {2}Allowed tools: Read; never: WebFetch\./);
    assert.match(text, /In "review\.notes\.searching":\n {2}Allowed tools: Grep; never: WebFetch\./);
    assert.match(text, /- CHANGES_REQUESTED \(in review\.code\.reading\) → review\.code\.editing/);
    assert.match(text, /- summary_task for agent "stategate" \(state review\.notes\.searching\), input: \{"topic":"release notes"\}/);
    assert.match(text, /stategate_invocation_done/);
  });

  test(`${client}: PostToolUse of a write matching the root interrupt moves the chart and tells the agent`, (t) => {
    const cwd = started(t);
    assert.equal(cli(['run', 'send', 'CHANGES_REQUESTED'], { cwd }).code, 0);
    const write = tools.write(path.join(cwd, '.env.local'));
    const r = hook(cwd, client, event(client, cwd, 'PostToolUse', { ...write, tool_response: client === 'vscode' ? 'created' : { filePath: path.join(cwd, '.env.local') } }));
    assert.equal(r.code, 0, r.stderr);
    const text = r.stdout;
    assert.match(text, /\[STATEWRIGHT INTERRUPT\] Writing \.env\.local fired interrupt \\"secrets\\": the workflow moved from \\"review\.code\.editing \| review\.notes\.searching\\" to \\"secrets_check\\"/);
    assert.match(text, /send one of the events listed below/);
    assert.deepEqual(configuration(cwd), ['secrets_check']);
  });
}

test('Stop in a non-final configuration names it and the events left', (t) => {
  const cwd = started(t);
  const r = hook(cwd, 'claude', event('claude', cwd, 'Stop'));
  assert.match(r.json.systemMessage, /still in configuration review\.code\.reading \| review\.notes\.searching \(not final\)\. Events left: CHANGES_REQUESTED → review\.code\.editing/);
});

test('a region in its final state allows nothing: the other region\'s rules decide, and no event is offered toward a final state', (t) => {
  const cwd = started(t);
  assert.equal(cli(['run', 'done', 'summary_task'], { cwd }).code, 0);
  assert.deepEqual(configuration(cwd), ['review.code.reading', 'review.notes.summarised']);
  const edit = hook(cwd, 'claude', event('claude', cwd, 'PreToolUse', TOOLS.claude.edit(path.join(cwd, 'a.ts'))));
  assert.equal(decision(edit), 'deny', edit.stdout + edit.stderr);
  assert.match(edit.json.hookSpecificOutput.permissionDecisionReason, /Events that lead to a configuration where it is allowed: CHANGES_REQUESTED \(-> review\.code\.editing\)\.$/);
  assert.equal(decision(hook(cwd, 'claude', event('claude', cwd, 'PreToolUse', TOOLS.claude.grep('TODO')))), 'deny', 'Grep was the finished region\'s');
});
