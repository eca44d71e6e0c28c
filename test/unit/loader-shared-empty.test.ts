// The loaders put one shared empty list (NONE), one shared empty record
// (NO_ENTRIES) and one shared rule set (readRules' NO_RULES) in every node
// that has nothing there (formats/shared-empty.ts): the IR is read-only, so
// that is the same value as a fresh one per node. The list is not frozen
// (iterating a frozen array allocated in optimized code), so this holds it
// to that: every statechart under test/fixtures and examples is loaded,
// validated, exported and run through every event its states name, and
// the shared values are still empty after all of it; and a chart's nodes
// read the same as before (empty where nothing is written, their own list
// where something is).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkWorkflowFile } from '../../src/engine/check/check-file.js';
import { loadWorkflowText } from '../../src/engine/formats/index.js';
import { NO_ENTRIES, NONE } from '../../src/engine/formats/shared-empty.js';
import { sendEvent, startChart, type ChartSnapshot } from '../../src/engine/statechart/index.js';
import { exportWorkflow } from '../../src/engine/export/text-exports.js';
import type { Workflow } from '../../src/engine/model/index.js';

const ROOT = path.join(__dirname, '..', '..');

function chartFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...chartFiles(p));
    else if (/\.statechart\.(ya?ml|json)$/.test(e.name)) out.push(p);
  }
  return out;
}

function events(wf: Workflow): string[] {
  const names = new Set<string>();
  for (const s of wf.states.values()) for (const t of s.chart?.transitions ?? []) if (t.trigger.kind === 'event' && t.trigger.event !== '*') names.add(t.trigger.event);
  return [...names];
}

test('the shared empty values stay empty through loading, validation, export and runs of every chart', () => {
  const files = [...chartFiles(path.join(ROOT, 'test', 'fixtures', 'statecharts')), ...chartFiles(path.join(ROOT, 'examples'))];
  assert.ok(files.length > 10, `charts found: ${files.length}`);
  let ran = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    checkWorkflowFile(text, file, { resolveSrc: false });
    const wf = loadWorkflowText(text, file).workflow;
    if (!wf || wf.format !== 'statechart') continue;
    for (const format of ['mermaid', 'plantuml', 'dot'] as const) exportWorkflow(wf, format);
    let started: ChartSnapshot | undefined;
    try {
      started = startChart(wf, { now: 0 }).snapshot;
    } catch {
      continue; // a fixture of a validation rule need not start
    }
    let snapshot = started;
    for (let round = 0; round < 3; round++) {
      for (const type of events(wf)) {
        const r = sendEvent(wf, snapshot, { type }, { now: 1000 * round });
        if (r.snapshot) snapshot = r.snapshot;
        ran++;
      }
    }
  }
  assert.ok(ran > 50, `events sent: ${ran}`);
  assert.equal(NONE.length, 0);
  assert.deepEqual(Object.keys(NO_ENTRIES), []);
});

test('nodes read as before: empty lists where nothing is written, their own where something is', () => {
  const text = [
    'statechart:',
    '  id: shapes',
    '  initial: a',
    '  states:',
    '    a:',
    '      entry: [hello]',
    '      on:',
    '        GO: b',
    '    b:',
    '      allowed_tools: [Read]',
    '      on:',
    '        BACK:',
    '          target: a',
    '          actions: [hello]',
    '  actions:',
    '    hello: {type: log, message: hi}',
  ].join('\n');
  const wf = loadWorkflowText(text, 'shapes.statechart.yaml').workflow!;
  const a = wf.states.get('a')!;
  const b = wf.states.get('b')!;
  assert.deepEqual(a.children, []);
  assert.deepEqual(a.on, []);
  assert.deepEqual(a.chart!.exit, []);
  assert.deepEqual(a.chart!.invoke, []);
  assert.equal(a.chart!.entry.length, 1);
  assert.deepEqual(a.chart!.transitions[0]!.actions, []);
  assert.deepEqual(a.rules, { disallowedTools: [], blockedEnv: [], envOverrides: {} });
  assert.deepEqual(b.rules, { disallowedTools: [], blockedEnv: [], envOverrides: {}, allowedTools: ['Read'] });
  assert.notEqual(b.rules.disallowedTools, NONE, 'a node with rules gets lists of its own');
  assert.equal(b.chart!.transitions[0]!.actions.length, 1);
  assert.deepEqual(b.chart!.entry, []);
});
