// The CLI's answers written to the descriptors while no stream exists (src/cli/std-output.ts): whole, in
// order, through a full non-blocking pipe, to a reader that has gone, and without Node's socket for a pipe.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dir.js';

const MODULE = path.join(REPO_ROOT, 'src', 'cli', 'std-output.ts');

/** A script run by Node (with tsx) that imports std-output.ts as `o`, after noting the streams as the CLI's entry does. */
function script(dir: string, body: string): string {
  const file = path.join(dir, 'write.ts');
  fs.writeFileSync(file, `import * as o from ${JSON.stringify(MODULE)};\no.noteStdStreamUse();\n${body}\n`);
  return file;
}

function node(file: string, input?: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...(input === undefined ? {} : { input }) });
}

test('an answer goes to the descriptor, and no stream is made for it', (t) => {
  const dir = tempDir('sg-std-output-', t);
  // Under tsx the descriptor may already be non-blocking (its loader's worker makes it so): an answer within
  // one pipe buffer, as the hook's are, is written whole at once either way.
  const answer = 'é'.repeat(4000);
  const r = node(script(dir, `o.writeStd('stdout', ${JSON.stringify(answer)} + '\\n'); o.writeStd('stderr', 'said\\n'); if (o.stdStreamMade('stdout') || o.stdStreamMade('stderr')) process.exit(9);`));
  assert.equal(r.status, 0, `a stream was made (exit ${r.status}): ${r.stderr}`);
  assert.equal(r.stdout, `${answer}\n`);
  assert.match(r.stderr, /said\n$/);
});

test('the built CLI prints through the descriptor: no socket for the pipe it answers on', (t) => {
  const dir = tempDir('sg-std-output-cli-', t);
  const preload = path.join(dir, 'record.js');
  const out = path.join(dir, 'loaded.json');
  fs.writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`);
  const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const r = spawnSync(process.execPath, ['--require', preload, path.join(REPO_ROOT, 'dist', 'cli.js'), '--version'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${version}\n`);
  const loaded = JSON.parse(fs.readFileSync(out, 'utf8')) as string[];
  assert.deepEqual(loaded.filter((m) => /^(NativeModule net|Internal Binding pipe_wrap)$/.test(m)), []);
});

test('once a library makes process.stdout, later answers go through it, after what was written before', (t) => {
  const dir = tempDir('sg-std-output-order-', t);
  const r = node(script(dir, `o.writeStd('stdout', 'one\\n'); process.stdout.write('two\\n'); o.writeStd('stdout', 'three\\n'); if (!o.stdStreamMade('stdout')) throw new Error('not noted');`));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'one\ntwo\nthree\n');
});

test('a reader that has gone: the writer carries on and exits as it meant to', (t) => {
  const dir = tempDir('sg-std-output-epipe-', t);
  const file = script(dir, `process.on('SIGPIPE', () => {}); for (let i = 0; i < 50; i++) o.writeStd('stdout', 'x'.repeat(100_000)); process.exit(7);`);
  // `head -c 1` reads one byte and exits: every later write meets a closed pipe (EPIPE).
  const r = spawnSync('bash', ['-c', `set -o pipefail; '${process.execPath}' --import tsx '${file}' | head -c 1 > /dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(r.stdout.trim(), '7', r.stderr);
});

test('a non-blocking pipe that fills up: the rest goes through the stream, nothing lost or reordered', (t) => {
  // Node gives its children blocking descriptors, so the pipe is made non-blocking by a Python parent
  // (Debian's python3), which reads nothing until the child has written everything it could.
  const dir = tempDir('sg-std-output-eagain-', t);
  const file = script(dir, `for (let i = 0; i < 40; i++) o.writeStd('stdout', String(i).padStart(8, '-').repeat(4096)); o.writeStd('stdout', 'end\\n');`);
  const parent = [
    'import os, subprocess, sys, time',
    'r, w = os.pipe()',
    'os.set_blocking(w, False)',
    `p = subprocess.Popen([sys.argv[1], '--import', 'tsx', sys.argv[2]], stdout=w, cwd=sys.argv[3])`,
    'os.close(w)',
    'time.sleep(1.0)',
    'out = b""',
    'while True:',
    '    chunk = os.read(r, 65536)',
    '    if not chunk: break',
    '    out += chunk',
    'p.wait()',
    'sys.stdout.buffer.write(out)',
    'sys.exit(p.returncode)',
  ].join('\n');
  const r = spawnSync('python3', ['-c', parent, process.execPath, file, REPO_ROOT], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  let expected = '';
  for (let i = 0; i < 40; i++) expected += String(i).padStart(8, '-').repeat(4096);
  assert.equal(r.stdout.length, expected.length + 4, 'every byte arrived (1.3 MB through a 64 KB pipe)');
  assert.equal(r.stdout, `${expected}end\n`);
});
