/**
 * A decision within the client's time (src/engine/store/deadline.ts,
 * src/cli/hook-deadline.ts): with a shared store that accepts connections and
 * never answers, the hook denies, names the bound that ran out, and reads the
 * run once (one connection to the store, not one per read). A huge
 * `.vscode/settings.json` still gets a decision. Times are measured and
 * reported (t.diagnostic), never asserted: the machine is shared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliAsync, cli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { HOOK_BOUND_MS, HOOK_TIMEOUT_S, hookBoundMs } from '../../src/engine/clients/hook-install';
import { mergeClaudeSettings, vscodeHookFile } from '../../src/engine/clients/hook-install';
import { copilotHookFile, mergeCodexHooks, mergeCursorHooks, mergeGeminiSettings } from '../../src/engine/clients/client-configs';

type Owner = { after(fn: () => unknown): unknown };

/** A server on loopback that accepts every connection and never answers; counts the connections. */
async function silentStore(t: Owner): Promise<{ port: number; connections: () => number }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return { port: (server.address() as net.AddressInfo).port, connections: () => sockets.length };
}

function workspace(t: Owner): string {
  const cwd = tempDir('sg-deadline-', t);
  spawnSync('git', ['init', '-q'], { cwd });
  spawnSync('git', ['remote', 'add', 'origin', 'https://github.com/team/repo'], { cwd });
  return cwd;
}

const INPUTS: Record<string, (cwd: string) => object> = {
  'Claude Code': (cwd) => ({ session_id: 's1', transcript_path: '', cwd, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: 'a.txt' }, tool_use_id: 'toolu_1' }),
  'VS Code': (cwd) => ({ hookEventName: 'PreToolUse', sessionId: 's1', timestamp: '2026-12-07T00:00:00Z', cwd, tool_name: 'read_file', tool_input: { filePath: 'a.txt' }, tool_use_id: 'call_1' }),
};

