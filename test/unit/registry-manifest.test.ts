/**
 * Registry manifests (`manifest.json`: `{"workflows": [{"name", "file"}]}`):
 * recognised by name and shape, and checked as manifests, table-driven like
 * ajv's suites: each group is a folder of files, each row a manifest text and
 * the diagnostics it must give (code, severity and exact range).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkFile } from '../../src/engine/check/check-file.js';
import { detectFormat, isInvokeRegistry, isRegistryManifestDocument } from '../../src/engine/formats/index.js';
import type { Diagnostic } from '../../src/engine/model/index.js';
import { lit, span, type Range } from './support/ranges.js';
import { tempDir } from './helpers/temp-dir';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

/** A temporary tree: { 'relative/path.json': text }; a value of null makes a folder. */
function tree(files: Record<string, string | null>): string {
  const root = tempDir('sg-manifest-');
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, rel);
    if (text === null) {
      fs.mkdirSync(p, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  return root;
}

function workflow(id: string): string {
  return JSON.stringify({ id, initial: 'start', states: { start: { on: { GO: 'done' } }, done: { type: 'final' } } });
}

/** A workflow with one syntax error (and nothing else wrong). */
const BAD_JSON = '{"id": "j", "initial": "s", "states": {"s": {"type": "final"}}, oops}';

const manifest = (...entries: unknown[]) => JSON.stringify({ workflows: entries });

interface Expected {
  readonly code: string;
  readonly severity: Diagnostic['severity'];
  /** Where: a string literal's contents (`lit`), or a raw substring (`span`). */
  readonly at: (text: string) => Range;
  /** Matched against the message. */
  readonly says?: RegExp;
}

interface Row {
  readonly description: string;
  readonly manifest: string;
  readonly expected: readonly Expected[];
}

interface Group {
  readonly description: string;
  readonly files: Record<string, string | null>;
  /** Where the manifest is written (default manifest.json at the root). */
  readonly at?: string;
  readonly rows: readonly Row[];
}

const err = (code: string, at: Expected['at'], says?: RegExp): Expected => ({ code, severity: 'error', at, ...(says ? { says } : {}) });
const warn = (code: string, at: Expected['at'], says?: RegExp): Expected => ({ code, severity: 'warning', at, ...(says ? { says } : {}) });
const litAt = (value: string, nth = 0) => (text: string) => lit(text, value, nth);
const spanAt = (needle: string, nth = 0) => (text: string) => span(text, needle, nth);

const suites: Group[] = [
  {
    description: 'shape',
    files: { 'a.json': workflow('a') },
    rows: [
      { description: 'a well-formed manifest', manifest: JSON.stringify({ version: 1, description: 'kit', workflows: [{ name: 'kit a', file: 'a.json', description: 'A' }] }), expected: [] },
      { description: 'no workflows registered yet', manifest: '{"workflows": []}', expected: [] },
      { description: 'comments and trailing commas', manifest: '{\n  // the kit\n  "workflows": [{"name": "kit a", "file": "a.json",},],\n}', expected: [] },
      { description: 'no `workflows`', manifest: '{"version": 1}', expected: [err('missing-field', spanAt('{'), /missing the required field `workflows`/)] },
      { description: '`workflows` not an array', manifest: '{"workflows": {"a": "a.json"}}', expected: [err('invalid-type', spanAt('{"a": "a.json"}'), /`workflows` must be an array/)] },
      { description: 'an entry that is not an object', manifest: '{"workflows": [3]}', expected: [err('invalid-type', spanAt('3'), /must be an object; found a number/)] },
      { description: 'an entry without `file`', manifest: manifest({ name: 'kit a' }), expected: [err('missing-field', spanAt('{', 1), /field `file`/)] },
      { description: 'an entry without `name`', manifest: manifest({ file: 'a.json' }), expected: [err('missing-field', spanAt('{', 1), /field `name`/)] },
      { description: 'a name that is not a string', manifest: manifest({ name: 5, file: 'a.json' }), expected: [err('invalid-type', spanAt('5'), /`name` must be a string/)] },
      { description: 'an empty file name', manifest: manifest({ name: 'kit a', file: '' }), expected: [err('invalid-value', litAt(''), /`file` must not be empty/)] },
      { description: 'an unknown key in an entry', manifest: manifest({ name: 'kit a', file: 'a.json', version: 2 }), expected: [warn('unknown-field', litAt('version'), /Unknown field `version` in the registry entry/)] },
      { description: 'an unknown top-level key, with a suggestion', manifest: '{"workflows": [], "workflow": []}', expected: [warn('unknown-field', litAt('workflow'), /Did you mean `workflows`/)] },
      { description: 'a repeated key', manifest: '{"workflows": [], "workflows": []}', expected: [err('duplicate-key', litAt('workflows', 1))] },
      { description: 'a syntax error', manifest: '{"workflows": [', expected: [err('json-syntax', (t) => ({ start: t.length, end: t.length })), err('json-syntax', (t) => ({ start: t.length, end: t.length }))] },
      { description: 'not an object', manifest: '[]', expected: [err('invalid-type', spanAt('[]'), /must be a JSON object/)] },
      { description: 'an empty file', manifest: '', expected: [err('json-syntax', () => ({ start: 0, end: 0 }), /registry manifest is a JSON object/)] },
    ],
  },
  {
    description: 'registered files',
    files: { 'a.json': workflow('a'), 'impl/c.json': workflow('c'), 'broken.json': '{"id": "b"}', 'bad-json.json': BAD_JSON, 'folder.json': null },
    rows: [
      { description: 'a file in a subfolder', manifest: manifest({ name: 'kit c', file: 'impl/c.json' }), expected: [] },
      { description: 'a file that does not exist', manifest: manifest({ name: 'kit n', file: 'nope.json' }), expected: [err('manifest-file-missing', litAt('nope.json'), /`nope\.json` does not exist \(looked for .*nope\.json\)/)] },
      {
        description: 'a file that is not a workflow: its own first error, with its position',
        manifest: manifest({ name: 'kit b', file: 'broken.json' }),
        expected: [err('manifest-file-invalid', litAt('broken.json'), /does not load as a workflow without errors; its first: broken\.json:1:1: missing-field: The workflow is missing the required field `states`/)],
      },
      { description: 'a file that is not JSON', manifest: manifest({ name: 'kit j', file: 'bad-json.json' }), expected: [err('manifest-file-invalid', litAt('bad-json.json'), new RegExp(`bad-json\\.json:1:${BAD_JSON.indexOf('oops') + 1}: json-syntax: JSON syntax error`))] },
      { description: 'a folder', manifest: manifest({ name: 'kit f', file: 'folder.json' }), expected: [err('manifest-file-invalid', litAt('folder.json'), /cannot be read \(EISDIR\)/)] },
      { description: 'the manifest itself', manifest: manifest({ name: 'kit m', file: 'manifest.json' }), expected: [err('manifest-file-invalid', litAt('manifest.json'), /not-a-workflow/)] },
    ],
  },
  {
    description: 'names',
    files: { 'a.json': workflow('a'), 'b.json': workflow('kit b'), '.stategate/workflows/shared.json': workflow('shared'), 'flows/x.json': workflow('x') },
    rows: [
      {
        description: 'a name registered twice: an error at the second',
        manifest: manifest({ name: 'kit a', file: 'a.json' }, { name: 'kit a', file: 'b.json' }),
        expected: [err('duplicate-workflow-name', litAt('kit a', 1), /`kit a` is registered twice/)],
      },
      {
        description: 'a name that is the id of another workflow in the folder',
        manifest: manifest({ name: 'kit b', file: 'a.json' }),
        expected: [warn('shadowed-workflow-name', litAt('kit b'), /also the id of another workflow \(b\.json\)/)],
      },
      { description: 'a name that is the id of the very file it registers', manifest: manifest({ name: 'a', file: 'a.json' }), expected: [] },
    ],
  },
  {
    description: 'names, for a manifest below .stategate/workflows/',
    files: { 'flows/x.json': workflow('x'), '.stategate/workflows/shared.json': workflow('shared') },
    at: 'flows/manifest.json',
    rows: [
      {
        description: 'a name that is the id of a workflow in .stategate/workflows/',
        manifest: manifest({ name: 'shared', file: 'x.json' }),
        expected: [warn('shadowed-workflow-name', litAt('shared'), /another workflow \(\.\.[/\\]\.stategate[/\\]workflows[/\\]shared\.json\)/)],
      },
    ],
  },
];

for (const group of suites) {
  describe(`registry manifest: ${group.description}`, () => {
    const root = tree(group.files);
    const file = path.join(root, group.at ?? 'manifest.json');
    for (const row of group.rows) {
      it(row.description, () => {
        fs.writeFileSync(file, row.manifest);
        const result = checkFile(row.manifest, file);
        assert.equal(result.format, 'registry');
        const found = result.diagnostics.map((d) => ({ code: d.code, severity: d.severity, start: d.loc.start, end: d.loc.end }));
        const wanted = row.expected.map((e) => ({ code: e.code, severity: e.severity, ...e.at(row.manifest) }));
        assert.deepEqual(found, wanted, JSON.stringify(result.diagnostics, null, 1));
        row.expected.forEach((e, i) => e.says && assert.match(result.diagnostics[i]?.message ?? '', e.says));
      });
    }
  });
}

describe('which files are registry manifests', () => {
  const registry = '{"workflows": [{"name": "n", "file": "a.json"}]}';
  const rows: Array<[string, string, string]> = [
    ['manifest.json', registry, 'registry'],
    ['kit/manifest.json', '{"workflows": 3}', 'registry'],
    ['manifest.json', '{}', 'registry'], // named so: reported as a manifest missing `workflows`, not as a workflow missing `states`
    ['manifest.json', '{"workflows": [', 'registry'],
    ['manifest.json', '{"name": ', 'registry'],
    ['x.json', '{"name": ', 'statewright'],
    ['manifest.json', workflow('m'), 'statewright'],
    ['manifest.json', '{"definition": {"id": "m"}}', 'statewright'],
    ['registry.json', registry, 'registry'],
    ['x.json', '{"workflows": [], "states": {}}', 'statewright'],
    ['x.workflow.json', JSON.stringify({ id: 'w', meta: { workflows: ['a'] }, states: {} }), 'statewright'],
    ['x.json', workflow('w'), 'statewright'],
  ];
  for (const [file, text, format] of rows) {
    it(`${file} ${text.slice(0, 40)} → ${format}`, () => assert.equal(detectFormat(text, file), format));
  }

  const editorRows: Array<[string, string, boolean]> = [
    ['/w/manifest.json', registry, true],
    ['/w/manifest.json', '{"workflows": "oops"}', true],
    ['/w/manifest.json', '{"name": "my app", "icons": []}', false], // a web app or browser extension manifest
    ['/w/manifest.json', workflow('m'), false],
    ['/w/registry.json', registry, false],
  ];
  for (const [file, text, shown] of editorRows) {
    it(`the editor ${shown ? 'checks' : 'leaves alone'} ${file} ${text.slice(0, 30)}`, () => assert.equal(isRegistryManifestDocument(text, file), shown));
  }

  // Invoke resolution reads a manifest.json that is shaped like a registry or too broken to tell (reported, not taken as empty).
  const invokeRows: Array<[string, boolean]> = [
    [registry, true],
    ['{"workflows": 3}', true],
    ['{"name": ', true],
    ['', true],
    ['{"name": "my app", "icons": []}', false],
    ['{}', false],
    [workflow('m'), false],
  ];
  for (const [text, read] of invokeRows) {
    it(`invoke resolution ${read ? 'reads' : 'ignores'} a manifest.json of ${JSON.stringify(text.slice(0, 30))}`, () => assert.equal(isInvokeRegistry(text), read));
  }
});
