/** The CLI contract (README, "The command line"): one JSON object per `run` call, errors as JSON + one stderr line + non-zero exit. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers/cli';
import { TEST_STATE_DIR } from './helpers/state-dir';
import { recordFileFor } from '../../src/engine/store/active-record';
import { tempDir } from './helpers/temp-dir';
import { readSvg } from './helpers/svg-check';

const REVIEW = {
  id: 'review',
  initial: 'reading',
  context: { tests_passed: false },
  guards: { tests_green: { field: 'tests_passed', op: 'eq', value: true } },
  states: {
    reading: { allowed_tools: ['Read', 'Grep'], on: { READY: 'editing' } },
    editing: {
      allowed_tools: ['Read', 'Edit'],
      on: { DONE: { target: 'done', guard: 'tests_green' }, SHIP: { target: 'done', requires_approval: true, approval_message: 'Ship it?' } },
    },
    done: { type: 'final' },
  },
};

function workspace(): string {
  const cwd = tempDir('sg-cli-');
  fs.writeFileSync(path.join(cwd, 'review.workflow.json'), JSON.stringify(REVIEW, null, 2));
  return cwd;
}

function started(): string {
  const cwd = workspace();
  assert.equal(cli(['run', 'start', 'review.workflow.json'], { cwd }).code, 0);
  return cwd;
}

test('start prints the run as one JSON object', () => {
  const cwd = workspace();
  const r = cli(['run', 'start', 'review.workflow.json'], { cwd });
  assert.equal(r.code, 0);
  assert.equal(r.json.workflow, 'review');
  assert.equal(r.json.state, 'reading');
  assert.equal(fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim(), r.json.run_id);
});

test('send moves the run and reports from/to', () => {
  const cwd = started();
  const r = cli(['run', 'send', 'READY'], { cwd });
  assert.deepEqual([r.code, r.json.transitioned, r.json.from, r.json.to], [0, true, 'reading', 'editing']);
});

test('a guard that fails names the guard, exits 1 and leaves the state', () => {
  const cwd = started();
  cli(['run', 'send', 'READY'], { cwd });
  const r = cli(['run', 'send', 'DONE'], { cwd });
  assert.equal(r.code, 1);
  assert.equal(r.json.error.code, 'guard_failed');
  assert.match(r.json.error.message, /tests_green/);
  assert.match(r.stderr, /^stategate: .*tests_green.*\n$/);
  assert.equal(cli(['run', 'state'], { cwd }).json.state, 'editing');
});

test('state lists each event with its guards evaluated on the context', () => {
  const cwd = started();
  cli(['run', 'send', 'READY'], { cwd });
  const s = cli(['run', 'state'], { cwd }).json;
  const done = s.transitions.find((t: { event: string }) => t.event === 'DONE');
  assert.deepEqual(done.guards, [{ name: 'tests_green', passes: false }]);
  assert.deepEqual(s.allowed_tools, ['Read', 'Edit']);
});

test('an approval-gated event waits for approve', () => {
  const cwd = started();
  cli(['run', 'send', 'READY'], { cwd });
  const asked = cli(['run', 'send', 'SHIP'], { cwd });
  assert.equal(asked.json.transitioned, false);
  assert.equal(asked.json.pending_approval.target, 'done');
  assert.equal(cli(['run', 'state'], { cwd }).json.pending_approval.message, 'Ship it?');
  const approved = cli(['run', 'approve'], { cwd });
  assert.equal(approved.code, 0);
  const s = cli(['run', 'state'], { cwd }).json;
  assert.deepEqual([s.state, s.status, s.is_final], ['done', 'completed', true]);
});

const errors: Array<[string, string[], string, number]> = [
  ['invalid JSON in --data', ['run', 'send', 'READY', '--data', '{nope'], 'invalid_json', 2],
  ['--data that is not an object is fine for send but --context must be an object', ['run', 'start', 'review.workflow.json', '--context', '[1]'], 'invalid_json', 2],
  ['an unknown subcommand', ['run', 'frobnicate'], 'usage', 2],
  ['a missing argument', ['run', 'send'], 'usage', 2],
  ['a missing workflow file', ['run', 'start', 'nope.json'], 'io', 1],
];
for (const [name, args, code, exit] of errors) {
  test(`${name} gives a JSON error, one stderr line and exit ${exit}`, () => {
    const cwd = started();
    const r = cli(args, { cwd });
    assert.equal(r.code, exit);
    assert.equal(r.json.error.code, code);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/, 'no stack trace');
  });
}

test('no active run is an error that says how to start one', () => {
  const cwd = workspace();
  const r = cli(['run', 'state'], { cwd });
  assert.equal(r.code, 1);
  assert.equal(r.json.error.code, 'no_active_run');
  assert.match(r.json.error.message, /stategate run start/);
});

test('a corrupt run.json is reported with how to recover, exit 3: tampering while the record outside the workspace names the run, unreadable without it', () => {
  const cwd = started();
  const id = fs.readFileSync(path.join(cwd, '.stategate', 'active'), 'utf8').trim();
  fs.writeFileSync(path.join(cwd, '.stategate', 'runs', id, 'run.json'), '{"format": "stategate-run", "vers');
  const r = cli(['run', 'state'], { cwd });
  assert.equal(r.code, 3);
  assert.equal(r.json.error.code, 'run_tampered');
  assert.match(r.json.error.message, /not the file stategate last wrote.*no longer a usable run file.*stategate run stop/);
  // A run from before the record existed (or whose record is gone): the file is just unreadable.
  fs.rmSync(recordFileFor(fs.realpathSync(cwd), TEST_STATE_DIR));
  const old = cli(['run', 'state'], { cwd });
  assert.equal(old.code, 3);
  assert.equal(old.json.error.code, 'run_unreadable');
  assert.match(old.json.error.message, /stategate run stop/);
});

test('starting a workflow with errors is refused and names the first error', () => {
  const cwd = workspace();
  fs.writeFileSync(path.join(cwd, 'bad.json'), JSON.stringify({ id: 'bad', initial: 'nowhere', states: { a: { type: 'final' } } }));
  const r = cli(['run', 'start', 'bad.json'], { cwd });
  assert.equal(r.code, 1);
  assert.equal(r.json.error.code, 'invalid_workflow');
  assert.match(r.json.error.message, /nowhere/);
});

test('pause then resume restores the paused run with its state', () => {
  const cwd = started();
  cli(['run', 'send', 'READY'], { cwd });
  assert.equal(cli(['run', 'pause'], { cwd }).json.status, 'paused');
  const r = cli(['run', 'resume', 'review.workflow.json'], { cwd });
  assert.deepEqual([r.json.resumed, r.json.state, r.json.status], [true, 'editing', 'running']);
});

test('resume with nothing paused starts fresh', () => {
  const cwd = workspace();
  const r = cli(['run', 'resume', 'review.workflow.json'], { cwd });
  assert.deepEqual([r.json.resumed, r.json.state], [false, 'reading']);
});

test('--dir points at another .stategate directory', () => {
  const cwd = workspace();
  const dir = path.join(cwd, 'elsewhere');
  assert.equal(cli(['run', '--dir', dir, 'start', 'review.workflow.json'], { cwd }).code, 0);
  assert.equal(cli(['run', 'state', '--dir', dir], { cwd }).json.state, 'reading');
  assert.equal(fs.existsSync(path.join(cwd, '.stategate')), false);
});

test('validate prints nothing and exits 0 for a clean file, exits 1 with file:line:col for errors', () => {
  const cwd = workspace();
  const clean = cli(['validate', 'review.workflow.json'], { cwd });
  assert.deepEqual([clean.code, clean.stdout], [0, '']);
  fs.writeFileSync(path.join(cwd, 'bad.json'), '{"id": "x", "initial": "a", "states": {"a": {"on": {"GO": "b"}}}}');
  const bad = cli(['validate', 'bad.json'], { cwd });
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /^bad\.json:1:\d+: error [a-z-]+: /m);
});

test('validate --json gives ranges as line/character', () => {
  const cwd = workspace();
  const secondLine = ' "states": {"a": {"on": {"GO": "b"}}, "z": {"type": "final"}}}';
  fs.writeFileSync(path.join(cwd, 'bad.json'), `{"id": "x", "initial": "a",\n${secondLine}`);
  const r = cli(['validate', '--json', 'bad.json'], { cwd });
  const d = r.json.files[0].diagnostics.find((x: { code: string }) => x.code === 'unknown-target');
  assert.ok(d, JSON.stringify(r.json));
  const at = secondLine.indexOf('"b"') + 1;
  assert.deepEqual(d.range, { start: { line: 1, character: at }, end: { line: 1, character: at + 1 } });
});

test('export prints Mermaid with every state and transition', () => {
  const cwd = workspace();
  const r = cli(['export', 'review.workflow.json', '--format', 'mermaid'], { cwd });
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^stateDiagram-v2/);
  assert.match(r.stdout, /s_reading --> s_editing: READY/);
  assert.match(r.stdout, /s_editing --> s_done: DONE \[tests_green\]/);
  assert.match(r.stdout, /s_editing --> s_done: SHIP \(approval\)/);
});

test('export --format svg prints an SVG document laid out by elkjs, with every state, and --out writes it', () => {
  const cwd = workspace();
  const r = cli(['export', 'review.workflow.json', '--format', 'svg'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const svg = readSvg(r.stdout);
  assert.equal(svg.root.name, 'svg');
  assert.deepEqual(new Map(svg.states), new Map([['reading', 'reading'], ['editing', 'editing'], ['done', 'done']]));
  assert.ok(svg.texts.includes('SHIP (approval)'));
  assert.equal(cli(['export', 'review.workflow.json', '--format', 'svg', '--out', 'review.svg'], { cwd }).code, 0);
  assert.equal(fs.readFileSync(path.join(cwd, 'review.svg'), 'utf8'), r.stdout);
});

test('export draws a statechart with its nesting: Mermaid blocks and regions, an SVG box around each region', () => {
  const cwd = workspace();
  const file = path.resolve(__dirname, '..', 'fixtures', 'statecharts', 'spec', 'pipeline.statechart.yaml');
  const mermaid = cli(['export', file, '--format', 'mermaid'], { cwd });
  assert.equal(mermaid.code, 0, mermaid.stderr);
  assert.match(mermaid.stdout, /\n {2}state s_pipeline \{\n[\s\S]*\n {4}--\n[\s\S]*s_pipeline --> s_pipeline_failed: REGION_FAILED\n/);
  const svg = cli(['export', file, '--format', 'svg'], { cwd });
  assert.equal(svg.code, 0, svg.stderr);
  const states = readSvg(svg.stdout).states;
  assert.equal(states.get('pipeline.build'), 'build');
  assert.equal(states.get('pipeline.lint.linted'), 'linted');
});

test('export of an unknown format names the formats there are', () => {
  const r = cli(['export', 'review.workflow.json', '--format', 'png'], { cwd: workspace() });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown format 'png': use one of mermaid, dot, plantuml, svg/);
});

test('validate reports an invoke cycle when the file is named by a relative path', () => {
  const cwd = workspace();
  const wf = (id: string, other: string) => ({
    id,
    initial: 'work',
    states: { work: { on: { GO: { invoke: other, on_complete: 'done', on_fail: 'failed' } } }, done: { type: 'final' }, failed: { type: 'final' } },
  });
  fs.writeFileSync(path.join(cwd, 'a.workflow.json'), JSON.stringify(wf('a', 'b')));
  fs.writeFileSync(path.join(cwd, 'b.workflow.json'), JSON.stringify(wf('b', 'a')));
  const r = cli(['validate', 'a.workflow.json'], { cwd });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /error invoke-cycle: /);
});
