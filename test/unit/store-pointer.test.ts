/**
 * How a hook started by VS Code's agent finds the shared store VS Code's
 * `stategate.store` setting names (store-pointer.ts): the extension writes the
 * URL, without its password, to a file of the workspace under the user's
 * state folder, outside the workspace; chosenStoreUrl reads it when neither a
 * URL nor STATEGATE_STORE_URL is given. A file inside the workspace never
 * chooses the store. Through the built CLI against the suite's real
 * PostgreSQL: a hook in such a workspace, with no STATEGATE_STORE_URL and no
 * `.stategate/`, is held to the team's run (denies what its state does not
 * allow) instead of finding "no run" in the empty local files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chosenStoreUrl } from '../../src/engine/store/store-choice';
import { readStorePointer, storePointerFile, withoutPassword, writeStorePointer } from '../../src/engine/store/store-pointer';
import { CLI, requireBuiltCli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';
import { createTestDatabase, createTestRole } from '../support/postgres-server';

const WORKFLOW = { id: 'team', initial: 'a', states: { a: { allowed_tools: ['Read'], on: { GO: 'done' } }, done: { type: 'final' } } };

function repo(t: { after(fn: () => unknown): unknown }, remote: string): string {
  const dir = tempDir('sg-pointer-', t);
  spawnSync('git', ['init', '-q'], { cwd: dir });
  spawnSync('git', ['remote', 'add', 'origin', remote], { cwd: dir });
  fs.writeFileSync(path.join(dir, 'team.workflow.json'), JSON.stringify(WORKFLOW));
  return dir;
}

test('the pointer: written without the password, outside the workspace, read when nothing else names a store', (t) => {
  const ws = tempDir('sg-pointer-ws-', t);
  const stateDir = tempDir('sg-pointer-state-', t);
  const env = { STATEGATE_STATE_DIR: stateDir };
  assert.equal(chosenStoreUrl({ env, workspaceRoot: ws }), undefined, 'no pointer: the files');
  writeStorePointer(ws, 'postgres://team:s3cret-pw@db.example:5432/sg?sslmode=verify-full&password=other-pw', env);
  const file = storePointerFile(ws, env);
  assert.ok(file.startsWith(stateDir + path.sep) && !file.startsWith(ws), `outside the workspace: ${file}`);
  const text = fs.readFileSync(file, 'utf8');
  assert.doesNotMatch(text, /s3cret-pw|other-pw/, 'no password in the file');
  assert.equal(readStorePointer(ws, env), 'postgres://team@db.example:5432/sg?sslmode=verify-full');
  assert.equal(chosenStoreUrl({ env, workspaceRoot: ws }), 'postgres://team@db.example:5432/sg?sslmode=verify-full');
  // STATEGATE_STORE_URL wins (an empty value means the files); a URL passed in wins over both.
  assert.equal(chosenStoreUrl({ env: { ...env, STATEGATE_STORE_URL: 'postgres://x@h/d' }, workspaceRoot: ws }), 'postgres://x@h/d');
  assert.equal(chosenStoreUrl({ env: { ...env, STATEGATE_STORE_URL: '' }, workspaceRoot: ws }), undefined);
  assert.equal(chosenStoreUrl({ url: 'postgres://y@h/d', env, workspaceRoot: ws }), 'postgres://y@h/d');
  // Another workspace has no pointer; removing it returns this one to the files.
  assert.equal(chosenStoreUrl({ env, workspaceRoot: tempDir('sg-pointer-other-', t) }), undefined);
  writeStorePointer(ws, undefined, env);
  assert.equal(chosenStoreUrl({ env, workspaceRoot: ws }), undefined);
  assert.equal(withoutPassword('not a url'), 'not a url');
});

test('a file in the workspace never chooses the store', (t) => {
  const ws = tempDir('sg-pointer-ws-', t);
  const env = { STATEGATE_STATE_DIR: tempDir('sg-pointer-state-', t) };
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'stategate.store': 'postgres://evil@attacker/sg' }));
  fs.mkdirSync(path.join(ws, '.stategate', 'stores'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.stategate', 'stores', 'x.json'), JSON.stringify({ url: 'postgres://evil@attacker/sg' }));
  assert.equal(chosenStoreUrl({ env, workspaceRoot: ws }), undefined);
});

test('a hook in a workspace VS Code pointed at the shared store is held to the team\'s run, with no STATEGATE_STORE_URL', async (t) => {
  requireBuiltCli();
  const db = await createTestDatabase(t);
  const role = await createTestRole(t, db.url, { prefix: 'sg_ptr', grant: (r) => `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}` });
  const stateDir = tempDir('sg-pointer-state-', t);
  const base: NodeJS.ProcessEnv = { ...process.env, STATEGATE_STATE_DIR: stateDir, STATEGATE_PROJECT: '' };
  delete base.STATEGATE_STORE_URL;
  // Another machine starts the team's run through the environment.
  const other = repo(t, 'git@github.com:team/pointer.git');
  const started = spawnSync(process.execPath, [CLI, 'run', 'start', 'team.workflow.json'], { cwd: other, env: { ...base, STATEGATE_STORE_URL: role.urlFor(db.url) }, encoding: 'utf8' });
  assert.equal(started.status, 0, started.stderr);
  // The VS Code workspace: a clone with no .stategate/, the pointer VS Code wrote, the password only in the environment.
  const ws = repo(t, 'https://github.com/team/pointer');
  writeStorePointer(ws, role.urlFor(db.url), { STATEGATE_STATE_DIR: stateDir });
  const hookEnv = { ...base, PGPASSWORD: role.password };
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'vs', cwd: ws, transcript_path: '/tmp/t', tool_use_id: 'w1', tool_name: 'Write', tool_input: { file_path: path.join(ws, 'x.txt'), content: 'x' } });
  const hook = spawnSync(process.execPath, [CLI, 'hook', '--client', 'claude'], { cwd: ws, env: hookEnv, input, encoding: 'utf8' });
  const out = JSON.parse(hook.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  assert.equal(out.hookSpecificOutput?.permissionDecision, 'deny', `Write in state a is denied by the team's run: ${hook.stdout} ${hook.stderr}`);
  // No local run was made: the run record (agent-state.json) may follow the shared run there, the file store's own files may not.
  const local = path.join(ws, '.stategate');
  const runIds = fs.existsSync(path.join(local, 'runs')) ? fs.readdirSync(path.join(local, 'runs')) : [];
  const runFiles = runIds.flatMap((id) => ['run.json', 'journal.jsonl'].filter((f) => fs.existsSync(path.join(local, 'runs', id, f))));
  assert.deepEqual([fs.existsSync(path.join(local, 'active')), runFiles], [false, []], 'no local run was made');
  // Without the password the hook fails closed, saying why.
  const noPw = spawnSync(process.execPath, [CLI, 'hook', '--client', 'claude'], { cwd: ws, env: { ...base, PGPASSWORD: '' }, input, encoding: 'utf8' });
  const denied = JSON.parse(noPw.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  assert.equal(denied.hookSpecificOutput?.permissionDecision, 'deny', noPw.stdout);
  assert.match(denied.hookSpecificOutput?.permissionDecisionReason ?? '', /shared store/);
  assert.doesNotMatch(hook.stdout + hook.stderr + noPw.stdout + noPw.stderr, new RegExp(role.password));
});
