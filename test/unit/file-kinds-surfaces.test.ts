/**
 * Every surface reads a name in other case as it reads the lowercase name
 * (src/engine/formats/file-kinds.ts): `stategate validate` (the CLI's entry, in
 * this process), the language server at the protocol level, `run start` and the
 * workspace's workflow list. Each odd-case file has a lowercase twin in a folder
 * of its own; a surface must answer the same for both, and the server as the CLI.
 * Before the one module, the chart registry and the workflow list matched
 * `.statechart.` in lowercase only (a child chart named `Child.Statechart.YML`
 * was "no statechart `child`"), an invoke looked for its callee in `*.json` only
 * (not `Callee.Workflow.JSON`), and the server left `Review.Workflow.json` unchecked.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { serve } from '../../src/lsp/server';
import { findWorkflows } from '../../src/engine/formats/workspace-workflows';
import { cliInProcess } from './helpers/cli-in-process';
import { initialize, lspClient, type LspClient } from './helpers/lsp-client';
import { tempDir } from './helpers/temp-dir';

const PARENT = 'statechart:\n  id: parent\n  initial: working\n  states:\n    working:\n      invoke:\n        src: "statechart:child"\n        onDone: finished\n    finished:\n      type: final\n';
const CHILD = 'statechart:\n  id: child\n  initial: only\n  states:\n    only:\n      type: final\n';
const BROKEN_WORKFLOW = '{\n  "id": "review",\n  "initial": "reading",\n  "states": {\n    "reading": { "on": { "DONE": "nowhere", "FINISH": "done" } },\n    "done": { "type": "final" }\n  }\n}\n';
const BROKEN_FLOW = 'start-at: build\nstates:\n  build:\n    tool: bash\n    arguments:\n      command: make\n    next: nowhere\n';
const PLAIN_CHART = CHILD.replace('id: child', 'id: registered');
const CALLER = '{\n  "id": "caller",\n  "initial": "asking",\n  "states": {\n    "asking": { "on": { "GO": { "invoke": "callee", "on_complete": "done" } } },\n    "done": { "type": "final" }\n  }\n}\n';
const CALLEE = '{\n  "id": "callee",\n  "initial": "working",\n  "states": {\n    "working": { "on": { "DONE": "done" } },\n    "done": { "type": "final" }\n  }\n}\n';

/** The odd-case name, its lowercase twin, the editor's language, and what `validate --json` reports for the twin (errors and warnings). */
const FILES: readonly { odd: string; even: string; languageId: string; format: string; codes: readonly string[] }[] = [
  { odd: 'Parent.Statechart.yaml', even: 'parent.statechart.yaml', languageId: 'yaml', format: 'statechart', codes: [] },
  { odd: 'Child.Statechart.YML', even: 'child.statechart.yml', languageId: 'yaml', format: 'statechart', codes: [] },
  { odd: 'Review.Workflow.json', even: 'review.workflow.json', languageId: 'json', format: 'statewright', codes: ['unknown-target'] },
  { odd: 'Build.Flow.YAML', even: 'build.flow.yaml', languageId: 'yaml', format: 'flow', codes: ['flow-unknown-target'] },
  // A workflow's invoke finds its callee among the JSON files beside it, `.JSON` too.
  { odd: 'Caller.Workflow.JSON', even: 'caller.workflow.json', languageId: 'json', format: 'statewright', codes: [] },
  { odd: 'Callee.Workflow.JSON', even: 'callee.workflow.json', languageId: 'json', format: 'statewright', codes: [] },
];
const TEXT: Record<string, string> = { parent: PARENT, child: CHILD, review: BROKEN_WORKFLOW, build: BROKEN_FLOW, caller: CALLER, callee: CALLEE };
const textOf = (name: string): string => TEXT[name.split('.')[0]!.toLowerCase()]!;

let ws: string;
let client: LspClient;

function startServer(): LspClient {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  serve(createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient)));
  return lspClient(toClient, toServer);
}

before(async () => {
  ws = tempDir('file-kinds-surfaces-');
  for (const f of FILES) {
    for (const [dir, name] of [['odd', f.odd], ['even', f.even]] as const) {
      fs.mkdirSync(path.join(ws, dir), { recursive: true });
      fs.writeFileSync(path.join(ws, dir, name), textOf(f.even));
    }
  }
  // The `statecharts/` convention, in other case: a plain chart the workflow list reads by its content.
  for (const dir of ['odd/Statecharts', 'even/statecharts']) {
    fs.mkdirSync(path.join(ws, dir), { recursive: true });
    fs.writeFileSync(path.join(ws, dir, 'registered.yaml'), PLAIN_CHART);
  }
  client = startServer();
  await initialize(client, ws);
});
after(() => client.connection.dispose());

async function validate(file: string): Promise<{ format: string; codes: string[] }> {
  const r = await cliInProcess(['validate', '--json', file], { cwd: ws });
  const report = (r.json as { files: { format: string; diagnostics: { code: string; severity: string }[] }[] }).files[0]!;
  return { format: report.format, codes: report.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => d.code) };
}

/** The server's error and warning codes for a document, or undefined when it publishes none in 3 s (a document it does not check). */
async function serverErrors(file: string, languageId: string): Promise<string[] | undefined> {
  const opened = client.open(ws, file, fs.readFileSync(path.join(ws, file), 'utf8'), languageId).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  // Not unref'd: the wait itself must keep the test alive until it ends.
  const quiet = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 3000)));
  try {
    const got = await Promise.race([opened, quiet]);
    return got?.diagnostics.filter((d: Diagnostic) => d.severity === 1 || d.severity === 2).map((d) => String(d.code));
  } finally {
    clearTimeout(timer);
  }
}

describe('a name in other case is read as its lowercase twin', () => {
  for (const f of FILES) {
    test(`stategate validate: ${f.odd} as ${f.even} (${f.format}, ${f.codes.join(', ') || 'clean'})`, async () => {
      assert.deepEqual(await validate(`even/${f.even}`), { format: f.format, codes: f.codes }, 'the twin');
      assert.deepEqual(await validate(`odd/${f.odd}`), { format: f.format, codes: f.codes });
    });

    test(`the language server: ${f.odd} has the findings validate reports`, async () => {
      assert.deepEqual(await serverErrors(`even/${f.even}`, f.languageId), f.codes, 'the twin');
      assert.deepEqual(await serverErrors(`odd/${f.odd}`, f.languageId), f.codes);
    });
  }

  test('run start: a chart invokes its child from a file named in other case', async () => {
    const r = await cliInProcess(['run', 'start', 'odd/Parent.Statechart.yaml'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr || r.stdout);
    await cliInProcess(['run', 'stop'], { cwd: ws });
  });

  test("the workspace's workflow list holds the odd-case charts as it holds their twins", () => {
    const listed = findWorkflows(ws).map((w) => path.relative(ws, w.file).split(path.sep).join('/'));
    const odd = listed.filter((f) => f.startsWith('odd/')).map((f) => f.slice(4).toLowerCase()).sort();
    const even = listed.filter((f) => f.startsWith('even/')).map((f) => f.slice(5)).sort();
    assert.deepEqual(even, ['callee.workflow.json', 'caller.workflow.json', 'child.statechart.yml', 'parent.statechart.yaml', 'review.workflow.json', 'statecharts/registered.yaml'], 'the twins');
    assert.deepEqual(odd, even);
  });
});