const CASES: { name: string; storeTimeoutMs: number; boundMs?: number; reason: RegExp }[] = [
  // The store's own timeout is past the hook's bound: the bound decides, and the reason names it.
  { name: 'the bound runs out before the store timeout', storeTimeoutMs: 60_000, boundMs: 1500, reason: /within the \d+ ms left of this process's 1500 ms bound|within its bound of 1500 ms/ },
  // The store timeout is inside the bound: it decides, once (not once per read).
  { name: 'the store timeout, inside the bound', storeTimeoutMs: 1000, reason: /did not answer reading the active run within 1000 ms/ },
];

for (const c of CASES) {
  for (const [client, input] of Object.entries(INPUTS)) {
    test(`hook deadline (${client}): ${c.name}: denied, saying why, after one read of the run`, async (t) => {
      const store = await silentStore(t);
      const cwd = workspace(t);
      const env: Record<string, string> = {
        // No connect_timeout in the URL: the driver's is derived from the store timeout, as for a team's URL.
        STATEGATE_STORE_URL: `postgres://stategate@127.0.0.1:${store.port}/team`,
        STATEGATE_STORE_TIMEOUT_MS: String(c.storeTimeoutMs),
        STATEGATE_PROJECT: '',
        ...(c.boundMs ? { STATEGATE_HOOK_BOUND_MS: String(c.boundMs) } : {}),
      };
      const started = Date.now();
      const r = await cliAsync(['hook', ...(client === 'Claude Code' ? ['--client', 'claude'] : [])], { cwd, env, input: JSON.stringify(input(cwd)) });
      const elapsed = Date.now() - started;
      t.diagnostic(`${client}, ${c.name}: answered in ${elapsed} ms (store timeout ${c.storeTimeoutMs} ms, bound ${c.boundMs ?? HOOK_BOUND_MS} ms), ${store.connections()} connection(s)`);
      // Denied either way: by the decision (exit 0 and the deny answer) or by the deadline (fail closed, exit 2).
      assert.ok(r.code === 0 || r.code === 2, r.stdout + r.stderr);
      const reason = r.json?.hookSpecificOutput?.permissionDecisionReason as string;
      assert.equal(r.json?.hookSpecificOutput?.permissionDecision, 'deny', r.stdout);
      assert.match(reason, c.reason);
      assert.doesNotMatch(reason, /internal error/);
      assert.equal(store.connections(), 1, 'the run is read once: one connection to the store');
    });
  }
}

test('hook deadline: STATEGATE_HOOK_BOUND_MS only lowers the bound', () => {
  assert.equal(hookBoundMs({}), HOOK_BOUND_MS);
  assert.equal(hookBoundMs({ STATEGATE_HOOK_BOUND_MS: '1500' }), 1500);
  assert.equal(hookBoundMs({ STATEGATE_HOOK_BOUND_MS: '600000' }), HOOK_BOUND_MS);
  assert.equal(hookBoundMs({ STATEGATE_HOOK_BOUND_MS: 'soon' }), HOOK_BOUND_MS);
  assert.ok(HOOK_BOUND_MS < HOOK_TIMEOUT_S * 1000, 'the bound is below the timeout enable writes');
});

// Every client's entries carry the timeout the bound assumes (seconds; Gemini's in milliseconds).
const RT = { execPath: '/usr/bin/node', extensionPath: '/ext', platform: 'linux' as const };
const LAUNCH = { hook: (client: string) => `node /ext/dist/cli.js hook --client ${client}`, mcp: { command: 'node', args: ['/ext/dist/cli.js', 'mcp'], env: {} } } as never;
const TIMEOUTS: { client: string; entries: () => unknown[]; read: (entry: any) => number | undefined }[] = [
  { client: 'VS Code', entries: () => Object.values((vscodeHookFile(RT) as any).hooks).flat(), read: (e) => e.timeout },
  { client: 'Claude Code', entries: () => Object.values((mergeClaudeSettings(undefined, RT) as any).hooks).flatMap((g: any) => g.flatMap((m: any) => m.hooks)), read: (e) => e.timeout },
  { client: 'Codex', entries: () => Object.values(JSON.parse(mergeCodexHooks(undefined, LAUNCH)).hooks).flatMap((g: any) => g.flatMap((m: any) => m.hooks)), read: (e) => e.timeout },
  { client: 'Gemini CLI', entries: () => Object.values(JSON.parse(mergeGeminiSettings(undefined, LAUNCH)).hooks).flatMap((g: any) => g.flatMap((m: any) => m.hooks)), read: (e) => e.timeout / 1000 },
  { client: 'Copilot CLI', entries: () => Object.values((copilotHookFile(LAUNCH) as any).hooks).flat(), read: (e) => e.timeoutSec },
  { client: 'Cursor', entries: () => Object.values(JSON.parse(mergeCursorHooks(undefined, LAUNCH)).hooks).flat(), read: (e) => e.timeout },
];

for (const c of TIMEOUTS) {
  test(`hook deadline: ${c.client}'s hook entries wait ${HOOK_TIMEOUT_S} s, above the bound`, () => {
    const entries = c.entries();
    assert.ok(entries.length > 0);
    for (const e of entries) assert.equal(c.read(e), HOOK_TIMEOUT_S, JSON.stringify(e));
  });
}

/** A settings file nested `depth` levels, `width` keys a level: the shape whose walk was quadratic. */
function deepSettings(depth: number, width: number): string {
  const leaf = Object.fromEntries(Array.from({ length: width }, (_, i) => [`setting${i}`, i]));
  let s = JSON.stringify(leaf);
  const tail = JSON.stringify(leaf).slice(1);
  for (let i = 0; i < depth; i++) s = `{"level${i}":${s},${tail}`;
  return s;
}

const HUGE: { name: string; text: () => string; edit: { old_string: string; new_string: string }; expect: 'allow' | 'deny' }[] = [
  // 5.4 MB, 2,300 levels: the old walk copied the key path at every key (7 s here, tens of seconds on a slower machine).
  { name: '5.4 MB nested 2,300 levels, an edit that keeps the hook settings', text: () => deepSettings(2300, 150), edit: { old_string: '"level0"', new_string: '"levelZero"' }, expect: 'allow' },
  // Past MAX_SETTINGS_CHARS the file is not parsed: the write is denied (its result cannot be checked in time).
  { name: '9 MB, past what is parsed in time', text: () => deepSettings(2200, 250), edit: { old_string: '"level0"', new_string: '"levelZero"' }, expect: 'deny' },
  // Nested past what the parser's stack takes: denied as a file whose result cannot be checked, not an internal error.
  { name: 'nested 20,000 levels', text: () => `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, edit: { old_string: '1', new_string: '2' }, expect: 'deny' },
];

for (const c of HUGE) {
  test(`hook deadline: a huge .vscode/settings.json (${c.name}) gets a decision: ${c.expect}`, async (t) => {
    const cwd = tempDir('sg-deadline-', t);
    fs.mkdirSync(path.join(cwd, '.vscode'));
    fs.writeFileSync(path.join(cwd, '.vscode', 'settings.json'), c.text());
    fs.writeFileSync(path.join(cwd, 'w.workflow.json'), JSON.stringify({ id: 'w', initial: 'work', states: { work: { allowed_tools: ['Read', 'Edit'], on: { DONE: 'done' } }, done: { type: 'final' } } }));
    assert.equal(cli(['run', 'start', 'w.workflow.json'], { cwd }).code, 0);
    const input = { session_id: 's1', transcript_path: '', cwd, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(cwd, '.vscode', 'settings.json'), ...c.edit }, tool_use_id: 'toolu_1' };
    const started = Date.now();
    const r = await cliAsync(['hook', '--client', 'claude'], { cwd, input: JSON.stringify(input) });
    t.diagnostic(`${c.name}: ${c.expect} in ${Date.now() - started} ms`);
    if (c.expect === 'allow') {
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.notEqual(r.json?.hookSpecificOutput?.permissionDecision, 'deny', r.stdout);
    } else {
      const reason = String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? '');
      assert.equal(r.json?.hookSpecificOutput?.permissionDecision, 'deny', r.stdout + r.stderr);
      assert.match(reason, /settings\.json/);
      assert.doesNotMatch(reason, /internal error|Maximum call stack/);
    }
  });
}
