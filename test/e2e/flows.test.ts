// Flows in the real VS Code, with the scripted language model
// (test/e2e/scripted-model) standing in for a real one:
// - a flow run from its ▶ Run flow lens (the palette when the lens is not
//   there): the first-run confirmation lists what it will run, each state's
//   output shows live in the run's terminal, an ask-user state is answered in
//   the input box and a claude state is answered by the scripted model, its
//   answer streamed into the terminal (seen half-sent);
// - a flow file allowed once runs again without asking, until its content changes;
//   one trusted in a terminal (`stategate trust`, custom tool registry included)
//   is not asked about, until the registry changes;
// - a flow that pauses is resumed from the Flows view's inline Resume action,
//   a running one paused by its Pause action (after its state), and a running
//   one stopped by its Stop action;
// - a flow paused from the CLI puts Resume and Stop Flow in the palette before
//   any flow code loads in the window;
// - a flow file named in other case has the lens and the editor's Run Flow button;
// - in Restricted Mode no flow runs, and a message says why.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { listFlows } from '../../src/engine/index';
import { instanceFile } from '../../src/engine/flow/instance-store';
import { hostRunnerVsix, REPO_ROOT, STATEGATE_VSIX, waitUntil, withVsCode, type VsCode } from './harness';
import { scriptedModelVsix } from './scripted-model/build';

const WORKSPACE = 'test/e2e/fixtures/flows';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = <T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000) => waitUntil(what, check, timeoutMs, 200);

/** The state panel's diagram of a flow instance: its states, the highlighted one, those marked as run. */
async function panelDiagram(vsc: VsCode, inst: string): Promise<{ states: string[]; current: string[]; visited: string[] }> {
  const f = await vsc.webviewFrame(`[data-testid="flow"][data-instance="${inst}"]`, 2_000);
  const nodes = await f.$$('[data-testid="diagram-state"]');
  const out = { states: [] as string[], current: [] as string[], visited: [] as string[] };
  for (const n of nodes) {
    const state = (await n.getAttribute('data-state')) ?? '';
    out.states.push(state);
    if ((await n.getAttribute('data-current')) === 'true') out.current.push(state);
    if ((await n.getAttribute('data-visited')) === 'true') out.visited.push(state);
  }
  return out;
}

function instance(vsc: VsCode, flow: string) {
  return listFlows(vsc.workspaceDir).find((f) => f.flow === flow);
}

/** Whether a pause was asked of a running instance (its record says so; the runner clears it as it pauses). */
function pauseAsked(vsc: VsCode, id: string): boolean {
  try {
    const rec = JSON.parse(fs.readFileSync(instanceFile(vsc.workspaceDir, id), 'utf8')) as { pause_requested?: boolean; status?: string };
    return rec.pause_requested === true || rec.status === 'paused';
  } catch {
    return false;
  }
}

/** Runs the open flow file from its ▶ Run flow lens, or from the palette when no lens shows. */
async function runOpenFlow(vsc: VsCode): Promise<'lens' | 'palette'> {
  const lens = vsc.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: /Run flow/ }).first();
  if (await lens.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) {
    await lens.click();
    return 'lens';
  }
  await vsc.runCommand('stategate: Run Flow');
  return 'palette';
}

