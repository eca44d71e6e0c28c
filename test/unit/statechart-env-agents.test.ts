// `env` and `agents` in statecharts at run time (docs/statecharts.md,
// "Environment variables" and "Agents"). Before, a run's `env` was always
// empty (every env.NAME read null), an undeclared env.NAME was no error, and
// agents.select() always gave null: each test below fails on that code.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import './helpers/state-dir';
import { TEST_STATE_DIR } from './helpers/state-dir';
import { Runner, RunnerError } from '../../src/engine/runs/runner';
import { replay } from '../../src/engine/store/replay';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { selectAgent, mergeAgents } from '../../src/engine/machine/agents';
import { loadAgentsFile } from '../../src/engine/formats/agents-file';
import type { ChartAgent } from '../../src/engine/model/index';
import type { JournalEntry } from '../../src/engine/machine/run';
import { customAgent, readCustomAgents } from '../../src/vscode/custom-agents';
import { WRITTEN_MARKER } from '../../src/vscode/agents/custom-agent';
import { tempDir } from './helpers/temp-dir';

type Owner = { after(fn: () => void): unknown };

const SECRET = 'sk-live-9f8e7d6c5b4a';

const DEPLOY = `statechart:
  id: deploy
  env:
    REGION: us
    TIER: free
    BUILD_ID: null
  context: {tier: null, build: null}
  initial: waiting
  states:
    waiting:
      entry: [{type: assign, context_updates: {tier: env.TIER, build: env.BUILD_ID}}]
      on:
        GO:
          - {target: europe, guard: 'env.REGION == "eu"'}
          - {target: elsewhere}
    europe: {type: final}
    elsewhere: {type: final}
`;

