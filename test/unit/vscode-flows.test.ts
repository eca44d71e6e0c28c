/**
 * The pure parts of running flows in VS Code (src/vscode/flows/): what the
 * first-run confirmation lists (what it is remembered by is the engine's:
 * flow-custom-tools.test.ts), which language model answers a
 * claude/codex/gemini state, and get-gh-issue through the GitHub REST API (repository from the remote, gh's JSON shape,
 * clear errors).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFlow } from '../../src/engine/formats/flow';
import { flowPlan, planText } from '../../src/vscode/flows/flow-plan';
import { chooseModel, type ModelInfo } from '../../src/vscode/flows/model-choice';
import { fetchIssue, ghShape, githubRepoOf, issueRef, type Fetch } from '../../src/vscode/flows/github-issue';
import { tempDir } from './helpers/temp-dir';

const FLOW = `name: ship
start-at: test
states:
  test:
    tool: bash
    arguments:
      command: |
        npm test
        echo done
    next: ask
  ask:
    tool: ask-user
    arguments:
      question: Push {{ branch }}?
    output: var(answer)
    next: both
  both:
    tool: parallel
    arguments:
      tasks:
        - tool: claude
          arguments:
            prompt: Review it
        - test
  end:
    tool: pause
`;

test('flowPlan lists each state with its tool and what it runs, parallel tasks after their state', () => {
  const wf = loadFlow(FLOW, { file: 'ship.flow.yaml' }).workflow!;
  assert.deepEqual(flowPlan(wf), [
    { state: 'test', tool: 'bash', what: 'npm test\necho done\n' },
    { state: 'ask', tool: 'ask-user', what: 'Push {{ branch }}?' },
    { state: 'both', tool: 'parallel', what: '' },
    { state: 'both[0]', tool: 'claude', what: 'Review it' },
    { state: 'both[1]', tool: 'state', what: 'test' },
    { state: 'end', tool: 'pause', what: '' },
  ]);
  const text = planText(flowPlan(wf));
  assert.equal(text.split('\n')[0], 'test (bash): npm test ⏎ echo done');
  assert.match(text, /^both \(parallel\)$/m);
  assert.equal(planText([{ state: 'x', tool: 'bash', what: 'y'.repeat(500) }]).length, 'x (bash): '.length + 160);
});

test('flowPlan fills in the flow\'s declared variables; one a state captures while running stays a template', () => {
  const flow = 'name: t\nstart-at: test\nvariables:\n  test_command: npm test\n  retries: 2\nstates:\n  test:\n    tool: bash\n    arguments:\n      command: "{{ test_command }} --retries {{retries}} 2>&1"\n    output: var(out)\n    next: tell\n  tell:\n    tool: bash\n    arguments:\n      command: echo "{{ out }} {{ .Go }}"\n';
  const wf = loadFlow(flow, { file: 't.flow.yaml' }).workflow!;
  assert.deepEqual(flowPlan(wf).map((l) => l.what), ['npm test --retries 2 2>&1', 'echo "{{ out }} {{ .Go }}"']);
});

const MODELS: ModelInfo[] = [
  { id: 'gpt-4o', vendor: 'copilot', family: 'gpt-4o', name: 'GPT-4o' },
  { id: 'claude-sonnet-4', vendor: 'copilot', family: 'claude-sonnet-4', name: 'Claude Sonnet 4' },
  { id: 'gemini-2.5-pro', vendor: 'copilot', family: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro' },
  { id: 'scripted', vendor: 'scripted', family: 'scripted', name: 'Scripted' },
];

test('chooseModel: by the tool\'s vendor or family, or exactly the `model` argument; a clear reason otherwise', () => {
  const id = (r: ReturnType<typeof chooseModel>) => ('model' in r ? r.model.id : r.why);
  assert.equal(id(chooseModel(MODELS, 'claude')), 'claude-sonnet-4');
  assert.equal(id(chooseModel(MODELS, 'codex')), 'gpt-4o');
  assert.equal(id(chooseModel(MODELS, 'gemini')), 'gemini-2.5-pro');
  assert.equal(id(chooseModel(MODELS, 'claude', 'Scripted')), 'scripted');
  assert.equal(id(chooseModel(MODELS, 'claude', 'gemini-2.5-pro')), 'gemini-2.5-pro');
  assert.match(id(chooseModel(MODELS, 'claude', 'opus')), /no language model "opus".*available: gpt-4o \(copilot\/gpt-4o\)/);
  assert.match(id(chooseModel([], 'gemini')), /no gemini language model in VS Code \(none is available\)/);
});

test('githubRepoOf reads github.com remotes only', () => {
  assert.equal(githubRepoOf('https://github.com/stategate/stategate.git\n'), 'stategate/stategate');
  assert.equal(githubRepoOf('git@github.com:a-b/c.d.git'), 'a-b/c.d');
  assert.equal(githubRepoOf('ssh://git@github.com/o/r'), 'o/r');
  assert.equal(githubRepoOf('https://gitlab.com/o/r.git'), undefined);
});

test('issueRef: a number, #number, or a github.com issue URL with its repository', () => {
  assert.deepEqual(issueRef(' 42 '), { number: '42' });
  assert.deepEqual(issueRef('#7'), { number: '7' });
  assert.deepEqual(issueRef('https://github.com/o/r/issues/9'), { number: '9', repo: 'o/r' });
  assert.equal(issueRef('--repo=x'), undefined);
  assert.equal(issueRef('abc'), undefined);
});

test('fetchIssue: the REST issue and its comments in gh\'s JSON shape, the token sent; failures name the issue and the cause', async (t) => {
  const seen: { url: string; auth: string }[] = [];
  const issue = { number: 7, title: 'Crash', body: null, state: 'open', html_url: 'https://github.com/o/r/issues/7', labels: [{ name: 'bug' }, 'p1'] };
  const comments = [{ user: { login: 'ann' }, body: 'same here', created_at: '2026-01-01T00:00:00Z', html_url: 'https://github.com/o/r/issues/7#c1' }];
  const ok: Fetch = async (url, init) => {
    seen.push({ url, auth: init.headers.Authorization! });
    return { ok: true, status: 200, json: async () => (url.includes('/comments') ? comments : issue), text: async () => '' };
  };
  const signal = new AbortController().signal;
  const dir = tempDir('sg-flow-gh-', t);
  const r = await fetchIssue({ state: 'issue', issueNumber: '#7', repo: 'o/r', cwd: dir, signal }, 'tok', ok);
  assert.equal(r.exitCode, 0, r.message);
  assert.deepEqual(seen, [
    { url: 'https://api.github.com/repos/o/r/issues/7', auth: 'Bearer tok' },
    { url: 'https://api.github.com/repos/o/r/issues/7/comments?per_page=100', auth: 'Bearer tok' },
  ]);
  // gh issue view --json number,title,body,labels,state,url,comments
  assert.deepEqual(JSON.parse(r.stdout), {
    number: 7,
    title: 'Crash',
    body: '',
    labels: [{ name: 'bug' }, { name: 'p1' }],
    state: 'OPEN',
    url: 'https://github.com/o/r/issues/7',
    comments: [{ author: { login: 'ann' }, body: 'same here', createdAt: '2026-01-01T00:00:00Z', url: 'https://github.com/o/r/issues/7#c1' }],
  });
  assert.deepEqual(Object.keys(ghShape(issue)), ['number', 'title', 'body', 'labels', 'state', 'url', 'comments']);
  // An issue URL names its repository.
  seen.length = 0;
  await fetchIssue({ state: 'issue', issueNumber: 'https://github.com/x/y/issues/3', cwd: dir, signal }, 'tok', ok);
  assert.equal(seen[0]?.url, 'https://api.github.com/repos/x/y/issues/3');
  const notFound: Fetch = async () => ({ ok: false, status: 404, json: async () => ({}), text: async () => '{"message":"Not Found"}' });
  assert.match((await fetchIssue({ state: 'issue', issueNumber: '8', repo: 'o/r', cwd: dir, signal }, 'tok', notFound)).message!, /GitHub answered 404 for o\/r#8: .*Not Found/);
  // No repo argument and a folder without a github.com origin: says how to name one, asks nothing of the network.
  const none = await fetchIssue({ state: 'issue', issueNumber: '8', cwd: dir, signal }, 'tok', async () => assert.fail('no request without a repository'));
  assert.match(none.message!, /add `repo: OWNER\/NAME`/);
  const bad = await fetchIssue({ state: 'issue', issueNumber: '--repo=x', repo: 'o/r', cwd: dir, signal }, 'tok', async () => assert.fail('no request for a bad reference'));
  assert.equal(bad.exitCode, 2);
  assert.match(bad.message!, /issue-number must be an issue number/);
});
