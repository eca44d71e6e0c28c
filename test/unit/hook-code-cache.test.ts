/**
 * The hook's V8 code cache made where the hook runs (src/cli/code-cache.ts, docs/design/hook-code-cache.md),
 * on a small CommonJS bundle of its own in a temporary folder: written after the decision only when no
 * usable cache was read, taken by the next load, keyed by the bundle's bytes, the runtime and the flags,
 * refused whole when it does not match (another key, a torn or corrupt payload, one V8 refuses) and then
 * replaced by a rename, and no cache at all, silently, where the folder cannot be written. The real
 * hook's first and later calls: test/unit/hook-bundle.test.ts.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { cacheFileOf, cacheKey, CJS_WRAPPER, requireWithCodeCache, setV8Flags, writeCodeCaches } from '../../src/cli/code-cache';
import { removeTempDir, tempDir } from './helpers/temp-dir';

const hasNodeCache = 'enableCompileCache' in (require('node:module') as object);

/** A bundle whose answer is `answer` (one digit, so two of them have the same length). */
function bundleText(answer: number): string {
  return `'use strict';\nfunction decide(call) { return call === 'Read' ? ${answer} : -1; }\nexports.decide = decide;\n`;
}

function bundle(t: TestContext, answer: number): string {
  const file = path.join(tempDir('sg-code-cache-', t), 'hook.js');
  fs.writeFileSync(file, bundleText(answer));
  return file;
}

function load(file: string): { decide: (call: string) => number; cache: string } {
  const r = requireWithCodeCache(file);
  const { decide } = r.exports as { decide: (call: string) => number };
  return { decide, cache: r.cache };
}

/** Loads `file` and decides one call, as a hook does, then writes what needs writing. */
function decideAndWrite(file: string): { answer: number; cache: string } {
  const b = load(file);
  const answer = b.decide('Read');
  writeCodeCaches();
  return { answer, cache: b.cache };
}

function cacheOf(file: string): string {
  return cacheFileOf(file, cacheKey(fs.readFileSync(file)));
}

/** A cache file's V8 payload: what follows its three header lines. */
function payloadOf(data: Buffer): Buffer {
  let at = 0;
  for (let line = 0; line < 3; line++) at = data.indexOf('\n', at) + 1;
  return data.subarray(at);
}

function cachesBeside(file: string): string[] {
  return fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.cache')).sort();
}

test('the first load writes the cache after its decision, atomically; the next load takes it and writes nothing', (t) => {
  if (hasNodeCache) return t.skip('this Node caches compiled code itself (module.enableCompileCache)');
  const file = bundle(t, 1);
  assert.deepEqual(decideAndWrite(file), { answer: 1, cache: 'none' });
  const written = cacheOf(file);
  assert.deepEqual(cachesBeside(file), [path.basename(written)], 'one cache, named by its key; no temporary file left');
  const before = fs.statSync(written);
  assert.deepEqual(decideAndWrite(file), { answer: 1, cache: 'used' });
  const after = fs.statSync(written);
  assert.equal(after.ino, before.ino, 'not written again');
  assert.equal(after.mtimeMs, before.mtimeMs);
});

test('another bundle text of the same length never runs the first one\'s code (V8 checks the length only)', (t) => {
  if (hasNodeCache) return t.skip('this Node caches compiled code itself (module.enableCompileCache)');
  const file = bundle(t, 1);
  decideAndWrite(file);
  const first = cacheOf(file);
  fs.writeFileSync(file, bundleText(2));
  assert.equal(fs.statSync(file).size, Buffer.byteLength(bundleText(1)), 'same length');
  // What V8 alone would do: take the first text's cache for the second, and run the first text's code.
  const v8Alone = new vm.Script(CJS_WRAPPER[0] + bundleText(2) + CJS_WRAPPER[1], { cachedData: payloadOf(fs.readFileSync(first)) });
  assert.equal(v8Alone.cachedDataRejected, false, 'V8 takes a cache of another text of the same length');
  assert.notEqual(cacheOf(file), first, 'the key names the text');
  assert.deepEqual(decideAndWrite(file), { answer: 2, cache: 'none' });
  assert.deepEqual(decideAndWrite(file), { answer: 2, cache: 'used' });
});

test('a cache that does not match (another key in its header, a truncated or corrupt payload) is never handed to V8, and is replaced by a rename', (t) => {
  if (hasNodeCache) return t.skip('this Node caches compiled code itself (module.enableCompileCache)');
  const other = bundle(t, 1);
  decideAndWrite(other);
  const file = bundle(t, 2);
  decideAndWrite(file);
  const good = fs.readFileSync(cacheOf(file));
  const damages: Record<string, Buffer> = {
    'another key': fs.readFileSync(cacheOf(other)),
    truncated: good.subarray(0, good.length - 100),
    'torn to its header': good.subarray(0, 200),
    empty: Buffer.alloc(0),
    // A byte of the payload changed, the header kept: V8 (a release build) does not check a code cache's checksum.
    corrupt: Buffer.concat([good.subarray(0, good.length - 40), Buffer.from([good[good.length - 40]! ^ 0xff]), good.subarray(good.length - 39)]),
  };
  for (const [name, bytes] of Object.entries(damages)) {
    fs.writeFileSync(cacheOf(file), bytes);
    const ino = fs.statSync(cacheOf(file)).ino;
    assert.deepEqual(decideAndWrite(file), { answer: 2, cache: 'mismatched' }, name);
    assert.notEqual(fs.statSync(cacheOf(file)).ino, ino, `${name}: replaced by a rename, not rewritten in place`);
    assert.deepEqual(decideAndWrite(file), { answer: 2, cache: 'used' }, `${name}: the replacement is taken`);
  }
});

