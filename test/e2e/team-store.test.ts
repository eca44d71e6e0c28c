// One run shared through a real PostgreSQL server (issue 20), seen from the
// real VS Code: VS Code's `stategate.store` user setting names the server;
// a second clone of the same repository (same git remote, its own
// `.stategate/`, another "machine") moves the run with the CLI, and the panel
// and the status bar follow with no reload; an approval-gated transition the
// other clone asks for is parked until Approve is clicked in VS Code's panel,
// and the other clone then sees the moved run; after VS Code's sessions are
// ended by the server (pg_terminate_backend) while it cannot log in, the panel
// catches up on what the other clone did meanwhile, reading the journal on
// from the last sequence number it had.
//
// While VS Code cannot log in, its status bar says so (the store's health);
// a store that does not answer at all shows the same way, and nothing falls
// back to the workspace's files.
//
// The server is the suite's (test/support/postgres-server.ts: the one
// STATEGATE_TEST_PG_URL names, else one started for this process by
// scripts/with-postgres.mjs), a database of its own per test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import postgres from 'postgres';
import { REPO_ROOT, type VsCode, waitUntil, withVsCode } from './harness';
import { tempDir } from '../unit/helpers/temp-dir';
import { TEST_STATE_DIR } from '../unit/helpers/state-dir';
import { storePointerFile } from '../../src/engine/store/store-pointer';
import { createTestDatabase, createTestRole, silentPort, type TestRole } from '../support/postgres-server';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const PANEL = '[data-testid="run"], [data-testid="no-run"], [data-testid="run-unreadable"]';
const RUN_ITEM = 'stategate.run';
const WORKFLOW = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'panel', 'feature.workflow.json');
const CLIENT_GRANTS = (role: string): string => `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`;

type Owner = { after(fn: () => unknown): unknown };

/** The other clone's machine name (STATEGATE_MACHINE), as the journal rows it commits say. */
const OTHER_MACHINE = 'ana-laptop';

/** Each history entry of the panel: its kind and the "machine · client" it shows, if any. */
async function historyOrigins(vsc: VsCode): Promise<{ kind: string; text: string; origin: string | null }[]> {
  const f = await panel(vsc);
  return await f.locator('[data-testid="history-entry"]').evaluateAll((els) =>
    els.map((e) => ({ kind: e.getAttribute('data-kind') ?? '', text: e.textContent ?? '', origin: e.querySelector('[data-testid="history-origin"]')?.textContent?.trim() ?? null })),
  );
}

/** A clone of the team's repository: a git remote (in the form given), the workflow file, no `.stategate/`. */
function cloneOf(t: Owner, remote: string): string {
  const dir = tempDir('sg-team-clone-', t);
  spawnSync('git', ['init', '-q'], { cwd: dir });
  spawnSync('git', ['remote', 'add', 'origin', remote], { cwd: dir });
  fs.copyFileSync(WORKFLOW, path.join(dir, 'feature.workflow.json'));
  return dir;
}

/** `stategate run ...` in the other clone, on the shared store, as that machine's terminal would. */
function otherClone(dir: string, url: string, ...args: string[]): Record<string, unknown> {
  const env = { ...process.env, STATEGATE_STORE_URL: url, STATEGATE_PROJECT: '', STATEGATE_MACHINE: OTHER_MACHINE };
  const r = spawnSync(process.execPath, [CLI, 'run', ...args], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  try {
    return JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`stategate run ${args.join(' ')} (exit ${r.status}) printed no JSON:\n${r.stdout}\n${r.stderr}`);
  }
}

async function panel(vsc: VsCode): Promise<Frame> {
  return await vsc.webviewFrame(PANEL, 30_000);
}

async function currentState(vsc: VsCode): Promise<string | null> {
  const el = await (await panel(vsc)).$('[data-testid="diagram-state"][data-current="true"]');
  return el ? await el.getAttribute('data-state') : null;
}

