/**
 * Registry manifests through the CLI: `stategate validate` checks them as
 * manifests (the corpus's validates clean; a broken one is reported at its
 * range), and a run whose invoke meets a broken manifest is told which file
 * and what is wrong.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli.js';
import { requireShared } from './helpers/shared-material.js';
import { tempDir } from './helpers/temp-dir';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function folder(files: Record<string, string>): string {
  const root = tempDir('sg-cli-manifest-');
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text);
  return root;
}

const child = JSON.stringify({ id: 'child', initial: 'work', states: { work: { on: { DONE: 'done' } }, done: { type: 'final' } } });
const parent = JSON.stringify({ id: 'parent', initial: 'start', states: { start: { on: { GO: { invoke: '[kit] child v1', on_complete: 'done' } } }, done: { type: 'final' } } });
const good = JSON.stringify({ workflows: [{ name: '[kit] child v1', file: 'child.json' }] });

const corpus = requireShared('corpus');

describe('stategate validate on the corpus', { skip: corpus.skip }, () => {
  it('exits 0 for every file, manifests included, and names the manifest format "registry"', () => {
    const files = fs.readdirSync(corpus.dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => path.join(corpus.dir, f));
    assert.ok(files.some((f) => path.basename(f) === 'manifest.json'));
    const r = cli(['validate', '--json', ...files], { cwd: corpus.dir });
    assert.equal(r.code, 0, r.stdout);
    for (const report of r.json.files) assert.deepEqual(report.diagnostics, [], report.file);
    const manifest = r.json.files.find((f: { file: string }) => path.basename(f.file) === 'manifest.json');
    assert.equal(manifest.format, 'registry');
  });
});

describe('stategate validate on a broken manifest', () => {
  const line3 = '    { "name": "[kit] gone v1", "file": "gone.json" },';
  const text = `{\n  "workflows": [\n${line3}\n    { "name": "[kit] child v1", "file": "child.json", "owner": "me" }\n  ]\n}\n`;
  const cwd = folder({ 'manifest.json': text, 'child.json': child });

  it('reports each problem at its range, in text', () => {
    const r = cli(['validate', 'manifest.json'], { cwd });
    assert.equal(r.code, 1);
    const col = line3.indexOf('gone.json') + 1;
    assert.match(r.stdout, new RegExp(`^manifest\\.json:3:${col}: error manifest-file-missing: \`gone\\.json\` does not exist`, 'm'));
    assert.match(r.stdout, /^manifest\.json:4:\d+: warning unknown-field: Unknown field `owner`/m);
    assert.doesNotMatch(r.stdout, /states/);
  });

  it('and as JSON, with the format and exact line/character ranges', () => {
    const r = cli(['validate', '--json', 'manifest.json'], { cwd });
    assert.equal(r.code, 1);
    const [report] = r.json.files;
    assert.equal(report.format, 'registry');
    const missing = report.diagnostics.find((d: { code: string }) => d.code === 'manifest-file-missing');
    const at = line3.indexOf('gone.json');
    assert.deepEqual(missing.range, { start: { line: 2, character: at }, end: { line: 2, character: at + 'gone.json'.length } });
    assert.equal(missing.pointer, '/workflows/0/file');
  });
});

describe('a run whose invoke meets a broken manifest', () => {
  it('cannot start: validation says which manifest and what is wrong', () => {
    const cwd = folder({ 'parent.json': parent, 'child.json': child, 'manifest.json': '{"workflows": {}}' });
    const r = cli(['run', 'start', 'parent.json'], { cwd });
    assert.equal(r.code, 1);
    assert.equal(r.json.error.code, 'invalid_workflow');
    assert.match(r.json.error.message, /cannot be looked up: the registry .*manifest\.json is malformed at line 1, column 15: `workflows` must be an array/);
  });

  it('gets an error naming the file when the manifest breaks during the run', () => {
    const cwd = folder({ 'parent.json': parent, 'child.json': child, 'manifest.json': good });
    assert.equal(cli(['run', 'start', 'parent.json'], { cwd }).code, 0);
    fs.writeFileSync(path.join(cwd, 'manifest.json'), '{"workflows": [');
    const r = cli(['run', 'send', 'GO'], { cwd });
    assert.equal(r.code, 1);
    assert.equal(r.json.transitioned, false);
    assert.equal(r.json.error.code, 'invoke_unresolved');
    assert.ok(r.json.error.message.includes(path.join(cwd, 'manifest.json')), r.json.error.message);
    assert.match(r.json.error.message, /is malformed at line 1, column \d+: JSON syntax error/);
    assert.equal(cli(['run', 'state'], { cwd }).json.state, 'start');
  });

  it('invokes through a good manifest', () => {
    const cwd = folder({ 'parent.json': parent, 'child.json': child, 'manifest.json': good });
    assert.equal(cli(['run', 'start', 'parent.json'], { cwd }).code, 0);
    const r = cli(['run', 'send', 'GO'], { cwd });
    assert.equal(r.json.transitioned, true, JSON.stringify(r.json));
  });
});

describe('a manifest where a workflow is expected', () => {
  it('is refused as not a workflow', () => {
    const cwd = folder({ 'child.json': child, 'manifest.json': good });
    const r = cli(['run', 'start', 'manifest.json'], { cwd });
    assert.equal(r.code, 1);
    assert.match(r.json.error.message, /workflow registry manifest .*not a workflow/);
  });
});
