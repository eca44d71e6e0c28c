/**
 * Gating on statecharts through the CLI (`run tool`, `hook`): effective rules
 * narrowed by ancestors, the union across parallel regions, and a denial that
 * names the configuration and the events leading to where the call is allowed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, REPO_ROOT } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'statecharts', 'policy', 'gated.statechart.yaml');

function started(t: { after(fn: () => void): void }): string {
  const cwd = tempDir('sg-chart-policy-', t);
  fs.copyFileSync(FIXTURE, path.join(cwd, 'gated.statechart.yaml'));
  fs.writeFileSync(path.join(cwd, 'a.txt'), 'a\n');
  assert.equal(cli(['run', 'start', 'gated.statechart.yaml'], { cwd }).code, 0);
  return cwd;
}

function tool(cwd: string, name: string, input: object = {}): { decision: string; reason?: string; state: string; counted: boolean } {
  const r = cli(['run', 'tool', name, '--input', JSON.stringify(input)], { cwd });
  assert.ok(r.json, r.stderr);
  return r.json;
}

test('parallel regions: a call is allowed when one active state allows it, and decided by that state', (t) => {
  const cwd = started(t);
  const file = { file_path: path.join(cwd, 'a.txt') };
  assert.deepEqual([tool(cwd, 'Read', file).decision, tool(cwd, 'Read', file).state], ['allow', 'work.code.reading']);
  // Glob is allowed only in the docs region's state.
  const glob = tool(cwd, 'Glob', { pattern: '*.txt' });
  assert.equal(glob.decision, 'allow');
  assert.equal(glob.state, 'work.docs.drafting');
});

test('ancestors narrow: a deny on the parallel state wins over the region that allows the tool', (t) => {
  const cwd = started(t);
  const r = tool(cwd, 'WebFetch', { url: 'http://example.invalid' });
  assert.equal(r.decision, 'deny');
  assert.match(r.reason ?? '', /configuration: work\.code\.reading, work\.docs\.drafting/);
  assert.match(r.reason ?? '', /No event of the active states leads/);
});

test('the denial names the configuration and the events that lead to where the call is allowed', (t) => {
  const cwd = started(t);
  const edit = { file_path: path.join(cwd, 'a.txt'), old_string: 'a', new_string: 'b' };
  const denied = tool(cwd, 'Edit', edit);
  assert.equal(denied.decision, 'deny');
  assert.match(denied.reason ?? '', /Edit is not allowed in any active state \(configuration: work\.code\.reading, work\.docs\.drafting\)/);
  assert.match(denied.reason ?? '', /START_EDIT \(-> work\.code\.editing\)/);
  assert.doesNotMatch(denied.reason ?? '', /FINISH/);
  assert.match(tool(cwd, 'Bash', { command: 'git push' }).reason ?? '', /FINISH \(-> shipping\)/);
  assert.equal(cli(['run', 'send', 'START_EDIT'], { cwd }).code, 0);
  const allowed = tool(cwd, 'Edit', edit);
  assert.equal(allowed.decision, 'allow');
  assert.equal(allowed.state, 'work.code.editing');
  assert.equal(allowed.counted, true);
});

test('hook (Claude Code PreToolUse) denies with the same message on a statechart run', (t) => {
  const cwd = started(t);
  const input = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'cc-1',
    cwd,
    transcript_path: '/tmp/t.jsonl',
    tool_name: 'Edit',
    tool_input: { file_path: path.join(cwd, 'a.txt'), old_string: 'a', new_string: 'b' },
  });
  const r = cli(['hook', '--client', 'claude'], { cwd, input });
  const text = r.stdout + r.stderr;
  assert.ok(r.code === 2 || /"permissionDecision":\s*"deny"/.test(r.stdout), `expected a denial, got exit ${r.code}: ${text}`);
  assert.match(text, /START_EDIT \(-> work\.code\.editing\)/);
  const read = cli(['hook', '--client', 'claude'], { cwd, input: input.replace('"Edit"', '"Read"') });
  assert.equal(read.code, 0, read.stderr);
  assert.doesNotMatch(read.stdout, /"deny"/);
});

test('the per-state counters start again when a state is exited, and stay while the configuration does not change', (t) => {
  const cwd = started(t);
  const file = { file_path: path.join(cwd, 'a.txt') };
  tool(cwd, 'Read', file);
  tool(cwd, 'Read', file);
  const usage = (): number => cli(['run', 'state'], { cwd }).json.usage.iterations;
  assert.equal(usage(), 2);
  assert.equal(cli(['run', 'send', 'NOT_HANDLED'], { cwd }).json.transitioned, false);
  assert.equal(usage(), 2);
  assert.equal(cli(['run', 'send', 'START_EDIT'], { cwd }).json.transitioned, true);
  assert.equal(usage(), 0);
});

test('allowed_commands narrow by ancestors: a command must match at every level that lists commands', (t) => {
  const cwd = tempDir('sg-chart-commands-', t);
  fs.copyFileSync(path.join(path.dirname(FIXTURE), 'commands.statechart.yaml'), path.join(cwd, 'commands.statechart.yaml'));
  assert.equal(cli(['run', 'start', 'commands.statechart.yaml'], { cwd }).code, 0);
  assert.equal(tool(cwd, 'Bash', { command: 'git tag v1' }).decision, 'allow');
  // Allowed by the state's own list, not by its parent's.
  const publish = tool(cwd, 'Bash', { command: 'npm publish' });
  assert.equal(publish.decision, 'deny');
  assert.match(publish.reason ?? '', /allowed_commands of 'release'/);
  // Allowed by the parent's list, not by the state's own.
  assert.equal(tool(cwd, 'Bash', { command: 'git push' }).decision, 'deny');
});
