/**
 * The schemas package.json gives VS Code's own JSON service (jsonValidation):
 * run through that very service (vscode-json-languageservice), they complete
 * field names and values but report nothing and show no hover, since the
 * language server (src/lsp/) reports every schema problem and shows the field
 * docs itself; given the full schema, the editor showed both twice.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { getLanguageService, TextDocument, type JSONSchema } from 'vscode-json-languageservice';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
let outDir = '';
before(async () => {
  const { writeEditorSchemas } = await import('../../scripts/editor-schemas.mjs');
  outDir = writeEditorSchemas(REPO_ROOT);
});

function serviceFor(schemaFile: string) {
  const uri = pathToFileURL(schemaFile).href;
  const service = getLanguageService({
    schemaRequestService: async (u) => fs.readFileSync(fileURLToPath(u), 'utf8'),
    workspaceContext: { resolveRelativePath: (rel, base) => new URL(rel, base).href },
  });
  service.configure({ validate: true, schemas: [{ uri, fileMatch: ['*.workflow.json', '*.statechart.json'] }] });
  return service;
}

async function run(schemaFile: string, file: string, text: string, at: string) {
  const service = serviceFor(schemaFile);
  const doc = TextDocument.create(`file:///w/${file}`, 'json', 1, text);
  const json = service.parseJSONDocument(doc);
  const pos = doc.positionAt(text.indexOf(at) + at.length);
  return {
    problems: await service.doValidation(doc, json),
    hover: await service.doHover(doc, doc.positionAt(text.indexOf(at) + 1), json),
    labels: ((await service.doComplete(doc, pos, json))?.items ?? []).map((i) => i.label),
  };
}

// Broken every way the schema can say: an unknown field, a wrong type, a bad enum value, no `states`' required fields.
const BROKEN = '{\n  "id": 3,\n  "initial": "a",\n  "colour": "red",\n  "states": {\n    "a": { "type": "finall", "max_iterations": "ten", "on": { "GO": "" } },\n    "b": { "instr": 1 }\n  }\n}\n';

test('package.json gives the editor\'s JSON and YAML services the completion-only schemas', () => {
  const urls = [...pkg.contributes.jsonValidation, ...pkg.contributes.yamlValidation].map((j: { url: string }) => j.url);
  assert.ok(urls.length >= 6);
  for (const url of urls) assert.match(url, /^\.\/dist\/editor-schemas\/(workflow|statechart|flow)-schema\.json$/);
});

test('workflow: the editor\'s service reports nothing and hovers nothing, but still completes field names and enum values', async () => {
  const schema = path.join(outDir, 'workflow-schema.json');
  const atField = await run(schema, 'x.workflow.json', BROKEN, '"b": { "');
  assert.deepEqual(atField.problems, [], 'no schema finding from the editor\'s service');
  const typed = await run(schema, 'x.workflow.json', BROKEN, '"initial": "a",');
  // The service answers with empty text, which VS Code does not show (the server shows the field docs).
  const shown = [typed.hover?.contents ?? []].flat().map((c) => (typeof c === 'string' ? c : c.value)).join('');
  assert.equal(shown, '', 'the server shows the field docs; the editor\'s service adds none');
  assert.ok(atField.labels.includes('instructions') && atField.labels.includes('allowed_tools'), `field names offered: ${atField.labels.join(', ')}`);
  const value = await run(schema, 'x.workflow.json', BROKEN, '"type": ');
  assert.ok(value.labels.includes('"final"'), `enum values offered: ${value.labels.join(', ')}`);
  // In a target string only the server's state names: no placeholder "next_state" snippet.
  const target = await run(schema, 'x.workflow.json', BROKEN, '"GO": "');
  assert.deepEqual(target.labels, []);
});

test('statechart JSON: references into the workflow schema resolve beside it (not on the network), and nothing is reported', async () => {
  const text = '{\n  "statechart": {\n    "id": 1,\n    "initial": "w",\n    "states": { "w": { "bogus": true, "max_iterations": "x", "on": 3 } }\n  }\n}\n';
  const r = await run(path.join(outDir, 'statechart-schema.json'), 'x.statechart.json', text, '"w": { "');
  assert.deepEqual(r.problems, []);
  assert.ok(r.labels.includes('allowed_tools') && r.labels.includes('exit'), `state fields offered: ${r.labels.join(', ')}`);
});
