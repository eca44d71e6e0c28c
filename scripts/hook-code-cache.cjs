// Writes dist/cli/hook.js.cache: V8's code cache of the hook's bundle after it decided a Read on a
// run of a flat workflow, so a hook process on a Node without a compile cache of its own (Node 20)
// neither compiles the bundle nor the functions a decision runs (src/cli/code-cache.ts says why and
// how it is trusted). Run by scripts/build.mjs after the bundles are written; `node
// scripts/hook-code-cache.cjs` alone remakes it. It starts the run with the built engine, in a
// temporary workspace and state folder, and decides the call in a child process (the hook reads its
// call on stdin), which then writes the cache. Without a cache the hook works as before, only slower:
// a failure here is reported, and the build goes on.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const root = path.resolve(__dirname, '..');
const hookJs = path.join(root, 'dist', 'cli', 'hook.js');
// src/cli/code-cache.ts's CJS_WRAPPER: the cache is for exactly this text.
const CJS_WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'];

if (process.argv[2] === 'decide') {
  const script = new vm.Script(CJS_WRAPPER[0] + fs.readFileSync(hookJs, 'utf8') + CJS_WRAPPER[1], { filename: hookJs });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(hookJs), module, hookJs, path.dirname(hookJs));
  let answer = '';
  const out = { stdout: (s) => (answer += s), stderr: (s) => process.stderr.write(s) };
  module.exports.command.run(['--client', 'claude'], out).then((code) => {
    // The call must have been allowed: a cache made on a denial's path would hold other functions.
    if (code !== 0 || /"deny"/.test(answer)) {
      process.stderr.write(`hook-code-cache: the Read was not allowed: ${answer}\n`);
      process.exit(1);
    }
    fs.writeFileSync(`${hookJs}.cache`, script.createCachedData());
    process.exit(0);
  });
} else {
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
      if (r.status !== 0) throw new Error(`hook-code-cache: ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
    };
    fs.rmSync(`${hookJs}.cache`, { force: true });
    // Started by the engine's bundle in a child process with the temporary state folder (not `stategate run
    // start`, which refuses inside stategate's own sandbox, where this build may run).
    const engine = JSON.stringify(path.join(root, 'dist', 'engine.js'));
    run(['-e', `new (require(${engine}).Runner)({ dir: '.stategate' }).start('code-cache.workflow.json').catch((e) => { console.error(e.message); process.exit(1); })`]);
    const call = { session_id: 'build', hook_event_name: 'PreToolUse', cwd: ws, transcript_path: path.join(ws, 't.jsonl'), tool_name: 'Read', tool_input: { file_path: path.join(ws, 'src', 'app.ts') } };
    run([__filename, 'decide'], JSON.stringify(call));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