async function waitForCurrent(vsc: VsCode, state: string, timeoutMs = 30_000): Promise<number> {
  const t0 = Date.now();
  let last: string | null = null;
  while (Date.now() - t0 < timeoutMs) {
    last = await currentState(vsc).catch(() => null);
    if (last === state) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the panel did not show ${state} within ${timeoutMs} ms (it shows ${last})`);
}

/** The seq of every history entry the panel lists. */
async function historySeqs(vsc: VsCode): Promise<number[]> {
  const f = await panel(vsc);
  return (await f.locator('[data-testid="history-entry"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq'))))).sort((a, b) => a - b);
}

test('a run shared through PostgreSQL: another clone moves it, VS Code follows, approves, and catches up after a reconnect', { timeout: 600_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const vscRole: TestRole = await createTestRole(t, db.url, { prefix: 'sg_vscode', grant: CLIENT_GRANTS });
  const cloneRole: TestRole = await createTestRole(t, db.url, { prefix: 'sg_clone', grant: CLIENT_GRANTS });
  const admin = postgres(db.url, { max: 1, onnotice: () => {} });
  t.after(() => admin.end({ timeout: 5 }));

  // Two clones of one repository, cloned by two different URL forms: one project.
  const workspace = cloneOf(t, 'https://github.com/team/shared-run.git');
  const other = cloneOf(t, 'git@github.com:team/shared-run.git');
  const cloneUrl = cloneRole.urlFor(db.url);

  await withVsCode(t, { workspace, settings: { 'stategate.store': vscRole.urlFor(db.url) } }, async (vsc) => {
    await vsc.hostReady();
    await vsc.page.locator('.activitybar .action-item a[aria-label^="stategate"]').click();
    await (await panel(vsc)).locator('[data-testid="no-run"]').waitFor({ timeout: 30_000 });
    await vsc.widenSideBar(560);

    // The other clone starts the team's run: VS Code shows it, panel and status bar, with no action.
    otherClone(other, cloneUrl, 'start', 'feature.workflow.json');
    const startDelay = await waitForCurrent(vsc, 'plan');
    await vsc.waitForStatusBar(RUN_ITEM, (text) => text === 'feature › plan', 30_000);
    t.diagnostic(`other clone's start -> panel: ${startDelay} ms`);
    assert.equal(fs.existsSync(path.join(vsc.workspaceDir, '.stategate', 'runs')), false, 'the run is in the shared store, not in this workspace');

    // Each transition the other clone makes shows in both, no reload.
    const delays: number[] = [];
    for (const [event, state] of [['READY', 'implement'], ['SUBMIT', 'review']] as const) {
      const r = otherClone(other, cloneUrl, 'send', event);
      assert.equal((r as { to?: string }).to, state, `the other clone moved the run: ${JSON.stringify(r)}`);
      delays.push(await waitForCurrent(vsc, state));
      await vsc.waitForStatusBar(RUN_ITEM, (text) => text === `feature › ${state}`, 30_000);
    }
    t.diagnostic(`other clone's send -> panel (ms): ${delays.join(', ')}`);

    // An approval-gated transition asked for by the other clone is parked: VS Code shows the request.
    const parked = otherClone(other, cloneUrl, 'send', 'SHIP');
    assert.notEqual((parked as { to?: string }).to, 'shipped', `SHIP is not taken before a person approves: ${JSON.stringify(parked)}`);
    assert.equal((otherClone(other, cloneUrl, 'state').pending_approval as { event?: string } | undefined)?.event, 'SHIP');
    const card = (await panel(vsc)).locator('[data-testid="approval-card"]');
    await card.waitFor({ timeout: 30_000 });
    assert.equal(await currentState(vsc), 'review');
    await vsc.screenshot('team-store-approval');

    // Approve in VS Code's panel releases it; the other clone sees the moved run.
    await (await panel(vsc)).locator('[data-testid="approve"]').click();
    await waitForCurrent(vsc, 'shipped');
    await (await panel(vsc)).locator('[data-testid="approval-card"]').waitFor({ state: 'detached', timeout: 10_000 });
    const seen = otherClone(other, cloneUrl, 'state');
    assert.equal(seen.state, 'shipped');
    assert.equal(seen.status, 'completed');
    assert.equal(seen.pending_approval, undefined);
    const [approvedBy] = await admin<{ machine: string; client: string }[]>`
      SELECT machine, client FROM stategate_journal WHERE entry->>'kind' = 'approved' ORDER BY seq DESC LIMIT 1`;
    assert.equal(approvedBy?.client, 'vscode', 'the approval was committed by VS Code');

    // The panel's history says which machine and client each entry came from. The approval and the
    // transition it let through are one row, the transition's, which says "(approved)".
    const isApproved = (e: { kind: string; text: string }) => e.kind === 'transition' && e.text.includes('(approved)');
    const origins = await waitUntil('the history to show the approval', async () => {
      const list = await historyOrigins(vsc);
      return list.some(isApproved) ? list : undefined;
    }, 15_000);
    const approved = origins.find(isApproved)!;
    assert.equal(approved.origin, `${os.hostname()} · vscode`, 'approved here, in VS Code');
    const transitions = origins.filter((e) => e.kind === 'transition');
    assert.ok(transitions.length >= 2, `the other clone's transitions are listed: ${JSON.stringify(origins)}`);
    for (const e of transitions.filter((x) => x.origin !== `${os.hostname()} · vscode`)) assert.equal(e.origin, `${OTHER_MACHINE} · cli`);
    assert.ok(transitions.some((e) => e.origin === `${OTHER_MACHINE} · cli`), `a transition from the other clone: ${JSON.stringify(origins)}`);
    assert.ok(origins.every((e) => e.origin !== null), 'every entry of a shared run names its origin');

    // A reconnect: VS Code's sessions are ended by the server while it may not log in again, and
    // meanwhile the other clone moves a new run (the notification of that is lost).
    otherClone(other, cloneUrl, 'start', 'feature.workflow.json');
    await waitForCurrent(vsc, 'plan');
    const before = await historySeqs(vsc);
    await admin.unsafe(`ALTER ROLE ${vscRole.role} NOLOGIN`);
    const ended = await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ${vscRole.role}`;
    assert.ok(ended.length >= 1, 'VS Code had a session (it listens)');
    const moved = otherClone(other, cloneUrl, 'send', 'READY');
    assert.equal((moved as { to?: string }).to, 'implement');
    // Still disconnected: the panel cannot know yet, and the status bar says the store refuses VS Code (its health check).
    const refused = await vsc.waitForStatusBar(RUN_ITEM, (text) => text.includes('stategate: store login refused'), 30_000);
    assert.match(refused.label, /not permitted to log in/, `the reason is in the item's label: ${refused.label}`);
    const banner = (await panel(vsc)).locator('[data-testid="run-unreadable"]');
    await banner.waitFor({ timeout: 10_000 });
    assert.match(await banner.innerText(), /shared store cannot be used/);
    assert.equal(await currentState(vsc), null, 'nothing of the other clone\'s move reached VS Code while it could not connect');
    await admin.unsafe(`ALTER ROLE ${vscRole.role} LOGIN`);
    const caughtUp = await waitForCurrent(vsc, 'implement', 60_000);
    t.diagnostic(`after logins were allowed again the panel showed implement in ${caughtUp} ms`);
    await vsc.waitForStatusBar(RUN_ITEM, (text) => text === 'feature › implement', 30_000);

    // The history is the journal exactly: the entries from before, then the ones made while disconnected, none twice.
    const [run] = await admin<{ run_id: string }[]>`SELECT run_id FROM stategate_active_runs`;
    const journal = (await admin<{ seq: string }[]>`SELECT seq FROM stategate_journal WHERE run_id = ${run!.run_id} ORDER BY seq`).map((r) => Number(r.seq));
    const after = await waitUntil('the history to list the whole journal', async () => {
      const seqs = await historySeqs(vsc);
      return seqs.length === journal.length ? seqs : undefined;
    }, 15_000);
    assert.deepEqual(after, journal, 'every journal entry once, in order');
    assert.ok(after.length > before.length && before.every((s) => after.includes(s)), `the history grew from ${before.join(',')} to ${after.join(',')}`);
  });
});

