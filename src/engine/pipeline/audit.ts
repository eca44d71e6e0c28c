/**
 * A pipeline run's timeline, read back from its journal: one row per stage
 * execution (attempt, turns, duration, the prompt sent, each completion check
 * with its payload, each grant), and the pipeline's next-stage decisions.
 * `stategate run audit` prints it; the state panel draws it.
 */
import type { JsonValue } from '../model/index.js';
import type { JournalEntry } from '../machine/run.js';
import { STAGE_EVENT_KINDS, type StageEvent } from '../model/pipeline.js';

export interface AuditGrant {
  proposal_id: string;
  tool: string;
  args_summary: string;
  asked_at: string;
  answered_at?: string;
  approved?: boolean;
  by?: string;
  consumed_at?: string;
}

export interface AuditCompletion {
  at: string;
  valid: boolean;
  payload: JsonValue;
  errors?: string[];
}

export interface AuditStage {
  stage_exec_id: string;
  state: string;
  attempt: number;
  scope?: string;
  started_at: string;
  ended_at?: string;
  /** Milliseconds from setup to exit, on the run's clock. */
  duration_ms?: number;
  outcome?: string;
  reason?: string;
  turns: number;
  turn_cap?: number;
  prompt?: string;
  completions: AuditCompletion[];
  grants: AuditGrant[];
}

export interface AuditTimeline {
  stages: AuditStage[];
  decisions: { at: string; from: string[]; to: string[]; status?: string }[];
  /** Every stage boundary event, in journal order. */
  events: (StageEvent & { at: string; scope?: string })[];
}

type Stamped = StageEvent & { at: string; scope?: string; status?: string };

export function isStageEvent(e: JournalEntry): e is JournalEntry & Stamped {
  return STAGE_EVENT_KINDS.has(e.kind);
}

export function auditTimeline(journal: readonly JournalEntry[]): AuditTimeline {
  const stages = new Map<string, AuditStage>();
  const decisions: AuditTimeline['decisions'] = [];
  const events: AuditTimeline['events'] = [];
  const grant = (s: AuditStage, id: string): AuditGrant | undefined => s.grants.find((g) => g.proposal_id === id);
  for (const raw of journal) {
    if (!isStageEvent(raw)) continue;
    const e = raw as Stamped;
    events.push(e);
    if (e.kind === 'next_stage') {
      decisions.push({ at: e.at, from: e.from, to: e.to, ...(e.status ? { status: e.status } : {}) });
      continue;
    }
    if (e.kind === 'stage_setup') {
      stages.set(e.stage_exec_id, { stage_exec_id: e.stage_exec_id, state: e.state, attempt: e.attempt, ...(e.scope ? { scope: e.scope } : {}), started_at: e.at, turns: 0, ...(e.turn_cap === undefined ? {} : { turn_cap: e.turn_cap }), completions: [], grants: [] });
      continue;
    }
    const s = stages.get(e.stage_exec_id);
    if (!s) continue;
    switch (e.kind) {
      case 'prompt_sent':
        s.prompt = e.prompt;
        break;
      case 'turn':
        s.turns = Math.max(s.turns, e.turn);
        break;
      case 'completion_checked':
        s.completions.push({ at: e.at, valid: e.valid, payload: e.payload, ...(e.errors ? { errors: e.errors } : {}) });
        break;
      case 'grant_asked':
        s.grants.push({ proposal_id: e.proposal_id, tool: e.tool, args_summary: e.args_summary, asked_at: e.at });
        break;
      case 'grant_answered': {
        const g = grant(s, e.proposal_id);
        if (g) Object.assign(g, { answered_at: e.at, approved: e.approved, by: e.by });
        break;
      }
      case 'grant_consumed': {
        const g = grant(s, e.proposal_id);
        if (g) g.consumed_at = e.at;
        break;
      }
      case 'stage_exit': {
        s.ended_at = e.at;
        s.outcome = e.outcome;
        s.turns = Math.max(s.turns, e.turns);
        if (e.reason) s.reason = e.reason;
        const ms = Date.parse(e.at) - Date.parse(s.started_at);
        if (Number.isFinite(ms)) s.duration_ms = ms;
        break;
      }
    }
  }
  return { stages: [...stages.values()], decisions, events };
}

/** The timeline as text, one line per stage and boundary (`stategate run audit`). */
export function auditText(t: AuditTimeline): string {
  if (!t.stages.length) return 'No stage events: the run is not a stage pipeline, or no stage has started.';
  const lines: string[] = [];
  for (const s of t.stages) {
    const where = s.scope ? ` [${s.scope}]` : '';
    const dur = s.duration_ms === undefined ? 'running' : `${(s.duration_ms / 1000).toFixed(1)} s`;
    lines.push(`${s.state}${where} #${s.attempt} (${s.stage_exec_id}): ${s.outcome ?? 'active'}, ${s.turns}${s.turn_cap ? `/${s.turn_cap}` : ''} turns, ${dur}${s.reason ? ` — ${s.reason}` : ''}`);
    for (const g of s.grants) lines.push(`  grant ${g.tool} ${g.args_summary}: ${g.approved === undefined ? 'asked' : g.approved ? 'approved' : `denied (${g.by})`}${g.consumed_at ? ', used' : ''}`);
    for (const c of s.completions) lines.push(`  completion ${c.valid ? 'valid' : `invalid: ${(c.errors ?? []).join('; ')}`}`);
  }
  for (const d of t.decisions) lines.push(`next: ${d.from.join(', ')} -> ${d.to.join(', ') || `(none${d.status ? `: run ${d.status}` : ''})`}`);
  return lines.join('\n');
}
