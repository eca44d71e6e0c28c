#!/usr/bin/env node
// Rebuild a run's run.json from its journal (docs/reliability.md, "Recovering a run by hand").
//
//   node scripts/recover-run.mjs [--dir .stategate] [RUN_ID] [--definition FILE] [--write] [--activate]
//
// RUN_ID defaults to the id in `.stategate/active`. Without --write it only
// prints what it would do. What it rebuilds: the run's state, context, status
// and transition count, replayed from journal.jsonl (src/engine/replay.ts),
// on the workflow definition the run was started (or last reloaded) with: the
// old run.json's copy if it still parses, else the workflow file named in the
// journal, else --definition FILE, and only if its sha256 is the journal's.
// What it cannot rebuild (refused, unless --force): an approval still parked,
// an interrupt still active, a fork or child run in progress. Per-state counters
// (iterations, edited files, bytes read) start again at zero, as on resume.
// The old run.json is kept beside it as run.json.broken-<time>.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';

// The engine's TypeScript sources (CommonJS), loaded through tsx (a dev dependency of this repository).
const require = createRequire(import.meta.url);
require('tsx/cjs/api').register();
const { checkWorkflowFile } = require('../src/engine/check/check-file.ts');
const { replay } = require('../src/engine/store/replay.ts');
const { hashText } = require('../src/engine/machine/run.ts');
const machine = require('../src/engine/machine/operations.ts');
const { createMachineEnv } = require('../src/engine/machine/env.ts');
const { writeFileAtomic } = require('../src/engine/util/atomic-file.ts');
const { RUN_FORMAT, RUN_FORMAT_VERSION } = require('../src/engine/store/run-store.ts');
const { ActiveRecordFile, workspaceOf } = require('../src/engine/store/active-record.ts');
const { userStateDir } = require('../src/engine/util/user-state-dir.ts');

function fail(message) {
  process.stderr.write(`recover-run: ${message}\n`);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string', default: '.stategate' },
    definition: { type: 'string' },
    write: { type: 'boolean', default: false },
    activate: { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
  process.exit(0);
}

const dir = path.resolve(values.dir);
let runId = positionals[0];
if (!runId) {
  try {
    runId = fs.readFileSync(path.join(dir, 'active'), 'utf8').trim();
  } catch {
    fail(`no RUN_ID given and no ${path.join(dir, 'active')}`);
  }
}
if (!/^[A-Za-z0-9._-]+$/.test(runId) || runId.startsWith('.')) fail(`${JSON.stringify(runId)} is not a run id`);
const runDir = path.join(dir, 'runs', runId);
const runFile = path.join(runDir, 'run.json');
const journalFile = path.join(runDir, 'journal.jsonl');

// The journal: complete lines only (a torn last line is what a killed writer leaves).
let journalText;
try {
  journalText = fs.readFileSync(journalFile, 'utf8');
} catch (err) {
  fail(`cannot read ${journalFile}: ${err.message}`);
}
const entries = [];
const lines = journalText.split('\n');
for (let i = 0; i < lines.length; i++) {
  if (lines[i].trim() === '') continue;
  try {
    entries.push(JSON.parse(lines[i]));
  } catch {
    if (i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '')) break; // torn last line
    fail(`${journalFile}:${i + 1} is not JSON (not the last line, so this is not a torn write)`);
  }
}
const gap = entries.findIndex((e, i) => e.seq !== i + 1);
if (gap >= 0) fail(`the journal's seq is not gapless at line ${gap + 1} (seq ${entries[gap].seq}, expected ${gap + 1})`);
const start = entries.find((e) => e.kind === 'start' && e.scope === undefined);
if (!start) fail('the journal has no start entry');

// The definition the run is on now: the start's hash, or the last reload's.
const reloads = entries.filter((e) => e.kind === 'reload' && e.scope === undefined);
const wantHash = reloads.length ? reloads[reloads.length - 1].hash : start.hash;
let old;
try {
  old = JSON.parse(fs.readFileSync(runFile, 'utf8'));
} catch {
  old = undefined;
}
const candidates = [
  ['the old run.json', () => old?.run?.workflow?.definitionText],
  [values.definition ?? '--definition', () => (values.definition ? fs.readFileSync(values.definition, 'utf8') : undefined)],
  [start.file ?? 'the workflow file', () => (start.file ? fs.readFileSync(start.file, 'utf8') : undefined)],
];
let definitionText;
let definitionFrom;
for (const [from, read] of candidates) {
  let text;
  try {
    text = read();
  } catch {
    text = undefined;
  }
  if (typeof text === 'string' && hashText(text) === wantHash) {
    definitionText = text;
    definitionFrom = from;
    break;
  }
}
if (definitionText === undefined) fail(`no definition with sha256 ${wantHash} (tried ${candidates.map((c) => c[0]).join(', ')}); pass the file it was started with as --definition FILE`);
const check = checkWorkflowFile(definitionText, start.file ?? 'workflow.json', { resolveInvoke: false });
if (!check.workflow) fail(`the definition from ${definitionFrom} does not load`);