test('a shared store that does not answer shows in the status bar, with the reason and a retry; nothing falls back to the local files', { timeout: 300_000 }, async (t) => {
  const port = await silentPort(t);
  const workspace = cloneOf(t, 'https://github.com/team/shared-run.git');
  const url = `postgres://sg_client:pw-never-shown-77@127.0.0.1:${port}/stategate`;
  await withVsCode(t, { workspace, settings: { 'stategate.store': url }, env: { STATEGATE_STORE_TIMEOUT_MS: '1500' } }, async (vsc) => {
    await vsc.hostReady();
    const item = await vsc.waitForStatusBar(RUN_ITEM, (text) => text.includes('stategate: store not answering'), 60_000);
    assert.match(item.label, /did not answer/, `the reason is in the item's label: ${item.label}`);
    assert.doesNotMatch(item.label, /pw-never-shown-77/);
    await vsc.screenshot('team-store-unreachable');

    // Starting a run is refused; it does not quietly go to .stategate/ of the workspace.
    const started = await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'feature.workflow.json'));
    assert.equal(started, undefined, 'no run was started');
    assert.equal(fs.existsSync(path.join(vsc.workspaceDir, '.stategate', 'runs')), false, 'no run in the local files');
    assert.deepEqual(await vsc.executeCommand('stategate.retryStore'), { ok: false, reason: 'timeout' });
    await vsc.waitForStatusBar(RUN_ITEM, (text) => text.includes('stategate: store not answering'), 10_000);
    const logs = vsc.readLogs(/./);
    assert.doesNotMatch(logs, /pw-never-shown-77/, 'the password is in no VS Code log');
  });
});

