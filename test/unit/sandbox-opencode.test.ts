/**
 * OpenCode's gate is stategate's own plugin (src/engine/clients/opencode-plugin.ts):
 * an allowed shell call comes back from `stategate hook --client opencode` as
 * `updated_input`, and the plugin puts it into `output.args`, which OpenCode
 * then runs (issue 29, Deliver 4). The generated plugin is loaded as OpenCode
 * loads it (an ES module) and its `tool.execute.before` called with OpenCode's
 * arguments: first against answers written by hand, then against the real hook.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, type TestContext } from 'node:test';
import { openCodePlugin } from '../../src/engine/clients/opencode-plugin';
import { cli, CLI } from './helpers/cli';
import { bwrapOrSkip } from './helpers/sandbox';
import { tempDir } from './helpers/temp-dir';

type Before = (input: object, output: { args: Record<string, unknown> }) => Promise<void>;

async function pluginAsking(t: TestContext, command: string, directory: string): Promise<Before> {
  const dir = tempDir('sg-oc-plugin-', t);
  const file = path.join(dir, 'stategate.mjs');
  fs.writeFileSync(file, openCodePlugin(command));
  const mod = (await import(pathToFileURL(file).href)) as { StategatePlugin: (ctx: { directory: string }) => Promise<Record<string, Before>> };
  return (await mod.StategatePlugin({ directory }))['tool.execute.before']!;
}

const answer = (json: object): string => `cat >/dev/null; printf '%s' '${JSON.stringify(json)}'`;

test('the plugin puts updated_input in place of the arguments, keeps the rest, and still throws on a denial', async (t) => {
  const rows: [hook: string, want: Record<string, unknown> | RegExp][] = [
    [answer({ decision: 'allow', updated_input: { command: 'WRAPPED', description: 'd' } }), { command: 'WRAPPED', description: 'd', timeout: 5 }],
    [answer({ decision: 'allow' }), { command: 'echo hi', description: 'd', timeout: 5 }],
    [answer({ decision: 'deny', reason: 'no' }), /^no$/],
  ];
  for (const [hook, want] of rows) {
    const before = await pluginAsking(t, hook, '/');
    const output = { args: { command: 'echo hi', description: 'd', timeout: 5 } as Record<string, unknown> };
    const call = before({ tool: 'bash', sessionID: 's', callID: 'c' }, output);
    if (want instanceof RegExp) await assert.rejects(call, (err: Error) => want.test(err.message));
    else {
      await call;
      assert.deepEqual(output.args, want);
    }
  }
});

test('with the real hook, an allowed bash call is rewritten to run in the sandbox', async (t) => {
  if (!bwrapOrSkip(t)) return;
  const ws = fs.realpathSync(tempDir('sg-oc-ws-', t));
  fs.writeFileSync(path.join(ws, 'x.workflow.json'), JSON.stringify({ id: 'x', initial: 'a', states: { a: { allowed_tools: ['bash'], on: { GO: 'b' } }, b: { type: 'final' } } }));
  assert.equal(cli(['run', 'start', 'x.workflow.json'], { cwd: ws }).code, 0);
  const before = await pluginAsking(t, `'${process.execPath}' '${CLI}' hook --client opencode`, ws);
  const output = { args: { command: 'echo hi', description: 'd' } as Record<string, unknown> };
  await before({ tool: 'bash', sessionID: 's', callID: 'c1' }, output);
  assert.match(String(output.args['command']), /^'\/[^']*bwrap' .* '--' '\/bin\/bash' '-c' 'echo hi'$/);
  assert.equal(output.args['description'], 'd');
});
