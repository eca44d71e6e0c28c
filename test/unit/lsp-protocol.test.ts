/**
 * The language server at the protocol level, in this process: a JSON-RPC
 * client (vscode-languageserver-protocol's connection) talks to src/lsp/server.ts
 * over in-memory streams, as an editor would. Per format: `initialize`, `didOpen`
 * → `publishDiagnostics` (an error with its range for a broken file, none for a
 * clean one), completion and hover; then one row each for definition, references,
 * rename, document symbols, code lenses, code actions and `didChange`; and input
 * that must get a diagnostic, never a crashed server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough } from 'node:stream';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import {
  CodeActionRequest,
  CodeLensRequest,
  CompletionRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type DocumentSymbol,
  type Hover,
  type Location,
  type MarkupContent,
  type Position,
  type Range,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { serve } from '../../src/lsp/server';
import { JSON_SYNTAX_NOTIFICATION, LENS_COMMANDS } from '../../src/lsp/commands';
import { MAX_YAML_LENGTH } from '../../src/engine/formats/yaml-size';
import { initialize, lspClient, type LspClient } from './helpers/lsp-client';
import { tempDir } from './helpers/temp-dir';

interface FormatRow {
  readonly format: string;
  readonly file: string;
  readonly languageId: string;
  readonly clean: string;
  /** Other files the document names (a registry's workflow), written beside it first. */
  readonly beside?: Readonly<Record<string, string>>;
  /** A broken version: the error's code, and the text its range covers. */
  readonly broken: { readonly text: string; readonly code: string; readonly covers: string };
  /** Completion with the cursor right after `after` offers (at least) `offers`. */
  readonly completion?: { readonly after: string; readonly offers: readonly string[] };
  /** Hover on the first `on` shows text matching `shows`. */
  readonly hover?: { readonly on: string; readonly shows: RegExp };
}

const WORKFLOW = '{\n  "id": "review",\n  "initial": "reading",\n  "states": {\n    "reading": { "instructions": "Read.", "on": { "DONE": "done" } },\n    "done": { "type": "final" }\n  }\n}\n';
const STAGES = '{\n  "id": "stages",\n  "initial": "plan",\n  "states": {\n    "plan": {\n      "prompt": "Plan it.",\n      "completion_tool": "submit_plan",\n      "completion_schema": { "type": "object" },\n      "on": { "submit_plan": "finished" }\n    },\n    "finished": { "type": "final" }\n  }\n}\n';
const CHART_YAML = 'statechart:\n  id: tiny\n  initial: work\n  states:\n    work:\n      on:\n        FINISH: done\n    done:\n      type: final\n';
const CHART_JSON = '{\n  "statechart": {\n    "id": "tiny",\n    "initial": "work",\n    "states": {\n      "work": { "on": { "FINISH": "done" } },\n      "done": { "type": "final" }\n    }\n  }\n}\n';
const FLOW = 'name: tiny\nstart-at: build\nstates:\n  build:\n    tool: bash\n    arguments:\n      command: make\n    next: finish\n  finish:\n    tool: bash\n    arguments:\n      command: echo done\n';
const MANIFEST = '{\n  "workflows": [{ "name": "listed", "file": "listed.workflow.json" }]\n}\n';
const FLOW_TOOLS = 'tools:\n  lint:\n    command: "npx eslint {{ path }}"\n    arguments:\n      path: {required: true}\n';