/**
 * A database, VS Code's role with a known password (named in its store URL without it), the other
 * clone's role, and the two clones of the team's repository (remotes written two ways).
 */
async function passwordTeam(t: Owner, prefix: string, password: string) {
  const db = await createTestDatabase(t);
  const vscRole = await createTestRole(t, db.url, { prefix, password, grant: CLIENT_GRANTS });
  const cloneRole = await createTestRole(t, db.url, { prefix: 'sg_clone', grant: CLIENT_GRANTS });
  const noPassword = new URL(vscRole.urlFor(db.url));
  noPassword.password = '';
  const workspace = cloneOf(t, 'https://github.com/team/shared-run.git');
  const other = cloneOf(t, 'git@github.com:team/shared-run.git');
  return { db, password, vscRole, cloneRole, noPassword, workspace, other };
}

test('the store password comes from VS Code\'s secret storage: set by a command, never in settings, the workspace, the logs or the journal', { timeout: 300_000 }, async (t) => {
  const { db, password, cloneRole, noPassword, workspace, other } = await passwordTeam(t, 'sg_secret', `Sg-secret-${Date.now().toString(36)}-pw`);
  // VS Code's environment has no PGPASSWORD: only the secret can let it in.
  await withVsCode(t, { workspace, settings: { 'stategate.store': noPassword.toString() }, env: { PGPASSWORD: '' } }, async (vsc) => {
    await vsc.hostReady();
    await vsc.waitForStatusBar(RUN_ITEM, (text) => text.startsWith('$(error) stategate: store') || text.includes('stategate: store'), 60_000);

    // The command asks for it in a password box; the store reconnects with it.
    await vsc.runCommand('stategate: Set Store Password');
    const input = vsc.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await input.getAttribute('type'), 'password', 'typed into a password box');
    await input.fill(password);
    await vsc.page.keyboard.press('Enter');
    otherClone(other, cloneRole.urlFor(db.url), 'start', 'feature.workflow.json');
    await vsc.waitForStatusBar(RUN_ITEM, (text) => text === 'feature › plan', 60_000);
    // VS Code commits a change with the secret's session.
    await vsc.executeCommand('stategate.sendEvent', 'READY');
    await vsc.waitForStatusBar(RUN_ITEM, (text) => text === 'feature › implement', 30_000);

    // The password is nowhere a person, an agent or a log could read it.
    const grep = (dir: string): string[] => {
      const hits: string[] = [];
      const walk = (d: string): void => {
        if (!fs.existsSync(d)) return;
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (e.isFile() && fs.readFileSync(p).includes(password)) hits.push(p);
        }
      };
      walk(dir);
      return hits;
    };
    assert.deepEqual(grep(vsc.workspaceDir), [], 'not in the workspace (.stategate/, .vscode/, hook files)');
    // Not in plain text anywhere under the user folder either (settings, global and workspace state).
    assert.deepEqual(grep(path.join(vsc.userDataDir, 'User')), [], 'not in the user settings or state');
    assert.ok(!fs.readFileSync(path.join(vsc.userDataDir, 'User', 'settings.json'), 'utf8').includes(password), 'not in settings.json');
    assert.deepEqual(grep(path.join(vsc.userDataDir, 'logs')), [], 'not in any VS Code log');
    assert.doesNotMatch(JSON.stringify(await vsc.statusBarItems()), new RegExp(password));

    // The hooks of this workspace are pointed at the same store through a file outside it, without the password.
    const pointer = storePointerFile(vsc.workspaceDir, { STATEGATE_STATE_DIR: TEST_STATE_DIR });
    assert.equal(JSON.parse(fs.readFileSync(pointer, 'utf8')).url, noPassword.toString());
    assert.deepEqual(grep(TEST_STATE_DIR), [], 'not in the state folder outside the workspace');
    const hookEnv: NodeJS.ProcessEnv = { ...process.env, STATEGATE_PROJECT: '', PGPASSWORD: password };
    delete hookEnv.STATEGATE_STORE_URL;
    const hook = spawnSync(process.execPath, [CLI, 'hook', '--client', 'claude'], {
      cwd: vsc.workspaceDir,
      env: hookEnv,
      input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'vs', cwd: vsc.workspaceDir, transcript_path: '/tmp/t', tool_use_id: 'w1', tool_name: 'WebFetch', tool_input: { url: 'https://example.com' } }),
      encoding: 'utf8',
    });
    assert.match(hook.stdout, /"permissionDecision":\s*"deny"/, `a hook here is held to the shared run (implement does not allow WebFetch): ${hook.stdout} ${hook.stderr}`);
    assert.match(hook.stdout, /WebFetch/, 'denied by the workflow, not for a broken store');
    const admin = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await admin`SELECT count(*)::int AS n FROM stategate_journal WHERE entry::text LIKE ${'%' + password + '%'} OR coalesce(result::text, '') LIKE ${'%' + password + '%'}`;
      assert.equal(rows[0]!.n, 0, 'not in the journal');
      const runs = await admin`SELECT count(*)::int AS n FROM stategate_runs WHERE snapshot::text LIKE ${'%' + password + '%'}`;
      assert.equal(runs[0]!.n, 0, 'not in a run');
      const byVsCode = await admin`SELECT count(*)::int AS n FROM stategate_journal WHERE client = 'vscode'`;
      assert.ok(byVsCode[0]!.n >= 1, 'VS Code did commit through the store with the secret');
    } finally {
      await admin.end({ timeout: 5 });
    }
  });
});

