/**
 * One-shot grants. A call outside the stage's tools is put to a person: the
 * proposal names the tool and a digest of its arguments. An approval mints a
 * grant for exactly that tool and digest, used by one call and then gone; a
 * call with other arguments is a new proposal. A denial, or no person to ask
 * (headless), answers the model with a typed denial and the stage goes on.
 * Grants end with their stage execution (stage-sync.ts).
 */
import type { Workflow } from '../model/index.js';
import type { MachineEnv, MachineResult } from '../machine/operations.js';
import type { JournalEntry, RunSnapshot } from '../machine/run.js';
import { stageFor } from './positions.js';
import { scoped } from './stage-sync.js';
import { emptyPipeline, type Grant, type GrantAnswerer, type GrantProposal } from '../model/pipeline.js';

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same arguments. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v as object).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** sha256 (hex) of the arguments' canonical JSON. */
export function argsDigest(input: unknown): string {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(canonical(input), 'utf8').digest('hex');
}

/** The arguments as a person reads them in the question (cut to a line or two). */
export function argsSummary(input: unknown, max = 200): string {
  const text = canonical(input);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What the model is told when a grant is refused: typed, so it can replan within the envelope. */
export interface TypedDenial {
  type: 'denied_tool_call';
  tool: string;
  /** `denied`, `headless`: a grant was asked and not given; `outside_stage`: the tool is not the stage's (no grant was asked). */
  reason: 'denied' | 'headless' | 'outside_stage';
  stage: string;
  message: string;
}

export interface AskOutcome {
  proposal?: GrantProposal;
  error?: { code: string; message: string };
}

export function askGrant(run: RunSnapshot, tool: string, input: unknown, env: MachineEnv, branch?: string): MachineResult<AskOutcome> {
  const at = stageFor(run, (t: string): Workflow | undefined => env.load(t), branch);
  if (typeof at === 'string' || !at.exec) return { run, journal: [], outcome: { error: { code: 'not_a_stage', message: typeof at === 'string' ? at : 'the stage has no execution recorded' } } };
  const pipeline = run.pipeline ?? emptyPipeline();
  const seq = pipeline.seq + 1;
  const now = env.now();
  const proposal: GrantProposal = { id: `gp-${seq}`, tool, argsDigest: argsDigest(input), argsSummary: argsSummary(input), stageExecId: at.exec.id, attempt: at.exec.attempt, state: at.node.id, scope: at.live.scope, askedAt: now };
  const entry: JournalEntry = { kind: 'grant_asked', stage_exec_id: proposal.stageExecId, attempt: proposal.attempt, state: proposal.state, proposal_id: proposal.id, tool, args_digest: proposal.argsDigest, args_summary: proposal.argsSummary, at: now, ...scoped(proposal.scope) };
  return { run: { ...run, pipeline: { ...pipeline, seq, proposals: [...pipeline.proposals, proposal] } }, journal: [entry], outcome: { proposal } };
}

export interface AnswerOutcome {
  approved: boolean;
  proposal_id: string;
  /** A refusal, as the model reads it. */
  denial?: TypedDenial;
  error?: { code: string; message: string };
}

export function answerGrant(run: RunSnapshot, proposalId: string, approved: boolean, by: GrantAnswerer, env: MachineEnv): MachineResult<AnswerOutcome> {
  const pipeline = run.pipeline ?? emptyPipeline();
  const proposal = pipeline.proposals.find((p) => p.id === proposalId);
  if (!proposal) return { run, journal: [], outcome: { approved: false, proposal_id: proposalId, error: { code: 'unknown_proposal', message: `no open proposal ${proposalId} (its stage may have ended)` } } };
  const now = env.now();
  const granted = approved && by !== 'headless';
  const entry: JournalEntry = { kind: 'grant_answered', stage_exec_id: proposal.stageExecId, attempt: proposal.attempt, state: proposal.state, proposal_id: proposal.id, tool: proposal.tool, args_digest: proposal.argsDigest, approved: granted, by, at: now, ...scoped(proposal.scope) };
  const proposals = pipeline.proposals.filter((p) => p.id !== proposalId);
  const grants: Grant[] = granted ? [...pipeline.grants, { proposalId: proposal.id, tool: proposal.tool, argsDigest: proposal.argsDigest, stageExecId: proposal.stageExecId, scope: proposal.scope }] : pipeline.grants;
  const outcome: AnswerOutcome = granted ? { approved: true, proposal_id: proposal.id } : { approved: false, proposal_id: proposal.id, denial: typedDenial(proposal, by === 'headless' ? 'headless' : 'denied') };
  return { run: { ...run, pipeline: { ...pipeline, proposals, grants } }, journal: [entry], outcome };
}

export function typedDenial(p: Pick<GrantProposal, 'tool' | 'state'>, reason: TypedDenial['reason']): TypedDenial {
  if (reason === 'outside_stage') return { type: 'denied_tool_call', tool: p.tool, reason, stage: p.state, message: `${p.tool} is outside stage "${p.state}"'s tools. Go on with the stage's own tools.` };
  const why = reason === 'headless' ? 'there is no person to approve it (headless)' : 'the person denied it';
  return { type: 'denied_tool_call', tool: p.tool, reason, stage: p.state, message: `${p.tool} is outside stage "${p.state}"'s tools and ${why}. Go on with the stage's own tools.` };
}

/** The grant a call may use (same scope, tool and argument digest), if any. */
export function findGrant(run: RunSnapshot, tool: string, input: unknown, scope: string): Grant | undefined {
  const grants = run.pipeline?.grants;
  if (!grants?.length) return undefined;
  const digest = argsDigest(input);
  return grants.find((g) => g.scope === scope && g.tool === tool && g.argsDigest === digest);
}

/** Uses up a grant: it is gone, and the journal says which call took it. */
export function consumeGrant(run: RunSnapshot, grant: Grant, at: string): { run: RunSnapshot; journal: JournalEntry[] } {
  const pipeline = run.pipeline ?? emptyPipeline();
  const exec = Object.values(pipeline.execs).find((e) => e.id === grant.stageExecId);
  const entry: JournalEntry = { kind: 'grant_consumed', stage_exec_id: grant.stageExecId, attempt: exec?.attempt ?? 0, state: exec?.state ?? run.state, proposal_id: grant.proposalId, tool: grant.tool, args_digest: grant.argsDigest, at, ...scoped(grant.scope) };
  return { run: { ...run, pipeline: { ...pipeline, grants: pipeline.grants.filter((g) => g !== grant) } }, journal: [entry] };
}


/**
 * A call the client put to the person itself (a hook's "ask", whose answer
 * stategate never hears) reported as having run: the person approved it. The
 * open proposal for exactly that call is answered and its grant used at once,
 * so the audit shows the grant as it happened. Undefined: no such proposal.
 */
export function settleAskedGrant(run: RunSnapshot, tool: string, input: unknown, env: MachineEnv): { run: RunSnapshot; journal: JournalEntry[] } | undefined {
  const proposals = run.pipeline?.proposals;
  if (!proposals?.length) return undefined;
  const digest = argsDigest(input);
  const open = proposals.find((p) => p.tool === tool && p.argsDigest === digest);
  if (!open) return undefined;
  const answered = answerGrant(run, open.id, true, 'person', env);
  const grant = answered.run.pipeline?.grants.find((g) => g.proposalId === open.id);
  if (!grant) return { run: answered.run, journal: answered.journal };
  const used = consumeGrant(answered.run, grant, env.now());
  return { run: used.run, journal: [...answered.journal, ...used.journal] };
}
