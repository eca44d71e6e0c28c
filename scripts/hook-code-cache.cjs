// Warms the hook's V8 code caches in this checkout's dist/cli/ the way a user's first calls do
// (src/cli/code-cache.ts): removes every cache there (a stale one would be of an earlier bundle and
// only take room), starts a run of a flat workflow in a temporary workspace and state folder, and
// has `dist/cli.js hook` decide a Read (which writes hook.js's cache) and then a Bash call (the
// shell bundle's, under --liftoff-only). Run by scripts/build.mjs on a Node without a compile cache
// of its own (Node 20); `node scripts/hook-code-cache.cjs` alone remakes them, and `--clear` only
// removes them (what an installed extension has before its first call: the VSIX ships none). Without
// a cache the hook works as before, only slower: a failure here is reported, and the build goes on.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const distCli = path.join(root, 'dist', 'cli');

for (const f of fs.existsSync(distCli) ? fs.readdirSync(distCli) : []) if (f.endsWith('.cache')) fs.rmSync(path.join(distCli, f), { force: true });
if (process.argv[2] === '--clear') process.exit(0);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stategate-code-cache-'));
try {
  const ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'const a = 1;\n');
  const wf = { id: 'code-cache', initial: 'work', states: { work: { allowed_tools: ['Read', 'Edit', 'Bash'], allowed_commands: ['git status'], on: { DONE: 'done' } }, done: { type: 'final' } } };
  fs.writeFileSync(path.join(ws, 'code-cache.workflow.json'), JSON.stringify(wf));
  const env = { ...process.env, STATEGATE_STATE_DIR: path.join(tmp, 'state') };
  const run = (args, input) => {
    const r = spawnSync(process.execPath, args, { cwd: ws, env, input: input ?? '', encoding: 'utf8' });
    if (r.status !== 0 || /"deny"/.test(r.stdout)) throw new Error(`hook-code-cache: ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
  };
  // Started by the engine's bundle in a child process with the temporary state folder (not `stategate run
  // start`, which refuses inside stategate's own sandbox, where this build may run).
  const engine = JSON.stringify(path.join(root, 'dist', 'engine.js'));
  run(['-e', `new (require(${engine}).Runner)({ dir: '.stategate' }).start('code-cache.workflow.json').catch((e) => { console.error(e.message); process.exit(1); })`]);
  const call = (tool_name, tool_input) => JSON.stringify({ session_id: 'build', hook_event_name: 'PreToolUse', cwd: ws, transcript_path: path.join(ws, 't.jsonl'), tool_name, tool_input });
  const hook = [path.join(root, 'dist', 'cli.js'), 'hook', '--client', 'claude'];
  // Each call must be allowed: a cache made on a denial's path would hold other functions.
  run(hook, call('Read', { file_path: path.join(ws, 'src', 'app.ts') }));
  run(hook, call('Bash', { command: 'git status' }));
  const made = fs.readdirSync(distCli).filter((f) => f.endsWith('.cache'));
  for (const bundle of ['hook.js', 'hook-shell.js']) {
    if (!made.some((f) => f.startsWith(`${bundle}.`))) throw new Error(`hook-code-cache: the hook wrote no cache of ${bundle} (${made.join(', ') || 'none'})`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