const FORMATS: readonly FormatRow[] = [
  {
    format: 'workflow JSON',
    file: 'review.workflow.json',
    languageId: 'json',
    clean: WORKFLOW,
    broken: { text: WORKFLOW.replace('"DONE": "done"', '"DONE": "nowhere"'), code: 'unknown-target', covers: 'nowhere' },
    completion: { after: '"DONE": "', offers: ['reading', 'done'] },
    hover: { on: '"reading": {', shows: /reading/ },
  },
  {
    format: 'stage pipeline',
    file: 'stages.workflow.json',
    languageId: 'json',
    clean: STAGES,
    broken: { text: STAGES.replace('"submit_plan": "finished"', '"submit_plan": "nowhere"'), code: 'unknown-target', covers: 'nowhere' },
    completion: { after: '"submit_plan": "', offers: ['plan', 'finished'] },
    hover: { on: '"plan": {', shows: /plan/ },
  },
  {
    format: 'statechart YAML',
    file: 'tiny.statechart.yaml',
    languageId: 'yaml',
    clean: CHART_YAML,
    broken: { text: CHART_YAML.replace('FINISH: done', 'FINISH: nowhere'), code: 'chart-unknown-target', covers: 'nowhere' },
    completion: { after: 'FINISH: ', offers: ['work', 'done'] },
    hover: { on: 'work:', shows: /work/ },
  },
  {
    format: 'statechart JSON',
    file: 'tiny.statechart.json',
    languageId: 'json',
    clean: CHART_JSON,
    broken: { text: CHART_JSON.replace('"FINISH": "done"', '"FINISH": "nowhere"'), code: 'chart-unknown-target', covers: 'nowhere' },
    completion: { after: '"FINISH": "', offers: ['work', 'done'] },
    hover: { on: '"work": {', shows: /work/ },
  },
  {
    format: 'flow YAML',
    file: 'tiny.flow.yaml',
    languageId: 'yaml',
    clean: FLOW,
    broken: { text: FLOW.replace('next: finish', 'next: nowhere'), code: 'flow-unknown-target', covers: 'nowhere' },
    completion: { after: 'next: ', offers: ['build', 'finish'] },
    hover: { on: 'bash\n', shows: /bash/ },
  },
  {
    format: 'plain .yaml recognised by content',
    file: 'charts/plain.yaml',
    languageId: 'yaml',
    clean: CHART_YAML,
    broken: { text: CHART_YAML.replace('FINISH: done', 'FINISH: nowhere'), code: 'chart-unknown-target', covers: 'nowhere' },
    completion: { after: 'FINISH: ', offers: ['work', 'done'] },
    hover: { on: 'work:', shows: /work/ },
  },
  {
    format: 'manifest registry',
    file: 'registry/manifest.json',
    languageId: 'json',
    clean: MANIFEST,
    beside: { 'listed.workflow.json': WORKFLOW.replace('"id": "review"', '"id": "listed"') },
    broken: { text: MANIFEST.replace('listed.workflow.json', 'missing.workflow.json'), code: 'manifest-file-missing', covers: 'missing.workflow.json' },
  },
  {
    format: 'flow-tools.yaml',
    file: '.stategate/flow-tools.yaml',
    languageId: 'yaml',
    clean: FLOW_TOOLS,
    broken: { text: 'tools:\n  lint:\n    command: 42\n', code: 'invalid-type', covers: '42' },
  },
];

/** The server in this process, on in-memory streams, with a client connected and initialized. */
function startServer(): LspClient {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  serve(createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient)));
  return lspClient(toClient, toServer);
}

