/**
 * The pure parts of running flows in VS Code (src/vscode/flows/): what the
 * first-run confirmation lists and the hash it is remembered by, which
 * language model answers a claude/codex/gemini state, and get-gh-issue
 * through the GitHub REST API (repository from the remote, gh's JSON shape,
 * clear errors).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadFlow } from '../../src/engine/formats/flow';
import { flowHash, flowPlan, planText } from '../../src/vscode/flows/flow-plan';
import { chooseModel, type ModelInfo } from '../../src/vscode/flows/model-choice';
import { fetchIssue, ghShape, githubRepoOf, type Fetch } from '../../src/vscode/flows/github-issue';
import { onPath } from '../../src/vscode/flows/on-path';
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

test('flowHash changes with any edit of the file', () => {
  assert.equal(flowHash(FLOW), flowHash(`${FLOW}`));
  assert.notEqual(flowHash(FLOW), flowHash(FLOW.replace('npm test', 'npm  test')));
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

test('fetchIssue: the REST issue in gh\'s JSON shape with the token sent; failures name the issue and the cause', async (t) => {
  const seen: { url: string; auth: string }[] = [];
  const ok: Fetch = async (url, init) => {
    seen.push({ url, auth: init.headers.Authorization! });
    return { ok: true, status: 200, json: async () => ({ number: 7, title: 'Crash', body: null, state: 'open', html_url: 'https://github.com/o/r/issues/7', user: { login: 'ann' }, labels: [{ name: 'bug' }, 'p1'] }), text: async () => '' };
  };
  const signal = new AbortController().signal;
  const dir = tempDir('sg-flow-gh-', t);
  const r = await fetchIssue({ state: 'issue', issueNumber: ' 7 ', repo: 'o/r', cwd: dir, signal }, 'tok', ok);
  assert.equal(r.exitCode, 0, r.message);
  assert.deepEqual(seen, [{ url: 'https://api.github.com/repos/o/r/issues/7', auth: 'Bearer tok' }]);
  const issue = JSON.parse(r.stdout);
  assert.deepEqual({ ...issue }, ghShape({ number: 7, title: 'Crash', body: null, state: 'open', html_url: 'https://github.com/o/r/issues/7', user: { login: 'ann' }, labels: [{ name: 'bug' }, 'p1'] }));
  assert.equal(issue.state, 'OPEN');
  assert.deepEqual(issue.labels, [{ name: 'bug' }, { name: 'p1' }]);
  const notFound: Fetch = async () => ({ ok: false, status: 404, json: async () => ({}), text: async () => '{"message":"Not Found"}' });
  assert.match((await fetchIssue({ state: 'issue', issueNumber: '8', repo: 'o/r', cwd: dir, signal }, 'tok', notFound)).message!, /GitHub answered 404 for o\/r#8: .*Not Found/);
  // No repo argument and a folder without a github.com origin: says how to name one, asks nothing of the network.
  const none = await fetchIssue({ state: 'issue', issueNumber: '8', cwd: dir, signal }, 'tok', async () => assert.fail('no request without a repository'));
  assert.match(none.message!, /add `repo: OWNER\/NAME`/);
  assert.match((await fetchIssue({ state: 'issue', issueNumber: 'abc', repo: 'o/r', cwd: dir, signal }, 'tok', ok)).message!, /"abc" is not an issue number/);
});

test('onPath finds executables on the given PATH only', (t) => {
  const dir = tempDir('sg-flow-path-', t);
  fs.writeFileSync(path.join(dir, 'gh'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'notes'), 'x', { mode: 0o644 });
  assert.equal(onPath('gh', `/nonexistent${path.delimiter}${dir}`), true);
  assert.equal(onPath('notes', dir), false);
  assert.equal(onPath('gh', '/nonexistent'), false);
});
