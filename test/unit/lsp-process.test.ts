/**
 * `stategate lsp --stdio` as an editor starts it: the built CLI spawned, spoken
 * to over its stdin/stdout. The process boundary is what this tests (the
 * command's bundle, stdio framing, exit on `exit`); the features are
 * lsp-protocol.test.ts's, in process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ExitNotification, HoverRequest, ShutdownRequest, type Hover, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { CLI, requireBuiltCli } from './helpers/cli';
import { initialize, lspClient } from './helpers/lsp-client';
import { tempDir } from './helpers/temp-dir';

const CHART = 'statechart:\n  id: tiny\n  initial: work\n  states:\n    work:\n      on:\n        FINISH: nowhere\n    done:\n      type: final\n';

test('stategate lsp --stdio: initialize, didOpen -> diagnostics, hover, then shutdown and exit 0', { timeout: 60_000 }, async () => {
  requireBuiltCli();
  const ws = tempDir('lsp-process-');
  const child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: ws, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  try {
    const client = lspClient(child.stdout, child.stdin);
    const init = (await initialize(client, ws)) as { serverInfo?: { name: string } };
    assert.equal(init.serverInfo?.name, 'stategate');
    const { uri, diagnostics } = await client.open(ws, 'tiny.statechart.yaml', CHART, 'yaml');
    assert.ok(diagnostics.some((d) => d.code === 'chart-unknown-target' && d.range.start.line === 6), JSON.stringify(diagnostics));
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 4, character: 5 } })) as Hover | null;
    assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /work/);
    await client.connection.sendRequest(ShutdownRequest.type);
    await client.connection.sendNotification(ExitNotification.type);
    const [code] = await exited;
    assert.equal(code, 0, stderr);
  } finally {
    child.kill();
  }
});
