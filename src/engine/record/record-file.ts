/**
 * The run record's files in a run folder, written by the store with every
 * commit of the run, under the run's lock:
 *
 *   runs/<id>/agent-state.json          the record (atomic: temp file, rename)
 *   runs/<id>/learnings.jsonl           every learning, one a line, with its journal seq
 *   runs/<id>/checkpoints/checkpoint-NNN.json   the record (and the context) at each state change
 *   runs/<id>/checkpoint.json           the latest of them (side-files.ts)
 *   runs/<id>/locks.json                the files each task at work has written (side-files.ts)
 *
 * and the same three files of the run changed last at the top of the
 * `.stategate` folder (`.stategate/agent-state.json`, `checkpoint.json`,
 * `locks.json`), where the seed's readers look for one run's record,
 *
 * and, when the person asked for it (the VS Code setting
 * `stategate.mirrorRunRecord`, kept in `.stategate/record-mirror.json` for the
 * processes outside VS Code), a copy at `<workspace>/.claude/agent-state.json`.
 *
 * Like the journal, the record follows run.json, whose rename is the commit
 * point: it carries the journal seq it reflects, and a writer killed before
 * writing it leaves it one change behind (never unreadable), which the next
 * commit makes good from the journal. Learnings and snapshots are written
 * before the record, and written again the same way when a killed writer's
 * change is caught up (a learning's seq keeps it from being appended twice).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendLinesDurable, writeFileAtomic } from '../util/atomic-file.js';
import type { Workflow } from '../model/index.js';
import type { RunSnapshot, StoredEntry } from '../machine/run.js';
import { deriveRecord, type SeqEntry } from './derive.js';
import { gitHead } from './git-head.js';
import { readSessions } from './sessions-seen.js';
import { CHECKPOINT_FILE, LOCKS_FILE, locksOf } from './side-files.js';
import type { AgentStateRecord } from './types.js';

export const RECORD_FILE = 'agent-state.json';

/**
 * The record's files are replaced atomically (a reader or a kill -9 never leaves one half written)
 * but not fsynced: the record is derived from run.json and the journal, which are, and a record lost
 * to a power cut reads as none and is rebuilt from the journal by the next commit. Measured: the two
 * fsyncs of a durable write added about 20 ms to each counted tool call here, a third of its commit.
 */
const DERIVED = { durable: false } as const;
export const LEARNINGS_FILE = 'learnings.jsonl';
/** In the `.stategate` folder: present (`{"enabled": true}`) while the record is mirrored to `.claude/`. */
export const MIRROR_SETTING_FILE = 'record-mirror.json';
export const MIRROR_PATH = path.join('.claude', 'agent-state.json');

export interface RecordContext {
  /** The `.stategate` folder. */
  readonly storeDir: string;
  /** The workspace: its git HEAD goes into checkpoints, and the mirror into its `.claude/`. */
  readonly workspaceRoot: string;
  readonly load: (definitionText: string) => Workflow | undefined;
  /** Tests: HEAD's sha (default: read from `.git`). */
  readonly gitHead?: (folder: string) => string | null;
}

export interface RecordChange {
  readonly runDir: string;
  readonly run: RunSnapshot;
  /** The journal entries of this change (the envelope's tail). */
  readonly tail: readonly StoredEntry[];
  readonly journalSeq: number;
  /** The whole journal, read only when the record is more than this change behind. */
  readonly journal: () => readonly StoredEntry[];
}

/** The record in a run folder; undefined when there is none or it cannot be read. */
export function readRecord(runDir: string): AgentStateRecord | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(runDir, RECORD_FILE), 'utf8')) as AgentStateRecord;
    return value && typeof value === 'object' && value.stategate && typeof value.stategate.journal_seq === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the record is mirrored to `.claude/agent-state.json` (the setting, as the extension wrote it). */
export function mirrorEnabled(storeDir: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(storeDir, MIRROR_SETTING_FILE), 'utf8')) as { enabled?: unknown })?.enabled === true;
  } catch {
    return false;
  }
}

/** Keep `.stategate/record-mirror.json` in step with the setting (the extension calls this). */
export function writeMirrorSetting(storeDir: string, enabled: boolean): void {
  const file = path.join(storeDir, MIRROR_SETTING_FILE);
  if (enabled) {
    fs.mkdirSync(storeDir, { recursive: true });
    writeFileAtomic(file, `${JSON.stringify({ enabled: true })}\n`);
  } else {
    fs.rmSync(file, { force: true });
  }
}

/**
 * The seq of the last learning in learnings.jsonl (0 when none), after cutting a torn last line
 * (a writer killed mid-append), so the next line starts on a line of its own.
 */
