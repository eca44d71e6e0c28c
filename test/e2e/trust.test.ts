// Workspace trust in the real VS Code: in Restricted Mode stategate validates and
// shows (diagnostics, the run in the status bar), but installs no hooks, starts no
// MCP server and starts no run (package.json: capabilities.untrustedWorkspaces).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { withVsCode, type VsCode } from './harness';

const RUN_ITEM = 'stategate.run';

/** The installed extension's own CLI bundle. */
function installedCli(vsc: VsCode): string {
  const ext = fs.readdirSync(vsc.extensionsDir).find((d) => d.startsWith('stategate.stategate-'));
  assert.ok(ext, 'stategate is installed');
  return path.join(vsc.extensionsDir, ext, 'dist', 'cli.js');
}

function runIds(vsc: VsCode): string[] {
  try {
    return fs.readdirSync(path.join(vsc.workspaceDir, '.stategate', 'runs')).sort();
  } catch {
    return [];
  }
}

function activeId(vsc: VsCode): string {
  try {
    return fs.readFileSync(path.join(vsc.workspaceDir, '.stategate', 'active'), 'utf8').trim();
  } catch {
    return '';
  }
}

/** Processes started from the installed extension's CLI bundle with `mcp` (a stategate MCP server of this VS Code). */
function mcpServers(vsc: VsCode): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(vsc.extensionsDir) && / mcp(\s|$)/.test(l));
}

/** Every hook or settings file an agent would read, as written in this workspace. */
function hookFiles(vsc: VsCode): string[] {
  const candidates = ['.github/hooks', '.claude/settings.json', '.claude/settings.local.json', '.vscode/mcp.json'];
  return candidates.filter((p) => fs.existsSync(path.join(vsc.workspaceDir, p)));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('Restricted Mode: diagnostics and the run show, but no hooks, no MCP server, no run started from a workflow', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: 'test/e2e/fixtures/trust', restricted: true }, async (vsc) => {
    const ready = await vsc.hostReady();
    assert.equal(ready.trusted, false, 'the folder opened in Restricted Mode');

    // Each promise is its own subtest, so one that fails does not hide the others.
    await t.test('validates: the broken workflow\'s error is in the Problems panel', async () => {
      await vsc.openFile('broken.workflow.json');
      let problems: string[] = [];
      const end = Date.now() + 30_000;
      while (!problems.some((p) => p.includes('nowhere_state')) && Date.now() < end) {
        problems = await vsc.problems();
        if (!problems.some((p) => p.includes('nowhere_state'))) await sleep(500);
      }
      assert.ok(problems.some((p) => p.includes('nowhere_state')), `diagnostics show in Restricted Mode: ${problems.join(' | ')}`);
    });

    // Shows: a run started outside VS Code (the CLI) appears in the status bar.
    const cli = installedCli(vsc);
    const started = spawnSync(process.execPath, [cli, 'run', 'start', 'review.workflow.json'], { cwd: vsc.workspaceDir, encoding: 'utf8' });
    assert.equal(started.status, 0, started.stderr);
    const runId = (JSON.parse(started.stdout) as { run_id: string }).run_id;
    await t.test('shows: a run started by the CLI appears in the status bar', async () => {
      await vsc.waitForStatusBar(RUN_ITEM, (text) => text === 'review › reading', 30_000);
      await vsc.screenshot('trust-restricted-shows-run');
    });

    await t.test('runs nothing: Start Workflow Run starts no run', async () => {
      await vsc.executeCommand('stategate.startRun', path.join(vsc.workspaceDir, 'review.workflow.json')).catch((e: unknown) => t.diagnostic(`startRun: ${String(e)}`));
      await sleep(1000);
      assert.deepEqual(runIds(vsc), [runId], 'Start Workflow Run started no run in Restricted Mode');
      assert.equal(activeId(vsc), runId, 'the active run is unchanged');
    });

    await t.test('installs no hooks: Enable Agent Enforcement refuses, says why, writes nothing', async () => {
      await vsc.executeCommand('stategate.enableEnforcement').catch((e: unknown) => t.diagnostic(`enableEnforcement: ${String(e)}`));
      await sleep(1500);
      assert.deepEqual(hookFiles(vsc), [], 'no hook files in Restricted Mode');
      const notes = await vsc.notifications();
      assert.ok(notes.some((n) => /trusted workspaces only/i.test(n)), `a warning says why: ${notes.join(' | ')}`);
    });

    await t.test('starts no MCP server and writes no agent files', async () => {
      await sleep(2000);
      assert.deepEqual(mcpServers(vsc), [], 'no stategate MCP server runs for an untrusted workspace');
      assert.deepEqual(hookFiles(vsc), [], 'still no hook files after activation settled');
    });
    await vsc.screenshot('trust-restricted');
  });
});