/** The first-run confirmation: returns its text and presses Run Flow. */
async function confirmRun(vsc: VsCode): Promise<string> {
  const dialog = vsc.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 15_000 });
  const text = await dialog.innerText();
  await dialog.getByRole('button', { name: 'Run Flow' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
  return text;
}

async function terminalShows(vsc: VsCode, ...texts: string[]): Promise<string> {
  let shown = '';
  await until(`the terminal to show ${texts.join(', ')}`, async () => {
    shown = await vsc.terminalText();
    return texts.every((t) => shown.includes(t));
  }).catch((e: Error) => {
    e.message += `\nthe terminal shows:\n${shown}`;
    throw e;
  });
  return shown;
}

/** Runs `<flow>.flow.yaml` from its lens (confirmed), waits for `firstOutput` in the terminal, and returns its Flows view row once it shows running. */
async function runningRow(vsc: VsCode, flow: string, firstOutput: string): Promise<Locator> {
  await vsc.openFile(`${flow}.flow.yaml`);
  await runOpenFlow(vsc);
  await confirmRun(vsc);
  await terminalShows(vsc, firstOutput);
  await vsc.executeCommand('stategate.flows.focus');
  const row = vsc.page.locator('.monaco-list-row', { hasText: `${flow}-1` }).first();
  await until(`the Flows view to show ${flow}-1 running`, async () => /running/.test(await row.innerText()));
  return row;
}

/**
 * A Flows view row's inline action (shown on hover). With `took`, the click is
 * checked by its effect and made again (up to three times) when it had none:
 * the view re-renders its rows as a running flow writes, and a click that lands
 * while a row is replaced is lost (a fresh-clone run once waited 30 s on a
 * pause that was never asked).
 */
async function clickRowAction(row: Locator, label: string, took?: () => boolean): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await row.hover();
    await row.locator(`.action-label[aria-label="${label}"]`).click();
    if (!took) return;
    const done = await waitUntil(`${label} to take effect`, async () => took(), 5_000).then(() => true, () => false);
    if (done) return;
    if (attempt === 3) throw new Error(`${label}: three clicks on the Flows view row had no effect`);
  }
}