function lastLearningSeq(file: string): number {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  if (text !== '' && !text.endsWith('\n')) {
    text = text.slice(0, text.lastIndexOf('\n') + 1);
    fs.truncateSync(file, Buffer.byteLength(text));
  }
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]!.trim() === '') continue;
    try {
      const seq = (JSON.parse(lines[i]!) as { seq?: unknown }).seq;
      if (typeof seq === 'number') return seq;
    } catch {
      // not a learning line: look further back
    }
  }
  return 0;
}

/**
 * The record this process last wrote, with the identity of the file it wrote
 * (inode, size, change and modification times in nanoseconds). A long-lived
 * writer (the MCP server, the extension host) commits many times in a row; while
 * agent-state.json is still the file it wrote, the next commit starts from this
 * copy instead of reading and parsing the file again (a tenth of a commit with a
 * full record). Any other writer replaces the file by a rename, which gives it a
 * new inode and times, so the copy is not used and the file is read as before.
 */
let lastWritten: { readonly file: string; readonly identity: string; readonly record: AgentStateRecord } | undefined;

function fileIdentity(file: string): string | undefined {
  try {
    const st = fs.statSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/** The record in the run folder: this process's last one while the file is still that one, else read. */
function previousRecord(runDir: string): AgentStateRecord | undefined {
  const file = path.join(runDir, RECORD_FILE);
  if (lastWritten && lastWritten.file === file) {
    const identity = fileIdentity(file);
    if (identity !== undefined && identity === lastWritten.identity) return lastWritten.record;
  }
  lastWritten = undefined;
  return readRecord(runDir);
}

/** Tests: forget the record kept by writeRunRecord, so the next commit reads the file. */
export function forgetWrittenRecord(): void {
  lastWritten = undefined;
}

/** A file that changes seldom (locks.json): read and compared before it is replaced, a read being cheaper than a write. */
function writeIfChanged(file: string, text: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    // none yet
  }
  writeFileAtomic(file, text, DERIVED);
}

/** Bring the run's record up to this change: the store calls it after each commit. */
export function writeRunRecord(change: RecordChange, ctx: RecordContext): void {
  const { runDir, run, tail, journalSeq } = change;
  let prev = previousRecord(runDir);
  if (prev && (prev.stategate.run_id !== run.runId || prev.stategate.journal_seq > journalSeq)) prev = undefined;
  const since = prev?.stategate.journal_seq ?? 0;
  // This change's entries; after a killed writer (or with no record yet on an older run), every entry since the record.
  const firstNew = tail.length > 0 ? tail[0]!.seq : journalSeq + 1;
  const source = firstNew <= since + 1 ? tail : change.journal();
  const entries = source.filter((e) => e.seq > since && e.seq <= journalSeq) as unknown as SeqEntry[];
  const derived = deriveRecord(prev, {
    run,
    workflow: ctx.load(run.workflow.definitionText),
    entries,
    journalSeq,
    gitSha: () => (ctx.gitHead ?? gitHead)(ctx.workspaceRoot),
    workspaceRoot: ctx.workspaceRoot,
    runDir,
    sessions: readSessions(runDir),
  });
  // The run folder's files, then the same at the top of the store (the run changed last).
  const places = [runDir, ctx.storeDir];
  if (derived.checkpoint) {
    fs.mkdirSync(path.join(runDir, 'checkpoints'), { recursive: true });
    const snapshot = `${JSON.stringify(derived.checkpoint.content, null, 2)}\n`;
    writeFileAtomic(path.join(runDir, derived.checkpoint.file), snapshot, DERIVED);
    for (const dir of places) writeFileAtomic(path.join(dir, CHECKPOINT_FILE), snapshot, DERIVED);
  }
  const locks = `${JSON.stringify(locksOf(run, derived.record.stategate), null, 2)}\n`;
  for (const dir of places) writeIfChanged(path.join(dir, LOCKS_FILE), locks);
  if (derived.learnings.length) {
    const file = path.join(runDir, LEARNINGS_FILE);
    const last = lastLearningSeq(file);
    appendLinesDurable(
      file,
      derived.learnings.filter((l) => l.seq > last).map((l) => JSON.stringify(l)),
    );
  }
  const text = `${JSON.stringify(derived.record, null, 2)}\n`;
  const recordFile = path.join(runDir, RECORD_FILE);
  lastWritten = undefined; // until the new file is in place
  writeFileAtomic(recordFile, text, DERIVED);
  const identity = fileIdentity(recordFile);
  if (identity !== undefined) lastWritten = { file: recordFile, identity, record: derived.record };
  writeFileAtomic(path.join(ctx.storeDir, RECORD_FILE), text, DERIVED);
  for (const file of derived.dropped) fs.rmSync(path.join(runDir, file), { force: true });
  if (mirrorEnabled(ctx.storeDir)) {
    const mirror = path.join(ctx.workspaceRoot, MIRROR_PATH);
    fs.mkdirSync(path.dirname(mirror), { recursive: true });
    writeFileAtomic(mirror, text, DERIVED);
  }
}