test('a cache V8 refuses (a payload of another source under a valid header) is reported rejected, never crashes, and is replaced', (t) => {
  if (hasNodeCache) return t.skip('this Node caches compiled code itself (module.enableCompileCache)');
  const file = bundle(t, 3);
  const key = cacheKey(fs.readFileSync(file));
  const foreign = new vm.Script('(function () { return "a longer source than the bundle\'s, so V8 refuses it"; })').createCachedData();
  const digest = require('node:crypto').createHash('sha256').update(foreign).digest('hex') as string;
  fs.writeFileSync(cacheOf(file), Buffer.concat([Buffer.from(`stategate-v8-code-cache 1\n${key}\n${digest}\n`, 'latin1'), foreign]));
  assert.deepEqual(decideAndWrite(file), { answer: 3, cache: 'rejected' });
  assert.deepEqual(decideAndWrite(file), { answer: 3, cache: 'used' });
});

test('a folder the hook cannot write means no cache, silently, and the same answer', (t) => {
  if (hasNodeCache) return t.skip('this Node caches compiled code itself (module.enableCompileCache)');
  // Removed here, once it can be changed again (tempDir's own removal would come first and fail).
  const dir = tempDir('sg-code-cache-');
  const file = path.join(dir, 'hook.js');
  fs.writeFileSync(file, bundleText(4));
  // root writes through a folder's mode: an immutable folder stands for a system install there.
  if (process.getuid?.() === 0) {
    if (spawnSync('chattr', ['+i', dir]).status !== 0) return t.skip('chattr +i is not available here');
    t.after(() => {
      spawnSync('chattr', ['-i', dir]);
      removeTempDir(dir);
    });
  } else {
    fs.chmodSync(dir, 0o555);
    t.after(() => {
      fs.chmodSync(dir, 0o755);
      removeTempDir(dir);
    });
  }
  assert.deepEqual(decideAndWrite(file), { answer: 4, cache: 'none' });
  assert.deepEqual(decideAndWrite(file), { answer: 4, cache: 'none' });
  assert.deepEqual(cachesBeside(file), []);
});

test('the key names the runtime\'s flags: execArgv and NODE_OPTIONS', () => {
  const source = Buffer.from(bundleText(5));
  const plain = cacheKey(source);
  process.execArgv.push('--max-semi-space-size=64');
  try {
    assert.notEqual(cacheKey(source), plain);
  } finally {
    process.execArgv.pop();
  }
  const options = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${options ?? ''} --stack-size=2000`;
  try {
    assert.notEqual(cacheKey(source), plain);
  } finally {
    if (options === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = options;
  }
  assert.equal(cacheKey(source), plain);
});

// Last in this file: the flag stays set in this process.
test('a flag set through setV8Flags names the caches compiled after it; a bundle compiled before it is not written (its cache would carry the flag)', (t) => {
  if (hasNodeCache) return t.skip('this Node caches compiled code itself (module.enableCompileCache)');
  const before = bundle(t, 6);
  const plainKey = cacheKey(fs.readFileSync(before));
  const b = load(before);
  assert.equal(b.cache, 'none');
  setV8Flags('--liftoff-only');
  assert.notEqual(cacheKey(fs.readFileSync(before)), plainKey, 'the flag is in the key');
  const after = bundle(t, 7);
  assert.equal(load(after).decide('Read'), 7);
  writeCodeCaches();
  assert.deepEqual(cachesBeside(before), [], 'compiled before the flag: no cache written');
  assert.deepEqual(cachesBeside(after), [path.basename(cacheOf(after))]);
  assert.deepEqual(decideAndWrite(after), { answer: 7, cache: 'used' }, 'taken under the same flag');
});

test('at most four caches of a bundle stay beside it, the newest', (t) => {
  if (hasNodeCache) return t.skip('this Node caches compiled code itself (module.enableCompileCache)');
  const file = bundle(t, 8);
  const dir = path.dirname(file);
  const old = ['0000000000000001', '0000000000000002', '0000000000000003', '0000000000000004'].map((k, i) => {
    const f = path.join(dir, `hook.js.${k}.cache`);
    fs.writeFileSync(f, 'old');
    fs.utimesSync(f, 1000 + i, 1000 + i);
    return path.basename(f);
  });
  fs.writeFileSync(path.join(dir, 'hook-shell.js.0000000000000009.cache'), 'another bundle\'s');
  decideAndWrite(file);
  assert.deepEqual(cachesBeside(file), [...old.slice(1), path.basename(cacheOf(file)), 'hook-shell.js.0000000000000009.cache'].sort());
});