function workspace(t: Owner, files: Record<string, string>): string {
  const root = tempDir('sg-env-agents-', t);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

function runner(root: string, environment: Record<string, string>, more: Partial<ConstructorParameters<typeof Runner>[0]> = {}): Runner {
  return new Runner({ dir: path.join(root, '.stategate'), workspaceRoot: root, environment, ...more });
}

function journal(root: string, runId: string): JournalEntry[] {
  return fs
    .readFileSync(path.join(root, '.stategate', 'runs', runId, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const row = JSON.parse(line) as { entry?: JournalEntry };
      return row.entry ?? (row as unknown as JournalEntry);
    });
}

/** Every file under `dir` (recursively) whose text contains `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p, 'utf8').includes(needle)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

describe('env: captured at the start, read as env.NAME, journaled, never more than the chart names', () => {
  const cases: { name: string; environment: Record<string, string>; state: string; tier: string; build: string | null }[] = [
    { name: 'a set variable is read; an unset one takes its default; one without a default is null', environment: { REGION: 'eu' }, state: 'europe', tier: 'free', build: null },
    { name: 'every variable set', environment: { REGION: 'ap', TIER: 'gold', BUILD_ID: '418' }, state: 'elsewhere', tier: 'gold', build: '418' },
    { name: 'nothing set: the defaults', environment: {}, state: 'elsewhere', tier: 'free', build: null },
  ];
  for (const c of cases) {
    it(c.name, async (t) => {
      const root = workspace(t, { 'deploy.statechart.yaml': DEPLOY });
      const r = runner(root, { ...c.environment, API_TOKEN: SECRET });
      const { run } = await r.start(path.join(root, 'deploy.statechart.yaml'));
      assert.deepEqual(run.context, { tier: c.tier, build: c.build });
      await r.send('GO');
      assert.equal((await r.state()).state, c.state);
    });
  }

  it('is journaled in the start entry, replayed from it, and kept by the run: another process with another environment reads the captured values', async (t) => {
    const root = workspace(t, { 'deploy.statechart.yaml': DEPLOY });
    const { run } = await runner(root, { REGION: 'eu', API_TOKEN: SECRET }).start(path.join(root, 'deploy.statechart.yaml'));
    const entries = journal(root, run.runId);
    const start = entries.find((e) => e.kind === 'start');
    assert.deepEqual(start?.kind === 'start' ? start.env : undefined, { REGION: 'eu', TIER: 'free', BUILD_ID: null });
    assert.deepEqual(replay(entries).chartEnv, { REGION: 'eu', TIER: 'free', BUILD_ID: null });
    // A later command from a process whose environment says otherwise: the run reads what it started with.
    const other = runner(root, { REGION: 'us' });
    await other.send('GO');
    assert.equal((await other.state()).state, 'europe');
  });

  it('a variable of the environment the chart does not declare never appears in .stategate or the state folder', async (t) => {
    const root = workspace(t, { 'deploy.statechart.yaml': DEPLOY });
    const r = runner(root, { REGION: 'eu', API_TOKEN: SECRET, AWS_SECRET_ACCESS_KEY: SECRET });
    await r.start(path.join(root, 'deploy.statechart.yaml'));
    await r.send('GO');
    await r.state();
    assert.ok(fs.existsSync(path.join(root, '.stategate', 'runs')), 'the run was written');
    assert.deepEqual(filesContaining(path.join(root, '.stategate'), SECRET), []);
    assert.deepEqual(filesContaining(TEST_STATE_DIR, SECRET), []);
  });

  const undeclared: { name: string; chart: string; message: RegExp }[] = [
    { name: 'no env: at all', chart: DEPLOY.replace(/ {2}env:\n( {4}.*\n){3}/, ''), message: /env\.REGION/ },
    { name: 'a near miss of a declared name', chart: DEPLOY.replace('REGION: us', 'REGIONS: us'), message: /Did you mean `REGIONS`/ },
  ];
  for (const c of undeclared) {
    it(`reading env.NAME the chart does not declare is a validation error (chart-env-undeclared): ${c.name}`, async (t) => {
      const diagnostics = checkWorkflowFile(c.chart, 'deploy.statechart.yaml').diagnostics.filter((d) => d.code === 'chart-env-undeclared');
      assert.equal(diagnostics.length >= 1, true, 'reported');
      assert.equal(diagnostics[0]?.severity, 'error');
      assert.match(diagnostics.map((d) => d.message).join('\n'), c.message);
      // The range is the name inside the guard (what the quick fix replaces).
      const d = diagnostics.find((x) => x.data?.['name'] === 'REGION');
      assert.equal(d && c.chart.slice(d.loc.start, d.loc.end), 'REGION');
      const root = workspace(t, { 'deploy.statechart.yaml': c.chart });
      await assert.rejects(runner(root, { REGION: 'eu' }).start(path.join(root, 'deploy.statechart.yaml')), (e: unknown) => e instanceof RunnerError && e.code === 'invalid_workflow');
    });
  }
});

const REVIEW = (agents: string) => `statechart:
  id: review
${agents}  context: {lang: null, reviewer: null}
  initial: assign
  states:
    assign:
      entry: [{type: assign, context_updates: {reviewer: "agents.select('reviewer', context.lang)"}}]
      on: {DONE: done}
    done: {type: final}
`;

const CHART_AGENTS = `  agents:
    - {id: rev-python, roles: [reviewer], tags: [python, django]}
    - {id: lead, roles: [approver]}
`;

const AGENTS_YAML = `agents:
  - {id: rev-go, roles: [reviewer], tags: [go]}
  - {id: alpha, roles: [reviewer, writer], description: first by id}
  - {id: rev-python, roles: [writer]}
`;

describe('agents: the chart, .stategate/agents.yaml and the host, picked by agents.select', () => {
  const cases: { name: string; lang: string | null; chartAgents: string; agentsYaml?: string; custom?: ChartAgent[]; reviewer: string | null }[] = [
    { name: 'a tag of the chart\'s agent', lang: 'django', chartAgents: CHART_AGENTS, agentsYaml: AGENTS_YAML, reviewer: 'rev-python' },
    { name: 'a tag of an agents.yaml agent', lang: 'go', chartAgents: CHART_AGENTS, agentsYaml: AGENTS_YAML, reviewer: 'rev-go' },
    { name: 'no agent has the hint: the first reviewer by id, from either source', lang: 'rust', chartAgents: CHART_AGENTS, agentsYaml: AGENTS_YAML, reviewer: 'alpha' },
    { name: 'the chart\'s rev-python hides agents.yaml\'s (a writer there)', lang: 'python', chartAgents: CHART_AGENTS, agentsYaml: AGENTS_YAML, reviewer: 'rev-python' },
    { name: 'agents.yaml alone', lang: null, chartAgents: '', agentsYaml: AGENTS_YAML, reviewer: 'alpha' },
    { name: 'the host\'s custom agents (VS Code)', lang: 'security', chartAgents: '', custom: [{ id: 'sec', roles: ['reviewer'], tags: ['security'] }, { id: 'aaa', roles: ['reviewer'], tags: [] }], reviewer: 'sec' },
    { name: 'no agent with the role', lang: 'python', chartAgents: '  agents: [{id: lead, roles: [approver]}]\n', reviewer: null },
  ];
  for (const c of cases) {
    it(c.name, async (t) => {
      const root = workspace(t, { 'review.statechart.yaml': REVIEW(c.chartAgents), ...(c.agentsYaml ? { '.stategate/agents.yaml': c.agentsYaml } : {}) });
      const r = runner(root, {}, c.custom ? { customAgents: () => c.custom as ChartAgent[] } : {});
      const { run } = await r.start(path.join(root, 'review.statechart.yaml'), { lang: c.lang });
      assert.equal(run.context['reviewer'], c.reviewer);
    });
  }

  const badFiles: { name: string; text: string; message: RegExp }[] = [
    { name: 'not a list', text: 'agents: {id: a}\n', message: /agents\.yaml:1:9: `agents` of agents\.yaml must be a list of agents/ },
    { name: 'an agent without an id', text: 'agents:\n  - {roles: [reviewer]}\n', message: /agents\.yaml:2:5: .*missing the required field `id`/ },
    { name: 'roles not a list', text: 'agents:\n  - {id: a, roles: reviewer}\n', message: /agents\.yaml:2:20: `roles` must be an array of strings/ },
    { name: 'an id twice', text: 'agents:\n  - {id: a}\n  - {id: a}\n', message: /agents\.yaml:3:10: Agent `a` is listed twice/ },
    { name: 'not YAML', text: 'agents: [\n', message: /agents\.yaml:\d+:\d+: / },
  ];
  for (const c of badFiles) {
    it(`a malformed agents.yaml refuses the start with a message that says where: ${c.name}`, async (t) => {
      const root = workspace(t, { 'review.statechart.yaml': REVIEW(''), '.stategate/agents.yaml': c.text });
      await assert.rejects(runner(root, {}).start(path.join(root, 'review.statechart.yaml')), (e: unknown) => {
        assert.ok(e instanceof RunnerError, String(e));
        assert.equal(e.code, 'invalid_agents');
        assert.match(e.message, c.message);
        return true;
      });
      assert.deepEqual(loadAgentsFile(c.text).agents.length <= 1, true);
    });
  }

  it('agents in the chart are validated: an agent without id, an id twice, an unknown field', () => {
    const text = REVIEW('  agents:\n    - {roles: [reviewer]}\n    - {id: a, role: [x]}\n    - {id: a}\n');
    const codes = checkWorkflowFile(text, 'review.statechart.yaml').diagnostics.map((d) => `${d.severity} ${d.code}`);
    assert.deepEqual(codes.sort(), ['error duplicate-key', 'error missing-field', 'warning unknown-field']);
  });
});

describe('agents.select(role, hint): the table', () => {
  const agents: ChartAgent[] = [
    { id: 'zed', roles: ['reviewer'], tags: ['python'] },
    { id: 'bob', roles: ['reviewer', 'writer'], tags: ['go', 'python'] },
    { id: 'amy', roles: ['writer'], tags: ['docs'] },
    { id: 'Cat', roles: ['reviewer'], tags: [] },
  ];
  const rows: { role: string; hint: unknown; expect: string | null; why: string }[] = [
    { role: 'reviewer', hint: 'zed', expect: 'zed', why: 'the hint is an id' },
    { role: 'reviewer', hint: 'python', expect: 'bob', why: 'two have the tag: the first by id' },
    { role: 'reviewer', hint: 'go', expect: 'bob', why: 'the hint is a tag' },
    { role: 'reviewer', hint: 'docs', expect: 'Cat', why: 'the tag belongs to an agent without the role: the first reviewer by id (code units: upper case first)' },
    { role: 'reviewer', hint: null, expect: 'Cat', why: 'no hint' },
    { role: 'reviewer', hint: 7, expect: 'Cat', why: 'a hint that is not a string matches nothing' },
    { role: 'writer', hint: 'docs', expect: 'amy', why: 'another role' },
    { role: 'writer', hint: 'zed', expect: 'amy', why: 'the hinted id does not have the role' },
    { role: 'approver', hint: 'bob', expect: null, why: 'nobody has the role' },
  ];
  for (const r of rows) {
    it(`select(${JSON.stringify(r.role)}, ${JSON.stringify(r.hint)}) is ${JSON.stringify(r.expect)}: ${r.why}`, () => {
      assert.equal(selectAgent(agents, r.role, r.hint as never), r.expect);
    });
  }

  it('mergeAgents: the first listing of an id wins, order kept', () => {
    const merged = mergeAgents([{ id: 'a', roles: ['x'], tags: [] }], undefined, [{ id: 'a', roles: ['y'], tags: [] }, { id: 'b', roles: [], tags: [] }]);
    assert.deepEqual(merged.map((a) => `${a.id}:${a.roles.join()}`), ['a:x', 'b:']);
  });
});

describe("VS Code's custom agents as agents", () => {
  const rows: { name: string; text: string; file: string; expect: ChartAgent | undefined }[] = [
    { name: 'name and description from the front matter; the role is the id', text: '---\nname: Reviewer\ndescription: Reviews changes\ntools: [read]\n---\nBody\n', file: 'review', expect: { id: 'Reviewer', roles: ['Reviewer'], tags: [], description: 'Reviews changes' } },
    { name: 'no name: the file name', text: '---\ndescription: d\n---\n', file: 'planner', expect: { id: 'planner', roles: ['planner'], tags: [], description: 'd' } },
    { name: 'roles and tags when written', text: '---\nroles: [reviewer, approver]\ntags: python\n---\n', file: 'py', expect: { id: 'py', roles: ['reviewer', 'approver'], tags: ['python'] } },
    { name: 'no front matter', text: 'Just instructions.\n', file: 'plain', expect: { id: 'plain', roles: ['plain'], tags: [] } },
    { name: 'front matter that does not parse: the file name', text: '---\nname: [unclosed\n---\n', file: 'broken', expect: { id: 'broken', roles: ['broken'], tags: [] } },
    { name: "stategate's own file is not a workspace agent", text: `---\nname: stategate\n---\n${WRITTEN_MARKER}\n`, file: 'stategate', expect: undefined },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.deepEqual(customAgent(r.text, r.file), r.expect);
    });
  }

  it('reads .github/agents/*.agent.md and .github/chatmodes/*.chatmode.md, sorted by file, the first of an id kept', (t) => {
    const root = workspace(t, {
      '.github/agents/b.agent.md': '---\nroles: [reviewer]\n---\n',
      '.github/agents/a.agent.md': '---\nname: b\n---\n',
      '.github/agents/notes.md': 'not an agent',
      '.github/chatmodes/old.chatmode.md': '---\ndescription: legacy\n---\n',
    });
    assert.deepEqual(readCustomAgents(root).map((a) => `${a.id}:${a.roles.join('|')}`), ['b:b', 'old:old']);
    assert.deepEqual(readCustomAgents(path.join(root, 'missing')), []);
  });
});