test('flows: run from the lens with live output, ask-user in the input box, the model answers, a pause resumed from the Flows view', { timeout: 300_000 }, async (t) => {
  const options = { workspace: WORKSPACE, extensions: [STATEGATE_VSIX, await hostRunnerVsix(), await scriptedModelVsix()], viewport: { width: 1400, height: 900 } };
  await withVsCode(t, options, async (vsc) => {
    await vsc.hostReady();
    // The model's answer holds after its first words (scripted-model: `|hold|`) until the test releases it.
    await vsc.executeCommand('scriptedModel.setPlainScript', ['Warm greetings to you, |hold|Ada, from all of us!']);

    await t.test('a flow paused from the CLI: Resume and Stop Flow are in the palette before the Flows view opens, and leave it once the flow is stopped (issue 32, item 7)', async () => {
      // `stategate flow` in a shell of its own, as a run from an earlier window or a script is: the window has loaded no flow code yet.
      const flowCli = (...args: string[]) => spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist', 'cli.js'), 'flow', ...args], { cwd: vsc.workspaceDir, encoding: 'utf8' });
      // Removed after, failed or not: the tests below find the wait flow's instance by its flow's name.
      try {
        assert.equal(flowCli('run', 'wait.flow.yaml', '--name', 'cli-wait').status, 0);
        const palette = async (query: string): Promise<string[]> => (await vsc.paletteItems(`stategate: ${query}`)).filter((p) => p.includes(query));
        await until('the palette to offer Resume Flow for the paused flow', async () => (await palette('Resume Flow')).length === 1);
        assert.equal((await palette('Stop Flow')).length, 1, 'a paused flow can be stopped');
        assert.deepEqual(await palette('Pause Flow'), [], 'no running flow: no Pause Flow');
        assert.equal(flowCli('stop', 'cli-wait').stdout.includes('"status": "stopped"'), true);
        let left: string[] = [];
        await until('Resume Flow to leave the palette once the flow is stopped', async () => (left = await palette('Resume Flow')).length === 0).catch((e: Error) =>
          Promise.reject(Object.assign(e, { message: `${e.message}: the palette lists ${JSON.stringify(left)}; the flows: ${JSON.stringify(listFlows(vsc.workspaceDir).map((f) => [f.instance, f.status]))}` })),
        );
        assert.deepEqual(await palette('Stop Flow'), [], 'nothing to stop');
      } finally {
        fs.rmSync(path.join(vsc.workspaceDir, '.stategate', 'flows', 'cli-wait'), { recursive: true, force: true });
      }
    });

    await t.test('a flow named in other case (Greet.Flow.YAML) has the ▶ Run flow lens and the editor\'s Run Flow button, as a .flow.yaml has', async () => {
      // Names are read in any case (src/engine/formats/file-kinds.ts); the button's `when` clause is package.json's regex.
      fs.writeFileSync(path.join(vsc.workspaceDir, 'Greet.Flow.YAML'), 'start-at: greet\nstates:\n  greet:\n    tool: bash\n    arguments:\n      command: echo hi\n');
      await vsc.openFile('Greet.Flow.YAML');
      await vsc.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: /Run flow/ }).first().waitFor({ state: 'visible', timeout: 20_000 });
      await vsc.page.locator('.editor-group-container.active .title .editor-actions [aria-label*="Run Flow"]').first().waitFor({ state: 'visible', timeout: 10_000 });
    });

    await t.test('a run from the lens: confirmation, terminal output, input box, scripted model', async () => {
      await vsc.openFile('hello.flow.yaml');
      const how = await runOpenFlow(vsc);
      t.diagnostic(`run from the ${how}`);
      const asked = await confirmRun(vsc);
      assert.match(asked, /Run the flow hello\.flow\.yaml\?/);
      assert.match(asked, /build \(bash\): echo "building the greeting"/);
      assert.match(asked, /ask-name \(ask-user\): Who should be greeted\?/);
      assert.match(asked, /polish \(claude\): Say this more warmly: \{\{ greeting \}\}/);

      // The input box of the ask-user state, after the first state's output is in the terminal.
      const box = vsc.page.locator('.quick-input-widget');
      await box.getByText('Who should be greeted?').waitFor({ state: 'visible', timeout: 30_000 });
      await terminalShows(vsc, 'building the greeting', 'warming up', 'built');
      await vsc.page.locator('.quick-input-widget .quick-input-box input').fill('Ada');
      await vsc.page.keyboard.press('Enter');

      // The model's answer streams into the terminal: its first words show while the claude state still runs.
      const half = await terminalShows(vsc, 'Hello, Ada!', '▶ polish (claude)', 'Warm greetings to you,');
      assert.ok(!half.includes('from all of us'), `the rest of the answer is not sent yet:\n${half}`);
      assert.deepEqual([instance(vsc, 'hello')?.status, instance(vsc, 'hello')?.state], ['running', 'polish']);
      assert.equal(await vsc.executeCommand('scriptedModel.release'), true, 'the answer was held');

      const shown = await terminalShows(vsc, 'Hello, Ada!', 'Warm greetings to you, Ada, from all of us!', 'saved greeting.txt', 'completed');
      assert.equal(fs.readFileSync(path.join(vsc.workspaceDir, 'greeting.txt'), 'utf8'), 'Warm greetings to you, Ada, from all of us!\n');
      const asks = (await vsc.executeCommand('scriptedModel.utility')) as { messages: { parts: { value?: string }[] }[] }[];
      assert.ok(
        asks.some((r) => r.messages.some((m) => m.parts.some((p) => p.value === 'Say this more warmly: Hello, Ada!'))),
        `the model got the templated prompt: ${JSON.stringify(asks)}`,
      );
      assert.equal(instance(vsc, 'hello')?.status, 'completed', shown);

      await vsc.executeCommand('stategate.flows.focus');
      await vsc.page.locator('.monaco-list-row', { hasText: 'hello-1' }).first().waitFor({ timeout: 15_000 });
      // The screenshot for the README and docs/flows.md: only once the panel beside has drawn the flow (it was taken empty once).
      await until('the panel to draw hello-1', async () => (await panelDiagram(vsc, 'hello-1').catch(() => undefined))?.states.includes('polish') === true);
      const shot = await vsc.screenshot('flow-run');
      fs.mkdirSync(path.join(REPO_ROOT, 'docs', 'images'), { recursive: true });
      fs.copyFileSync(shot, path.join(REPO_ROOT, 'docs', 'images', 'flow-run.png'));
    });

    await t.test('a pause resumed from the Flows view', async () => {
      await vsc.openFile('wait.flow.yaml');
      await runOpenFlow(vsc);
      await confirmRun(vsc);
      await until('the wait flow to pause', () => instance(vsc, 'wait')?.status === 'paused');
      await terminalShows(vsc, 'before the pause', 'paused');
      assert.equal(fs.existsSync(path.join(vsc.workspaceDir, 'resumed.txt')), false);
      // The state panel opened beside as the run started: the flow's diagram with the pause highlighted.
      let diagram = { states: [] as string[], current: [] as string[], visited: [] as string[] };
      await until('the panel to highlight the pause state of wait-1', async () => {
        diagram = await panelDiagram(vsc, 'wait-1').catch(() => diagram);
        return diagram.current.join() === 'hold';
      }).catch((e: Error) => ((e.message += `\nthe panel shows ${JSON.stringify(diagram)}`), Promise.reject(e)));
      assert.deepEqual([...diagram.states].sort(), ['after', 'before', 'hold']);
      // The states that ran: before, and the pause itself (its log line is written as it pauses); not after.
      assert.ok(diagram.visited.includes('before') && !diagram.visited.includes('after'), JSON.stringify(diagram));

      await vsc.executeCommand('stategate.flows.focus');
      const row = vsc.page.locator('.monaco-list-row', { hasText: 'wait-1' }).first();
      await until('the Flows view to show wait-1 paused', async () => /paused/.test(await row.innerText()));
      await clickRowAction(row, 'Resume Flow');
      await until('the wait flow to complete', () => instance(vsc, 'wait')?.status === 'completed');
      assert.ok(fs.existsSync(path.join(vsc.workspaceDir, 'resumed.txt')), 'the state after the pause ran');
      await terminalShows(vsc, 'after the pause', 'completed');
      await until('the Flows view to show wait-1 completed', async () => /completed/.test(await row.innerText()));
      await until('the panel to show wait-1 ended (no state highlighted, every one run)', async () => {
        const d = await panelDiagram(vsc, 'wait-1').catch(() => undefined);
        return d?.current.length === 0 && d.visited.length === 3;
      });

      // "Show in Panel" on another row switches the panel to that instance.
      const hello = vsc.page.locator('.monaco-list-row', { hasText: 'hello-1' }).first();
      await clickRowAction(hello, 'Show in Panel');
      await until('the panel to show hello-1', async () => (await panelDiagram(vsc, 'hello-1').catch(() => undefined))?.states.includes('ask-name') === true);
    });

    await t.test('a flow file allowed before runs without asking; once it changes, it asks again', async () => {
      const runs = () => listFlows(vsc.workspaceDir).filter((f) => f.flow === 'wait').map((f) => `${f.instance} ${f.status}`).sort();
      const dialog = vsc.page.locator('.monaco-dialog-box');
      // wait.flow.yaml ran (and was allowed) in the test before: the same content runs at once.
      await vsc.openFile('wait.flow.yaml');
      await runOpenFlow(vsc);
      await until('a second instance of wait to pause', () => runs().includes('wait-2 paused'));
      assert.equal(await dialog.isVisible(), false, 'no confirmation for a file allowed before');
      // Another content of the file is asked about again, saying it changed; declined, nothing runs.
      const file = path.join(vsc.workspaceDir, 'wait.flow.yaml');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('echo "before the pause"', 'echo "before the pause, changed"'));
      await vsc.openFile('wait.flow.yaml');
      await runOpenFlow(vsc);
      await dialog.waitFor({ state: 'visible', timeout: 15_000 });
      const asked = await dialog.innerText();
      assert.match(asked, /The file changed since you last allowed it/);
      assert.match(asked, /before \(bash\): echo "before the pause, changed"/);
      await vsc.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
      await sleep(1500);
      assert.deepEqual(runs(), ['wait-1 completed', 'wait-2 paused'], 'the changed file, declined, did not run');

      // Trusted in a terminal instead (`stategate trust`, with a custom tool registry beside it): not asked about here.
      const registry = path.join(vsc.workspaceDir, '.stategate', 'flow-tools.yaml');
      fs.writeFileSync(registry, 'tools:\n  stamp:\n    command: date +%s\n');
      const trusted = spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist', 'cli.js'), 'trust', 'wait.flow.yaml'], { cwd: vsc.workspaceDir, encoding: 'utf8' });
      assert.equal(trusted.status, 0, trusted.stderr);
      await vsc.openFile('wait.flow.yaml');
      await runOpenFlow(vsc);
      await until('a third instance of wait, trusted with `stategate trust`, to pause', () => runs().includes('wait-3 paused'));
      assert.equal(await dialog.isVisible(), false, 'no confirmation for a flow trusted in a terminal');
      // A changed registry changes what the flow may run: asked again, saying so.
      fs.writeFileSync(registry, 'tools:\n  stamp:\n    command: date\n');
      await vsc.openFile('wait.flow.yaml');
      await runOpenFlow(vsc);
      await dialog.waitFor({ state: 'visible', timeout: 15_000 });
      assert.match(await dialog.innerText(), /The file or its custom tool registry changed since you last allowed it/);
      await vsc.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 });

    });

    await t.test('a running flow paused from the Flows view stops after its state, and resumes from there', async () => {
      const row = await runningRow(vsc, 'steps', 'first step waits for go.txt');
      await clickRowAction(row, 'Pause Flow', () => pauseAsked(vsc, 'steps-1'));
      await terminalShows(vsc, 'pause asked');
      // The state that runs is not cut short: it ends, then the flow pauses before the next one.
      fs.writeFileSync(path.join(vsc.workspaceDir, 'go.txt'), '');
      await until('steps-1 to pause', () => instance(vsc, 'steps')?.status === 'paused');
      await terminalShows(vsc, 'first step done');
      assert.equal(fs.existsSync(path.join(vsc.workspaceDir, 'second.txt')), false, 'the next state waits for the resume');
      await until('the Flows view to show steps-1 paused', async () => /paused/.test(await row.innerText()));
      await clickRowAction(row, 'Resume Flow');
      await until('steps-1 to complete', () => instance(vsc, 'steps')?.status === 'completed');
      assert.ok(fs.existsSync(path.join(vsc.workspaceDir, 'second.txt')), 'the next state ran after the resume');
    });

    await t.test('a running flow stopped from the Flows view: its command ends, the next state never runs', async () => {
      const row = await runningRow(vsc, 'slow', 'working for a while');
      await clickRowAction(row, 'Stop Flow', () => instance(vsc, 'slow')?.status !== 'running');
      await until('the slow flow to stop', () => instance(vsc, 'slow')?.status === 'stopped');
      await until('the Flows view to show slow-1 stopped', async () => /stopped/.test(await row.innerText()));
      await sleep(1500);
      assert.equal(fs.existsSync(path.join(vsc.workspaceDir, 'never.txt')), false, 'the state after the stopped one never ran');
      assert.ok(!(await vsc.terminalText()).includes('never printed'));
    });

    await t.test('a failed flow looks failed: the Flows view\'s error icon, the panel\'s failed badge and an error banner (issue 32, item 6)', async () => {
      const row = await runningRow(vsc, 'broken', 'checking');
      await until('the Flows view to show broken-1 failed', async () => /failed/.test(await row.innerText()));
      assert.equal(await row.locator('.codicon-error').count(), 1, 'the row shows the error icon');
      await vsc.executeCommand('stategate.showFlowInPanel', 'broken-1');
      const f = await vsc.webviewFrame('[data-testid="flow"][data-instance="broken-1"]', 15_000);
      const badge = f.locator('[data-testid="run-status"]');
      assert.equal((await badge.innerText()).trim(), 'failed');
      assert.equal(await badge.getAttribute('data-status'), 'failed');
      assert.match((await f.locator('[data-testid="flow-message"]').getAttribute('class')) ?? '', /\bfailed\b/, 'the message is an error banner');
    });
  });
});

test('flows: Restricted Mode runs no flow and says why', { timeout: 300_000 }, async (t) => {
  await withVsCode(t, { workspace: WORKSPACE, restricted: true }, async (vsc) => {
    const ready = await vsc.hostReady();
    assert.equal(ready.trusted, false);
    await vsc.executeCommand('stategate.runFlow', path.join(vsc.workspaceDir, 'wait.flow.yaml'));
    const note = await until('a warning', async () => (await vsc.notifications()).find((n) => /Restricted Mode/.test(n)));
    assert.match(note, /a flow runs commands on this machine/);
    await sleep(1000);
    assert.deepEqual(listFlows(vsc.workspaceDir), [], 'no instance was created');
  });
});
