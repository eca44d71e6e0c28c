/**
 * A trusted flow runs only sub-flows a person trusted (src/engine/handlers/flow-trust.ts, flow/load.ts
 * TrustCheck). A sub-flow is a file of the workspace, which the gated agent may write: before, a flow
 * allowed once in VS Code (or trusted with `stategate trust`) ran whatever was later written into a
 * sub-flow it names, with the person's permissions. Each test below fails on that code: the rewritten
 * sub-flow ran.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flowTrust, flowTrustCheck, resumeFlow, startFlow, trustFlow } from '../../src/engine/index.js';
import { cliInProcess } from './helpers/cli-in-process';
import { bash, flowWorkspace, writeFlow } from './helpers/flow-workspace.js';
import { testHost } from './helpers/flow-host.js';

const TOP = {
  'start-at': 'build',
  states: { build: bash('echo top > top.txt', { next: 'deploy' }), deploy: { tool: 'sub-flow', arguments: { workflow: 'steps/deploy.flow.yaml' } } },
};
const DEPLOY = { 'start-at': 'ship', states: { ship: bash('echo shipped > ship.txt') } };
/** What the agent writes into the sub-flow: a command of its choosing. */
const REWRITTEN = { 'start-at': 'ship', states: { ship: bash('echo agent > agent.txt') } };

function workspace(t: Parameters<typeof flowWorkspace>[0]): { ws: string; dir: string; top: string } {
  const ws = flowWorkspace(t, { 'top.flow.yaml': TOP, 'steps/deploy.flow.yaml': DEPLOY });
  return { ws, dir: path.join(ws, '.stategate'), top: path.join(ws, 'top.flow.yaml') };
}

/** What VS Code's Run Flow does once the person said yes (src/vscode/flows/flow-trust.ts, flow-runs.ts). */
function allowInVsCode(dir: string, top: string) {
  const trust = flowTrust(dir, top, fs.readFileSync(top, 'utf8'));
  trustFlow(dir, trust);
  return trust;
}

