// What the sandbox costs per shell command (src/engine/sandbox/): the
// command as the client runs it (`bash -c CMD`) against the command the hook
// hands back (`bash -c '<bwrap ...> -- /bin/bash -c CMD'`), interleaved, the
// baseline measured in the same run; and the hook's own answer with the
// sandbox on against off (STATEGATE_BWRAP naming no binary), since detecting
// bwrap is on the hook's path. Prints medians and ratios.
//
//   node bench/sandbox-overhead.mjs [N=40] [CMD='true']
// Needs the built CLI (node scripts/build.mjs) and bubblewrap.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 40);
const CMD = process.argv[3] ?? 'true';
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ws = mkdtempSync(join(tmpdir(), 'sg-bench-sandbox-'));
const env = { ...process.env, STATEGATE_STATE_DIR: join(ws, '.state') };
try {
  writeFileSync(join(ws, 'b.workflow.json'), JSON.stringify({ id: 'b', initial: 'w', states: { w: { allowed_tools: ['Bash'], on: { DONE: 'd' } }, d: { type: 'final' } } }));
  const cli = (args, extra = {}) => spawnSync(process.execPath, [CLI, ...args], { cwd: ws, encoding: 'utf8', env: { ...env, ...extra } });
  if (cli(['run', 'start', 'b.workflow.json']).status !== 0) throw new Error('run start failed');
  const answer = JSON.parse(cli(['run', 'tool', 'Bash', '--input', JSON.stringify({ command: CMD })]).stdout);
  if (!answer.sandbox?.enforced) throw new Error(`the sandbox is off: ${answer.sandbox?.reason}`);
  const wrapped = answer.updated_input.command;

  const time = (fn) => {
    const t0 = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const run = (command) => {
    const r = spawnSync('bash', ['-c', command], { cwd: ws, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`exit ${r.status}: ${command.slice(0, 200)}`);
  };
  const event = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command: CMD } });
  const hook = (extra) => spawnSync(process.execPath, [CLI, 'hook', '--client', 'claude'], { cwd: ws, input: event, env: { ...env, ...extra } });

  const plain = [];
  const boxed = [];
  const hookOff = [];
  const hookOn = [];
  for (let i = 0; i < N; i++) {
    plain.push(time(() => run(CMD)));
    boxed.push(time(() => run(wrapped)));
    hookOff.push(time(() => hook({ STATEGATE_BWRAP: join(ws, 'no-bwrap') })));
    hookOn.push(time(() => hook({})));
  }
  const row = (what, base, cost) => console.log(`${what}: median ${median(cost).toFixed(2)} ms vs ${median(base).toFixed(2)} ms baseline = ${(median(cost) / median(base)).toFixed(2)}x (+${(median(cost) - median(base)).toFixed(2)} ms), N=${N}`);
  console.log(`command: ${JSON.stringify(CMD)}; bwrap args: ${wrapped.split("' '").length} words`);
  row('bash -c CMD inside the sandbox vs bash -c CMD', plain, boxed);
  row('hook answer with the sandbox vs without', hookOff, hookOn);
} finally {
  rmSync(ws, { recursive: true, force: true });
}