// What cannot be rebuilt from the journal: anything still open at its end.
const open = [];
const last = (kinds) => {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].scope === undefined && kinds.includes(entries[i].kind)) return entries[i];
  return undefined;
};
const approval = last(['approval_requested', 'approved', 'approval_rejected', 'approval_withdrawn', 'force']);
if (approval?.kind === 'approval_requested') open.push(`an approval of ${approval.event} is parked`);
const interrupt = last(['interrupt', 'interrupt_return', 'force']);
if (interrupt?.kind === 'interrupt') open.push(`interrupt ${interrupt.name} may still be active`);
const fork = last(['fork_start', 'join', 'force']);
if (fork?.kind === 'fork_start') open.push('a fork is in progress');
const child = last(['invoke_start', 'child_done', 'force']);
if (child?.kind === 'invoke_start') open.push(`a child run of ${child.invoked} is in progress`);
if (open.length && !values.force) fail(`cannot rebuild: ${open.join('; ')}. Stop the run instead (stategate run stop), or pass --force to rebuild without it`);

const rebuilt = replay(entries);
const env = createMachineEnv({});
const fresh = machine.startRun(check.workflow, definitionText, { runId, ...(start.file ? { file: start.file } : {}), hash: wantHash }, env);
if (!fresh.run) fail('the definition does not start a run');
const visited = [...new Set([start.state, ...entries.filter((e) => e.scope === undefined && 'to' in e && typeof e.to === 'string').map((e) => e.to)])];
const taken = [];
for (const e of entries) {
  const event = e.kind === 'transition' ? e.event : e.kind === 'interrupt' ? `interrupt:${e.name}` : undefined;
  if (e.scope === undefined && event !== undefined && !taken.some((t) => t.from === e.from && t.event === event && t.to === e.to)) taken.push({ from: e.from, event, to: e.to });
}
const now = new Date().toISOString();
const run = {
  ...fresh.run,
  state: rebuilt.state,
  context: rebuilt.context,
  status: rebuilt.status,
  counters: { ...fresh.run.counters, transitions: rebuilt.transitions },
  visited,
  taken,
  createdAt: start.at ?? fresh.run.createdAt,
  updatedAt: now,
};
if (!check.workflow.states.has(run.state)) fail(`the replayed state ${run.state} is not in the definition`);
const envelope = { format: RUN_FORMAT, version: RUN_FORMAT_VERSION, journalSeq: entries.length, tail: [], run };

const summary = { run: runId, journal_entries: entries.length, definition_from: definitionFrom, state: run.state, status: run.status, transitions: rebuilt.transitions, context_keys: Object.keys(run.context).length, not_restored: open };
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
if (!values.write) {
  process.stdout.write('dry run: pass --write to replace run.json (and --activate to make it the active run)\n');
  process.exit(0);
}
if (fs.existsSync(runFile)) fs.renameSync(runFile, `${runFile}.broken-${now.replace(/[:.]/g, '-')}`);
// The journal ends with a complete line, so the next writer appends cleanly.
if (journalText !== '' && !journalText.endsWith('\n')) writeFileAtomic(journalFile, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
const text = `${JSON.stringify(envelope, null, 2)}\n`;
writeFileAtomic(runFile, text);
if (values.activate) writeFileAtomic(path.join(dir, 'active'), `${runId}\n`);
// The record outside the workspace (src/engine/active-record.ts) names what stategate last wrote: a person
// rebuilding the active run vouches for the new file, so the record follows it (or goes, if it enforces nothing).
let active;
try {
  active = fs.readFileSync(path.join(dir, 'active'), 'utf8').trim();
} catch {
  active = undefined;
}
if (active === runId) {
  const record = new ActiveRecordFile(workspaceOf(dir), userStateDir());
  if (run.status === 'running') record.write({ run: runId, journalSeq: envelope.journalSeq, sha256: hashText(text) }, now);
  else record.clear();
}
process.stdout.write(`wrote ${runFile}${values.activate ? ' and made it active' : ''}\n`);
