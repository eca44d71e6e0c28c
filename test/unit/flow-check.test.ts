/**
 * Flow validation, table-driven: for each diagnostic code a failing fixture
 * (test/fixtures/flows/<code>/fail.flow.yaml) that gets it exactly once, at
 * the range and line given here, and a passing fixture that does not get it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { loadWorkflowText } from '../../src/engine/formats/index.js';
import { exportWorkflow } from '../../src/engine/index.js';
import { readMermaidStateDiagram } from './helpers/mermaid-state-check.js';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'flows');

/** code -> [1-based line of the range's start, the text the range covers, severity]. */
const TABLE: Record<string, [number, string, 'error' | 'warning']> = {
  'flow-unknown-tool': [4, 'bsh', 'error'],
  'flow-missing-argument': [5, 'arguments', 'error'],
  'flow-unknown-target': [7, 'c', 'error'],
  'flow-goto-not-switch': [7, 'goto', 'error'],
  'flow-switch-without-goto': [4, 'switch', 'error'],
  'flow-unreachable-state': [7, 'b', 'warning'],
  'flow-reserved-name': [8, 'b/c', 'error'],
  // FlowState says to avoid a leading `_`; it is a warning, not an error (the flow still runs).
  'flow-underscore-name': [8, '_b', 'warning'],
  'flow-malformed-output': [7, 'var(a b)', 'error'],
  'flow-undefined-variable': [12, '{{ greting }}', 'warning'],
  'flow-file-outside-workspace': [7, 'file(logs/../../out.txt)', 'error'],
  'flow-cycle-no-exit': [3, 'a', 'warning'],
  'flow-invalid-exit-code': [8, '256', 'error'],
  'unknown-field': [7, 'nxt', 'warning'],
};

function check(code: string, which: 'fail' | 'pass') {
  const file = path.join(FIXTURES, code, `${which}.flow.yaml`);
  const text = fs.readFileSync(file, 'utf8');
  return { text, result: checkWorkflowFile(text, file, { resolveInvoke: false }) };
}

describe('flow diagnostics (fixtures)', () => {
  it('has a fixture folder for every code in the table and no other', () => {
    assert.deepEqual(fs.readdirSync(FIXTURES).sort(), Object.keys(TABLE).sort());
  });
  for (const [code, [line, covered, severity]] of Object.entries(TABLE)) {
    it(`${code}: the failing fixture gets it once, at \`${covered}\` on line ${line}`, () => {
      const { text, result } = check(code, 'fail');
      assert.equal(result.format, 'flow');
      const found = result.diagnostics.filter((d) => d.code === code);
      assert.equal(found.length, 1, JSON.stringify(result.diagnostics, null, 1));
      const d = found[0]!;
      assert.equal(d.severity, severity);
      assert.equal(text.slice(d.loc.start, d.loc.end), covered);
      assert.equal(text.slice(0, d.loc.start).split('\n').length, line);
    });
    it(`${code}: the passing fixture is clean`, () => {
      assert.deepEqual(check(code, 'pass').result.diagnostics, []);
    });
  }
});