describe('a trusted flow runs its sub-flows only as a person trusted them', () => {
  it('allowing a flow trusts the sub-flows it names; one rewritten afterwards is asked about again and never runs', async (t) => {
    const { ws, dir, top } = workspace(t);
    const allowed = allowInVsCode(dir, top);
    assert.deepEqual(allowed.parts.map((p) => path.relative(ws, p.file)), ['top.flow.yaml', path.join('steps', 'deploy.flow.yaml')]);
    assert.equal(flowTrust(dir, top, fs.readFileSync(top, 'utf8')).state, 'trusted', 'asked once');
    // The run the person allowed, as allowed: the sub-flow runs.
    const first = await startFlow(testHost(ws), { file: 'top.flow.yaml', trust: flowTrustCheck(dir, allowed) });
    assert.equal(first.status, 'completed', first.message);
    assert.ok(fs.existsSync(path.join(ws, 'ship.txt')));

    // The agent rewrites the sub-flow; the top flow is unchanged.
    writeFlow(ws, 'steps/deploy.flow.yaml', REWRITTEN);
    const now = flowTrust(dir, top, fs.readFileSync(top, 'utf8'));
    assert.equal(now.state, 'changed', 'the question comes back');
    assert.deepEqual(now.parts.filter((p) => p.state !== 'trusted').map((p) => path.basename(p.file)), ['deploy.flow.yaml']);
    // A run started from the earlier yes (the top flow's text as allowed) is refused before anything runs.
    fs.rmSync(path.join(ws, 'top.txt'));
    await assert.rejects(startFlow(testHost(ws), { file: 'top.flow.yaml', trust: flowTrustCheck(dir, allowed) }), (e: Error & { code?: string }) => e.code === 'untrusted' && /deploy\.flow\.yaml/.test(e.message));
    assert.ok(!fs.existsSync(path.join(ws, 'agent.txt')), 'the agent\'s command never ran');
    assert.ok(!fs.existsSync(path.join(ws, 'top.txt')), 'nor the top flow\'s first state');
    // From a terminal the person runs what is there (no trust asked): as before.
    const fromTerminal = await startFlow(testHost(ws), { file: 'top.flow.yaml' });
    assert.equal(fromTerminal.status, 'completed');
    assert.ok(fs.existsSync(path.join(ws, 'agent.txt')));
  });

  it('`stategate trust` records the sub-flows too (named in its answer), the record VS Code checks', async (t) => {
    const { ws, dir, top } = workspace(t);
    const r = await cliInProcess(['trust', 'top.flow.yaml'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.trusted[0].sub_flows, [path.join(ws, 'steps', 'deploy.flow.yaml')]);
    assert.equal(flowTrust(dir, top, fs.readFileSync(top, 'utf8')).state, 'trusted');
    writeFlow(ws, 'steps/deploy.flow.yaml', REWRITTEN);
    assert.equal(flowTrust(dir, top, fs.readFileSync(top, 'utf8')).state, 'changed');
  });

  it('a sub-flow rewritten while the trusted run is under way (before its state) fails that state and does not run', async (t) => {
    const ws = flowWorkspace(t, {
      'top.flow.yaml': { 'start-at': 'first', states: { first: bash('echo first', { next: 'deploy' }), deploy: { tool: 'sub-flow', arguments: { workflow: 'steps/deploy.flow.yaml' } } } },
      'steps/deploy.flow.yaml': DEPLOY,
    });
    const dir = path.join(ws, '.stategate');
    const allowed = allowInVsCode(dir, path.join(ws, 'top.flow.yaml'));
    // The first state rewrites the sub-flow, as an agent could between the start and the sub-flow's state.
    writeFlow(ws, 'top.flow.yaml', { 'start-at': 'first', states: { first: bash(`printf '%s' '${JSON.stringify(REWRITTEN).replace(/'/g, '')}' > steps/deploy.flow.yaml`, { next: 'deploy' }), deploy: { tool: 'sub-flow', arguments: { workflow: 'steps/deploy.flow.yaml' } } } });
    const trust = allowInVsCode(dir, path.join(ws, 'top.flow.yaml'));
    const s = await startFlow(testHost(ws), { file: 'top.flow.yaml', trust: flowTrustCheck(dir, trust) });
    assert.equal(s.status, 'failed', `${s.status}: ${s.message}`);
    assert.match(s.message ?? '', /not trusted/);
    assert.ok(!fs.existsSync(path.join(ws, 'agent.txt')));
    assert.ok(allowed.parts.length === 2);
  });

  it('a sub-flow named through a variable runs in a trusted run only when a person trusted that file', async (t) => {
    const ws = flowWorkspace(t, {
      'top.flow.yaml': { 'start-at': 'deploy', variables: { target: 'deploy' }, states: { deploy: { tool: 'sub-flow', arguments: { workflow: 'steps/{{ target }}.flow.yaml' } } } },
      'steps/deploy.flow.yaml': DEPLOY,
    });
    const dir = path.join(ws, '.stategate');
    const allowed = allowInVsCode(dir, path.join(ws, 'top.flow.yaml'));
    assert.equal(allowed.parts.length, 1, 'not known until its state runs');
    const refused = await startFlow(testHost(ws), { file: 'top.flow.yaml', trust: flowTrustCheck(dir, allowed) });
    assert.equal(refused.status, 'failed');
    assert.match(refused.message ?? '', /stategate trust steps\/deploy\.flow\.yaml/);
    assert.ok(!fs.existsSync(path.join(ws, 'ship.txt')));
    assert.equal((await cliInProcess(['trust', 'steps/deploy.flow.yaml'], { cwd: ws })).code, 0);
    const ran = await startFlow(testHost(ws), { file: 'top.flow.yaml', trust: flowTrustCheck(dir, allowed) });
    assert.equal(ran.status, 'completed', ran.message);
    assert.ok(fs.existsSync(path.join(ws, 'ship.txt')));
  });

  it('a paused trusted run resumed after its sub-flow was rewritten does not run the rewrite', async (t) => {
    const ws = flowWorkspace(t, {
      'top.flow.yaml': { 'start-at': 'wait', states: { wait: { tool: 'pause', arguments: { reason: 'look first' }, next: 'deploy' }, deploy: { tool: 'sub-flow', arguments: { workflow: 'steps/deploy.flow.yaml' } } } },
      'steps/deploy.flow.yaml': DEPLOY,
    });
    const dir = path.join(ws, '.stategate');
    const top = path.join(ws, 'top.flow.yaml');
    const allowed = allowInVsCode(dir, top);
    const paused = await startFlow(testHost(ws), { file: 'top.flow.yaml', name: 'p', trust: flowTrustCheck(dir, allowed) });
    assert.equal(paused.status, 'paused', paused.message);
    writeFlow(ws, 'steps/deploy.flow.yaml', REWRITTEN);
    // VS Code's Resume asks about the flow again (flow-runs.ts) and resumes with what the person allowed.
    const resumed = await resumeFlow(testHost(ws), 'p', { trust: flowTrustCheck(dir, allowed) });
    assert.equal(resumed.status, 'failed', resumed.message);
    assert.match(resumed.message ?? '', /not trusted/);
    assert.ok(!fs.existsSync(path.join(ws, 'agent.txt')));
  });
});
