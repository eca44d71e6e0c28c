// The real Claude Code CLI (2.1.330, setup-claude.sh) under the stategate
// hook, with the sandbox on (src/engine/sandbox/): the hook answers an allowed
// Bash call with `hookSpecificOutput.updatedInput` (the command wrapped in
// bubblewrap) and no permissionDecision. What this proves, with a scripted
// model (fake-anthropic.ts) on loopback:
//
// 1. Claude Code runs the rewritten command: a script the state's
//    allowed_commands let through (`node attack.js`) tries to write the run's
//    files, `.claude/settings.local.json` (which would switch the hook off) and
//    a file outside the workspace; every write fails, the files are
//    byte-identical, and a write inside the workspace lands. (`--allowedTools
//    Bash`: the person allowed Bash, so no prompt stands in the way.)
// 2. The rewrite does not approve the call: without that allow rule, Claude
//    Code's own permission check runs on the rewritten command and, in `-p`
//    mode where nobody can answer a prompt, refuses it; the script never runs.
//
// Beside stategate's hook runs "the person's own" PreToolUse hook (claude-session.ts,
// which prints nothing): the rewrite survives a second hook.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { assertRan, claudeSession } from './claude-session';
import { bwrapOrSkip } from '../unit/helpers/sandbox';
import { tempDir } from '../unit/helpers/temp-dir';

const WORKFLOW = {
  id: 'sandboxed',
  initial: 'build',
  states: {
    build: { allowed_tools: ['Read', 'Write', 'Edit', 'Bash'], allowed_commands: ['node'], on: { DONE: 'done' } },
    done: { type: 'final' },
  },
};

const ATTACK = `
const fs = require('fs');
const out = {};
for (const f of JSON.parse(process.argv[2])) {
  try { fs.writeFileSync(f, 'pwned'); out[f] = 'OK'; } catch (e) { out[f] = e.code; }
}
try { fs.rmSync('.stategate', { recursive: true, force: true }); out.rm = 'OK'; } catch (e) { out.rm = e.code; }
console.log('ATTACK ' + JSON.stringify(out));
`;

test('Claude Code runs the sandboxed command stategate hands back, and still asks the person', { timeout: 600_000 }, async (t: TestContext) => {
  if (!bwrapOrSkip(t)) return;
  const s = await claudeSession(t, WORKFLOW);
  if (!s) return;
  fs.writeFileSync(path.join(s.ws, 'attack.js'), ATTACK);
  // Outside /tmp (whose view inside is private and empty).
  const outside = fs.realpathSync(tempDir('sg-cc-outside-', t, fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir()));
  fs.writeFileSync(path.join(outside, 'notes.txt'), 'mine\n');
  const active = path.join(s.ws, '.stategate', 'active');
  const settings = path.join(s.ws, '.claude', 'settings.local.json');
  const inside = path.join(s.ws, 'inside.txt');
  const targets = [active, settings, path.join(outside, 'notes.txt'), inside];
  const command = `node attack.js '${JSON.stringify(targets)}'`;

  // --- 1: allowed by the person (--allowedTools Bash): runs, inside the sandbox ---
  s.model.turns = [{ type: 'tool_use', name: 'Bash', input: { command, description: 'run the script' } }];
  const before = new Map([active, settings, path.join(outside, 'notes.txt')].map((f) => [f, fs.readFileSync(f)]));
  const first = await s.run('run the script', ['--allowedTools', 'Bash']);
  const results = s.model.results(0);

  await t.test('the call ran, and the tool result is the sandboxed script\'s', () => {
    assertRan(first);
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.equal(results[0]!.is_error, false, results[0]!.text);
    const line = results[0]!.text.split('\n').find((l) => l.startsWith('ATTACK '));
    assert.ok(line, `the script ran: ${results[0]!.text}`);
    const got = JSON.parse(line.slice('ATTACK '.length)) as Record<string, string>;
    assert.equal(got[active], 'EROFS');
    assert.equal(got[settings], 'EROFS');
    assert.notEqual(got[path.join(outside, 'notes.txt')], 'OK');
    assert.equal(got[inside], 'OK');
    assert.ok(got['rm'] !== undefined && got['rm'] !== 'OK', `the script could not delete .stategate/ (the adversary test deletes it with the sandbox off): ${got['rm']}`);
    assert.ok(fs.existsSync(active), '.stategate/ is still there');
  });

  await t.test('the gate files and the file outside are byte-identical; the workspace write landed', () => {
    // The hook's own PostToolUse bookkeeping changes run.json, not `active` or the settings.
    for (const [f, bytes] of before) assert.deepEqual(fs.readFileSync(f), bytes, f);
    assert.equal(fs.readFileSync(inside, 'utf8'), 'pwned');
  });

  await t.test('Claude Code handed the hook the agent\'s own command (the rewrite happens after the hooks)', () => {
    const pre = s.hookInputs().filter((h) => h.hook_event_name === 'PreToolUse' && h.tool_name === 'Bash');
    assert.equal(pre.length, 1);
    assert.equal((pre[0]!['tool_input'] as { command: string }).command, command);
    const post = s.hookInputs().filter((h) => h.hook_event_name === 'PostToolUse' && h.tool_name === 'Bash');
    t.diagnostic(`PostToolUse tool_input.command: ${(post[0]?.['tool_input'] as { command?: string } | undefined)?.command?.slice(0, 60)}`);
  });

  // --- 2: no allow rule: Claude Code's own permission check still stands -----------
  fs.rmSync(inside);
  const mainBefore = s.model.main.length;
  s.model.turns = [{ type: 'tool_use', name: 'Bash', input: { command, description: 'run the script' } }];
  const second = await s.run('run the script again');
  const refused = s.model.results(mainBefore);

  await t.test('without the person\'s allow rule the rewritten call is not approved by the hook: -p refuses it', () => {
    assertRan(second);
    assert.equal(refused.length, 1, JSON.stringify(refused));
    t.diagnostic(`Claude Code's answer: ${refused[0]!.text}`);
    assert.equal(refused[0]!.is_error, true, `the call needed the person's approval: ${refused[0]!.text}`);
    assert.doesNotMatch(refused[0]!.text, /ATTACK/);
    assert.ok(!fs.existsSync(inside), 'the script did not run');
  });
});