describe('flow diagnostics (details)', () => {
  const diags = (text: string, file = 'x.flow.yaml') => checkWorkflowFile(text, file, { resolveInvoke: false }).diagnostics;
  const state = (name: string, body: string) => `  ${name}:\n${body.replace(/^/gm, '    ')}\n`;

  it('suggests the closest tool, state and field', () => {
    const text = `start-at: a\nstates:\n${state('a', 'tool: bassh\narguments: {command: x}\nnext: bb')}${state('b', 'tool: bash\narguments: {command: x}')}`;
    const ds = diags(text);
    assert.equal(ds.find((d) => d.code === 'flow-unknown-tool')?.data?.closest, 'bash');
    assert.equal(ds.find((d) => d.code === 'flow-unknown-target')?.data?.closest, 'b');
  });

  it('checks on-error and goto targets and parallel state tasks', () => {
    const text = `start-at: a\nstates:\n${state('a', 'tool: switch\narguments: {value: x}\ngoto: {x: p, _: nowhere}')}${state('p', 'tool: parallel\narguments:\n  tasks: [q, missing, {tool: bash, arguments: {command: x}, output: var(r)}]\non-error: {1: gone}')}${state('q', 'tool: bash\narguments: {command: x}')}`;
    const unknown = diags(text).filter((d) => d.code === 'flow-unknown-target').map((d) => text.slice(d.loc.start, d.loc.end));
    assert.deepEqual(unknown.sort(), ['gone', 'missing', 'nowhere']);
  });

  it('reads a parallel state task as reaching its state, and inline tasks with their tools', () => {
    const text = `start-at: p\nstates:\n${state('p', 'tool: parallel\narguments:\n  tasks: [q, {tool: bsh, arguments: {}}, {tool: claude, arguments: {}}]')}${state('q', 'tool: bash\narguments: {command: x}')}`;
    const ds = diags(text);
    assert.equal(ds.filter((d) => d.code === 'flow-unreachable-state').length, 0);
    assert.deepEqual(ds.map((d) => d.code).sort(), ['flow-missing-argument', 'flow-unknown-tool']);
  });

  it('a variable defined on some path only is not warned about (may-defined); variables, sub-flow and parallel outputs define', () => {
    const text = [
      'start-at: a',
      'variables: {who: me}',
      'states:',
      state('a', 'tool: bash\narguments: {command: x}\noutput: var(v)\non-error: {_: b}\nnext: c'),
      state('b', 'tool: sub-flow\narguments: {workflow: child.flow.yaml}\nnext: c'),
      state('c', 'tool: parallel\narguments:\n  tasks: [{tool: bash, arguments: {command: x}, output: var(t)}]\nnext: d'),
      state('d', 'tool: bash\narguments: {command: "{{ v }} {{ who }} {{ b::out }} {{t}} {{ c::x }}"}'),
    ].join('\n');
    const ds = diags(text).filter((d) => d.code === 'flow-undefined-variable');
    assert.deepEqual(ds.map((d) => text.slice(d.loc.start, d.loc.end)), ['{{ c::x }}']);
  });

  it('a state cannot use its own output, nor a later state\'s', () => {
    const text = `start-at: a\nstates:\n${state('a', 'tool: bash\narguments: {command: "{{ late }}"}\noutput: var(late)\nnext: b')}${state('b', 'tool: bash\narguments: {command: "{{ late }}"}')}`;
    const ds = diags(text).filter((d) => d.code === 'flow-undefined-variable');
    assert.equal(ds.length, 1);
    assert.equal(text.slice(0, ds[0]!.loc.start).split('\n').length, 5);
  });

  it('a cycle with a route out or a terminal state is not reported; a pause is no exit', () => {
    const loop = (extra: string) => `start-at: a\nstates:\n${state('a', 'tool: bash\narguments: {command: x}\nnext: b')}${state('b', `tool: pause\narguments: {reason: r}\nnext: a${extra}`)}${state('c', 'tool: bash\narguments: {command: x}')}`;
    assert.equal(diags(loop('')).filter((d) => d.code === 'flow-cycle-no-exit').length, 1);
    assert.equal(diags(loop('\non-error: {_: c}')).filter((d) => d.code === 'flow-cycle-no-exit').length, 0);
  });

  it('refuses absolute and escaping file() paths, keeps workspace-relative ones', () => {
    for (const [p, bad] of [
      ['/etc/passwd', true],
      ['C:\\\\x.txt', true],
      ['..', true],
      ['a/../../b', true],
      ['..\\\\x', true],
      ['out/a.txt', false],
      ['./a/../b.txt', false],
    ] as const) {
      const text = `start-at: a\nstates:\n${state('a', `tool: bash\narguments: {command: x}\noutput: "file(${p})"`)}`;
      assert.equal(diags(text).some((d) => d.code === 'flow-file-outside-workspace'), bad, p);
    }
  });

  it('reports names with a slash as errors, and a leading `_` on variables as warnings', () => {
    const text = `start-at: a/b\nvariables: {_x: 1}\nstates:\n${state('a/b', 'tool: bash\narguments: {command: x}\noutput: var(_y)')}`;
    assert.deepEqual(diags(text).filter((d) => /^flow-(reserved|underscore)-name$/.test(d.code)).map((d) => [d.code, d.severity]), [
      ['flow-underscore-name', 'warning'],
      ['flow-reserved-name', 'error'],
      ['flow-underscore-name', 'warning'],
    ]);
  });

  it('JSON flows: the same diagnostics at the string contents', () => {
    const text = '{"start-at": "a", "states": {"a": {"tool": "bsh", "arguments": {}, "next": "zz"}}}';
    const ds = diags(text, 'x.flow.json');
    assert.deepEqual(ds.map((d) => [d.code, text.slice(d.loc.start, d.loc.end)]), [
      ['flow-unknown-tool', 'bsh'],
      ['flow-unknown-target', 'zz'],
    ]);
  });

  it('the schema reports what the loader does not (JSON and YAML alike)', () => {
    for (const [text, file] of [
      ['{"start-at": "a", "states": {}}', 'x.flow.json'],
      ['start-at: a\nstates: {}\n', 'x.flow.yaml'],
    ] as const) {
      const ds = diags(text, file);
      assert.deepEqual(ds.map((d) => [d.code, d.loc.pointer]).sort(), [['flow-unknown-target', '/start-at'], ['invalid-value', '/states']], file);
    }
  });

  it('a switch whose goto is empty is a switch without goto', () => {
    const ds = diags(`start-at: a\nstates:\n${state('a', 'tool: switch\narguments: {value: x}\ngoto: {}')}`);
    assert.deepEqual(ds.map((d) => d.code), ['flow-switch-without-goto']);
  });

  it('missing start-at, missing tool', () => {
    const ds = diags('states:\n  a:\n    arguments: {}\n');
    assert.deepEqual(ds.map((d) => d.code).sort(), ['missing-field', 'missing-field']);
  });
});