test('a change of the stategate.store user setting while VS Code is open: the hooks follow at once, Reload Window brings the views, clearing it goes back to the files', { timeout: 600_000 }, async (t) => {
  const { db, password, cloneRole, noPassword, workspace, other } = await passwordTeam(t, 'sg_switch', `Sg-switch-${Date.now().toString(36)}`);
  // The team's run, started on the shared store by the other clone: held in plan (no WebFetch there).
  otherClone(other, cloneRole.urlFor(db.url), 'start', 'feature.workflow.json');

  await withVsCode(t, { workspace, env: { PGPASSWORD: password } }, async (vsc) => {
    await vsc.hostReady();
    const pointer = storePointerFile(vsc.workspaceDir, { STATEGATE_STATE_DIR: TEST_STATE_DIR });
    const hookEnv: NodeJS.ProcessEnv = { ...process.env, STATEGATE_PROJECT: '', PGPASSWORD: password };
    delete hookEnv.STATEGATE_STORE_URL;
    const webFetch = (id: string): string =>
      spawnSync(process.execPath, [CLI, 'hook', '--client', 'claude'], {
        cwd: vsc.workspaceDir,
        env: hookEnv,
        input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'switch', cwd: vsc.workspaceDir, transcript_path: '/tmp/t', tool_use_id: id, tool_name: 'WebFetch', tool_input: { url: 'https://example.com' } }),
        encoding: 'utf8',
      }).stdout;
    // Files: no run in this workspace, nothing to hold the hook to; no pointer.
    assert.equal(fs.existsSync(pointer), false, 'no store pointer while the setting is unset');
    assert.doesNotMatch(webFetch('before'), /"permissionDecision":\s*"deny"/, 'with the files and no run, the hook does not deny');

    // The person names the shared store in their user settings (through VS Code's configuration service, as the Settings editor does).
    assert.equal(await vsc.executeCommand('stategateE2e.setUserSetting', 'stategate.store', noPassword.toString()), noPassword.toString());
    assert.match(fs.readFileSync(path.join(vsc.userDataDir, 'User', 'settings.json'), 'utf8'), /"stategate\.store"/, 'written to the user\'s settings.json');

    // The hooks follow at once, through the pointer outside the workspace (no password in it).
    const written = await waitUntil('the store pointer', () => (fs.existsSync(pointer) ? (JSON.parse(fs.readFileSync(pointer, 'utf8')) as { url?: string }) : undefined), 30_000);
    assert.equal(written.url, noPassword.toString());
    assert.ok(!fs.readFileSync(pointer, 'utf8').includes(password));
    const denied = webFetch('after');
    assert.match(denied, /"permissionDecision":\s*"deny"/, `a hook here is now held to the shared run: ${denied}`);
    assert.match(denied, /WebFetch/, 'denied by the workflow (plan has no WebFetch), not for a broken store');

    // The views keep the store they opened until a reload, and say so with a button.
    const toast = vsc.page.locator('.notifications-toasts .notification-list-item').filter({ hasText: 'hooks now use the shared store' });
    await toast.waitFor({ timeout: 30_000 });
    assert.equal(await vsc.page.locator('.statusbar-item').filter({ hasText: 'feature ›' }).count(), 0, 'before the reload the status bar still shows the files (no run)');
    fs.rmSync(path.join(vsc.ipcDir, 'ready.json'), { force: true });
    const loaded = vsc.page.waitForEvent('load', { timeout: 60_000 });
    await toast.getByRole('button', { name: 'Reload Window' }).click();
    await loaded;
    await vsc.waitForWorkbench();
    await vsc.hostReady();
    await vsc.waitForStatusBar(RUN_ITEM, (text) => text === 'feature › plan', 60_000);

    // Cleared: the pointer goes, the hooks are back on the files (no run here: no deny), and the toast says so.
    assert.equal(await vsc.executeCommand('stategateE2e.setUserSetting', 'stategate.store', null), null);
    await waitUntil('the store pointer to be removed', () => (fs.existsSync(pointer) ? undefined : true), 30_000);
    await vsc.page.locator('.notifications-toasts .notification-list-item').filter({ hasText: 'the run files in .stategate/' }).waitFor({ timeout: 30_000 });
    assert.doesNotMatch(webFetch('cleared'), /"permissionDecision":\s*"deny"/, 'back on the files, where this workspace has no run');
  });
});