const textAt = (text: string, range: Range): string => {
  const doc = TextDocument.create('x:', '', 0, text);
  return text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
};
const positionAfter = (text: string, needle: string, delta = needle.length): Position => {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${JSON.stringify(needle)} is in the text`);
  return TextDocument.create('x:', '', 0, text).positionAt(i + delta);
};
const labelsOf = (r: CompletionItem[] | CompletionList | null): string[] => (Array.isArray(r) ? r : (r?.items ?? [])).map((c) => c.label);

let ws: string;
let client: LspClient;
let fresh = 0;
/** Each document in a folder of its own, so no two rows see each other's files. */
const openFresh = (file: string, text: string, languageId: string, beside: Readonly<Record<string, string>> = {}): ReturnType<LspClient['open']> => {
  const dir = path.join(ws, `case-${++fresh}`);
  for (const [name, content] of Object.entries(beside)) {
    fs.mkdirSync(path.dirname(path.join(dir, file, '..', name)), { recursive: true });
    fs.writeFileSync(path.join(dir, file, '..', name), content);
  }
  return client.open(dir, file, text, languageId);
};

before(async () => {
  ws = tempDir('lsp-protocol-');
  client = startServer();
  const result = (await initialize(client, ws, { commands: [...LENS_COMMANDS] })) as { capabilities: Record<string, unknown>; serverInfo?: { name: string } };
  assert.equal(result.serverInfo?.name, 'stategate');
  for (const c of ['hoverProvider', 'completionProvider', 'definitionProvider', 'referencesProvider', 'renameProvider', 'documentSymbolProvider', 'codeLensProvider', 'codeActionProvider']) {
    assert.ok(result.capabilities[c], `initialize announces ${c}`);
  }
});
after(() => client.connection.dispose());

for (const row of FORMATS) {
  describe(row.format, () => {
    test('didOpen: no diagnostics for a clean file, an error with its range for a broken one', async () => {
      const clean = await openFresh(row.file, row.clean, row.languageId, row.beside);
      assert.deepEqual(clean.diagnostics, []);
      const broken = await openFresh(row.file, row.broken.text, row.languageId, row.beside);
      const error = broken.diagnostics.find((d) => d.code === row.broken.code);
      assert.ok(error, `a ${row.broken.code} diagnostic among ${JSON.stringify(broken.diagnostics.map((d) => d.code))}`);
      assert.equal(error.severity, 1, 'an error');
      assert.equal(error.source, 'stategate');
      assert.equal(textAt(row.broken.text, error.range), row.broken.covers);
    });

    if (row.completion) {
      const { after: where, offers } = row.completion;
      test(`completion after ${JSON.stringify(where)} offers ${offers.join(', ')}`, async () => {
        const { uri } = await openFresh(row.file, row.clean, row.languageId, row.beside);
        const items = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: positionAfter(row.clean, where) });
        const labels = labelsOf(items);
        for (const label of offers) assert.ok(labels.includes(label), `${label} in ${JSON.stringify(labels)}`);
      });
    }
    if (row.hover) {
      const { on, shows } = row.hover;
      test(`hover on ${JSON.stringify(on)} shows ${shows}`, async () => {
        const { uri } = await openFresh(row.file, row.clean, row.languageId, row.beside);
        const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionAfter(row.clean, on, 2) })) as Hover | null;
        assert.ok(hover, 'a hover');
        assert.match((hover.contents as MarkupContent).value, shows);
        assert.ok(hover.range, 'with the range it is about');
      });
    }
    if (!row.completion) {
      test('no completion or hover (a registry has diagnostics only)', async () => {
        const { uri } = await openFresh(row.file, row.clean, row.languageId, row.beside);
        const position = { line: 1, character: 4 };
        assert.deepEqual(labelsOf(await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })), []);
        assert.equal(await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }), null);
      });
    }
  });
}

describe('one row per request', () => {
  test('definition: a target jumps to its state', async () => {
    const { uri } = await openFresh('nav.workflow.json', WORKFLOW, 'json');
    const found = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: positionAfter(WORKFLOW, '"DONE": "', '"DONE": "'.length + 1) })) as Location[];
    assert.equal(found.length, 1);
    assert.equal(found[0]!.uri, uri);
    assert.match(textAt(WORKFLOW, found[0]!.range), /^"?done"?$/);
    assert.equal(found[0]!.range.start.line, 5, 'the state `done` on line 6');
  });

  test('references: a state, with its declaration', async () => {
    const { uri } = await openFresh('refs.statechart.yaml', CHART_YAML, 'yaml');
    const found = (await client.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: positionAfter(CHART_YAML, 'FINISH: d', 'FINISH: '.length + 1), context: { includeDeclaration: true } })) as Location[];
    assert.deepEqual(found.map((l) => textAt(CHART_YAML, l.range)).sort(), ['done', 'done']);
  });

  test('rename: prepare names the state, the edit renames it and its references', async () => {
    const { uri } = await openFresh('rename.flow.yaml', FLOW, 'yaml');
    const position = positionAfter(FLOW, 'next: finish', 'next: '.length + 1);
    const prepared = (await client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position })) as { range: Range; placeholder: string };
    assert.equal(prepared.placeholder, 'finish');
    const edit = (await client.connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position, newName: 'wrap-up' })) as WorkspaceEdit;
    const edits = edit.changes?.[uri] ?? [];
    const renamed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, FLOW), edits);
    assert.equal(renamed, FLOW.replace('next: finish', 'next: wrap-up').replace('  finish:', '  wrap-up:'));
  });

  test('rename where nothing can be renamed is refused with the reason', async () => {
    const { uri } = await openFresh('norename.workflow.json', WORKFLOW, 'json');
    await assert.rejects(client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: positionAfter(WORKFLOW, '"id"', 1) }), (e: Error) => e.message.length > 0);
  });

  test('documentSymbol: the outline lists the states', async () => {
    const { uri } = await openFresh('outline.workflow.json', WORKFLOW, 'json');
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(symbols.map((s) => s.name), ['reading', 'done']);
  });

  test('codeLens: start run and per-state in/out, with the commands the client said it runs', async () => {
    const { uri } = await openFresh('lens.workflow.json', WORKFLOW, 'json');
    const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    const commands = lenses.map((l) => [l.command?.title, l.command?.command]);
    assert.deepEqual(commands.find(([, c]) => c === 'stategate.startRun'), ['▶ Start run', 'stategate.startRun']);
    assert.ok(lenses.find((l) => l.command?.command === 'stategate.startRun')?.command?.arguments?.[0] === uri, 'the run lens names the file');
    assert.ok(commands.some(([, c]) => c === 'editor.action.showReferences'), JSON.stringify(commands));
  });

  test('codeLens: a client that runs none of the commands (not VS Code) gets no lens it could not follow', async () => {
    const other = startServer();
    try {
      await initialize(other, ws);
      const { uri } = await other.open(path.join(ws, `case-${++fresh}`), 'lens.workflow.json', WORKFLOW, 'json');
      assert.deepEqual(await other.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } }), []);
    } finally {
      other.connection.dispose();
    }
  });

  test('a JSON syntax error is one diagnostic: left to an editor that reports it (VS Code\'s JSON service), reported to any other', async () => {
    const missingComma = WORKFLOW.replace('"initial": "reading",', '"initial": "reading"');
    // Any other editor (and `stategate lsp`): the server reports it.
    const plain = await openFresh('comma.workflow.json', missingComma, 'json');
    assert.deepEqual(plain.diagnostics.map((d) => d.code), ['json-syntax']);
    const vscodeLike = startServer();
    try {
      await initialize(vscodeLike, ws, { editorReportsJsonSyntax: true });
      const dir = path.join(ws, `case-${++fresh}`);
      const json = await vscodeLike.open(dir, 'comma.workflow.json', missingComma, 'json');
      assert.deepEqual(json.diagnostics, [], 'VS Code\'s JSON service reports the missing comma; the server does not repeat it');
      // What is stategate's own stays: a nesting past the cap, and the checks of a well-formed file.
      const deep = await vscodeLike.open(dir, 'deep.workflow.json', `{"id": "x", "initial": "a", "states": {"a": {"type": "final"}}, "meta": ${'['.repeat(300)}${']'.repeat(300)}}`, 'json');
      assert.ok(deep.diagnostics.some((d) => d.code === 'json-syntax' && /levels deep/.test(String(d.message))), JSON.stringify(deep.diagnostics));
      const typo = await vscodeLike.open(dir, 'typo.workflow.json', WORKFLOW.replace('"DONE": "done"', '"DONE": "dne"'), 'json');
      assert.deepEqual(typo.diagnostics.map((d) => d.code), ['unknown-target']);
      // json.validate.enable turned off: the client says so and the server reports the syntax error again.
      const again = vscodeLike.diagnosticsOf(json.uri);
      await vscodeLike.connection.sendNotification(JSON_SYNTAX_NOTIFICATION, false);
      assert.deepEqual((await again).map((d) => d.code), ['json-syntax']);
    } finally {
      vscodeLike.connection.dispose();
    }
  });

  test('codeAction: a quick fix for an unknown target, whose edit leaves a clean file', async () => {
    const broken = WORKFLOW.replace('"DONE": "done"', '"DONE": "dne"');
    const { uri, diagnostics } = await openFresh('fix.workflow.json', broken, 'json');
    const shown = diagnostics.filter((d: Diagnostic) => d.code === 'unknown-target');
    assert.equal(shown.length, 1);
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: shown[0]!.range, context: { diagnostics: shown } })) ?? [];
    const fix = actions.find((a) => 'title' in a && a.title === 'Change to `done`') as { edit?: WorkspaceEdit } | undefined;
    assert.ok(fix?.edit?.changes?.[uri], JSON.stringify(actions.map((a) => a.title)));
    assert.equal(TextDocument.applyEdits(TextDocument.create(uri, 'json', 1, broken), fix.edit.changes[uri]), WORKFLOW);
  });

  test('didChange: the edited document is checked again (after the typing pause)', async () => {
    const { uri, diagnostics } = await openFresh('change.workflow.json', WORKFLOW, 'json');
    assert.deepEqual(diagnostics, []);
    const at = positionAfter(WORKFLOW, '"DONE": "done', '"DONE": "'.length);
    const next = client.diagnosticsOf(uri);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: at, end: { line: at.line, character: at.character + 4 } }, text: 'doen' }],
    });
    const changed = await next;
    // One mistake, one diagnostic: `done`, which the typo meant, is not also reported unreachable.
    assert.deepEqual(changed.map((d) => d.code), ['unknown-target']);
  });
});

describe('across the workspace', () => {
  const SHIP = '{\n  "id": "ship",\n  "initial": "building",\n  "states": {\n    "building": { "on": { "BUILT": { "invoke": "lint-fix", "on_complete": "shipped", "on_fail": "building" } } },\n    "shipped": { "type": "final" }\n  }\n}\n';
  const workflow = (id: string): string => WORKFLOW.replace('"id": "review"', `"id": "${id}"`);

  test('invoke ids come from the workspace folder named at initialize (node_modules left out), and follow watched-file changes', async () => {
    const root = tempDir('lsp-workspace-');
    const write = (file: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write('deep/nested/lint-fix.workflow.json', workflow('lint-fix'));
    write('node_modules/pkg/hidden.workflow.json', workflow('hidden'));
    const other = startServer();
    try {
      await initialize(other, root);
      const { uri } = await other.open(root, 'ship.workflow.json', SHIP, 'json');
      const ids = async (): Promise<string[]> => labelsOf(await other.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: positionAfter(SHIP, '"invoke": "') }));
      assert.deepEqual((await ids()).sort(), ['lint-fix'], 'its own id is not offered');
      const target = (await other.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: positionAfter(SHIP, '"invoke": "', '"invoke": "'.length + 2) })) as Location[];
      assert.deepEqual(target.map((l) => l.uri), [pathToFileURL(path.join(root, 'deep/nested/lint-fix.workflow.json')).href], 'definition opens the invoked workflow\'s file');
      write('later.workflow.json', workflow('later'));
      await other.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(path.join(root, 'later.workflow.json')).href, type: FileChangeType.Created }] });
      assert.deepEqual((await ids()).sort(), ['later', 'lint-fix']);
    } finally {
      other.connection.dispose();
    }
  });
});

describe('input that must not crash the server', () => {
  test('garbage in a workflow file: syntax errors, and the server still answers', async () => {
    const garbage = 'garbage {{{ ]]] \u0000 not json \ud800';
    const { uri, diagnostics } = await openFresh('garbage.workflow.json', garbage, 'json');
    assert.ok(diagnostics.some((d) => d.code === 'json-syntax' && d.severity === 1), JSON.stringify(diagnostics));
    for (const position of [{ line: 0, character: 3 }, { line: 99, character: 99 }]) {
      await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
      await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
      await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    }
  });

  test('a YAML document past the size cap gets one diagnostic that says so, and no check', async () => {
    const huge = `statechart:\n  id: huge\n  initial: a\n  states:\n    a: {}\n# ${'x'.repeat(MAX_YAML_LENGTH)}\n`;
    const { uri, diagnostics } = await openFresh('huge.statechart.yaml', huge, 'yaml');
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics.map((d) => d.code)));
    assert.equal(diagnostics[0]!.severity, 1);
    assert.match(diagnostics[0]!.message as string, /at most 1,000,000 characters/);
    assert.equal(await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 4, character: 5 } }), null);
  });

  test('requests about a document that was never opened get nothing', async () => {
    const uri = 'file:///nowhere/never-opened.workflow.json';
    assert.equal(await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }), null);
  });

  test('a JSON file that is none of ours gets no diagnostics', async () => {
    const dir = path.join(ws, `case-${++fresh}`);
    fs.mkdirSync(dir, { recursive: true });
    const other = `${pathToFileURL(dir).href}/package.json`;
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: other, languageId: 'json', version: 1, text: '{ "name": "x", "initial": 1 }' } });
    // The server answers messages in order and publishes on open: a workflow opened after it has its diagnostics after any of package.json's.
    await client.open(dir, 'after.workflow.json', WORKFLOW, 'json');
    assert.ok(!client.published.includes(other), 'nothing published for package.json');
  });
});