describe('flow loader (IR)', () => {
  it('reads every field into the IR with locations', () => {
    const text = [
      'name: demo',
      'description: d',
      'start-at: a',
      'variables: {n: 1}',
      'states:',
      '  a:',
      '    tool: bash',
      '    arguments:',
      '      command: "echo {{ n }}"',
      '      timeout: 5',
      '    output: file(out/a.txt)',
      '    next: b',
      '    on-error: {2: b, _: b}',
      '  b:',
      '    tool: switch',
      '    arguments: {value: x}',
      '    goto: {x: a, _: a}',
    ].join('\n');
    const r = loadWorkflowText(text, 'demo.flow.yaml');
    assert.deepEqual(r.diagnostics, []);
    const wf = r.workflow!;
    assert.equal(wf.format, 'flow');
    assert.equal(wf.id, 'demo');
    assert.equal(wf.description, 'd');
    assert.equal(wf.initial.name, 'a');
    assert.deepEqual(wf.flow?.variables, { n: 1 });
    const a = wf.states.get('a')!.flow!;
    assert.equal(a.tool, 'bash');
    assert.deepEqual(a.arguments, { command: 'echo {{ n }}', timeout: 5 });
    assert.equal(text.slice(a.argumentLocs.command!.start, a.argumentLocs.command!.end), 'echo {{ n }}');
    assert.equal(text.slice(a.argumentLocs.timeout!.start, a.argumentLocs.timeout!.end), '5');
    assert.deepEqual(a.output && { kind: a.output.kind, path: (a.output as { path: string }).path }, { kind: 'file', path: 'out/a.txt' });
    assert.equal(a.next?.name, 'b');
    assert.deepEqual(a.onError.map((e) => [e.code, e.target.name]), [[2, 'b'], ['_', 'b']]);
    assert.deepEqual(wf.states.get('b')!.flow!.goto.map((g) => [g.value, g.target.name]), [['x', 'a'], ['_', 'a']]);
    assert.deepEqual(wf.states.get('a')!.on, []);
  });

  it('names a flow by its file when it has no name', () => {
    assert.equal(loadWorkflowText('start-at: a\nstates: {a: {tool: pause, arguments: {reason: r}}}', 'dir/deploy.flow.yml').workflow?.id, 'deploy');
  });

  it('exports a Mermaid diagram with next, on-error and goto edges labelled', () => {
    const text = 'start-at: a\nstates:\n  a: {tool: bash, arguments: {command: x}, next: s, on-error: {1: s, _: s}}\n  s: {tool: switch, arguments: {value: x}, goto: {"y": a, _: e}}\n  e: {tool: bash, arguments: {command: x}}\n';
    const m = exportWorkflow(loadWorkflowText(text, 'x.flow.yaml').workflow!, 'mermaid');
    for (const line of ['[*] --> s_a', 's_a --> s_s: next', 's_a --> s_s: exit 1', 's_a --> s_s: exit _', 's_s --> s_a: = "y"', 's_s --> s_e: otherwise', 's_e --> [*]']) {
      assert.ok(m.includes(line), `${line}\n${m}`);
    }
    // Mermaid's own grammar (as the exports' other tests check it) reads it.
    const d = readMermaidStateDiagram(m, { strict: true });
    assert.equal(d.relations.filter((r) => r.label !== undefined).length, 5);
  });
});

describe('docs/flows.md', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'flows.md'), 'utf8');
  it('lists every diagnostic code in its table', () => {
    for (const code of Object.keys(TABLE)) assert.ok(doc.includes(`| \`${code}\` |`), code);
  });
  it('its example flow is clean', () => {
    const example = /```yaml\n(# yaml-language-server[\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const r = checkWorkflowFile(example, path.join(__dirname, 'example.flow.yaml'), { resolveInvoke: false });
    assert.equal(r.format, 'flow');
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.workflow?.states.size, 7);
  });
});

describe('docs/flows.md: running in VS Code', () => {
  const docs = path.join(__dirname, '..', '..', 'docs');
  const doc = fs.readFileSync(path.join(docs, 'flows.md'), 'utf8');
  const section = /\n## Running in VS Code\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
  it('tells about trust, the terminal, the input box, the models, the Flows view and the panel', () => {
    for (const what of ['Restricted Mode', "file's hash", 'input box', 'streams into the terminal', 'Flows view', 'Pause', 'Resume', 'Stop', 'state panel']) {
      assert.ok(section.includes(what), `"${what}" in the section`);
    }
  });
  it('shows a flow run (the screenshot the flows e2e test keeps)', () => {
    const images = [...section.matchAll(/!\[[^\]]+\]\((images\/[^)]+)\)/g)].map((m) => m[1]!);
    assert.deepEqual(images, ['images/flow-run.png']);
    assert.ok(fs.statSync(path.join(docs, images[0]!)).size > 10_000);
  });
});
