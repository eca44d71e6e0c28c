/**
 * Runs a statechart run's pending handlers (docs/statechart-handlers.md), one
 * at a time, until none is left; what one does can make more due (its done
 * event enters a state that invokes another), and those run too.
 *
 * A handler runs only when every check passes, in this order, and otherwise
 * ends with its error event saying which failed:
 * 1. the workspace is trusted (VS Code's Restricted Mode runs nothing);
 * 2. the chart declares it (an MCP handler: its server is a stdio server
 *    of the workspace's .mcp.json or .vscode/mcp.json);
 * 3. a person trusts the run's chart, exactly the content the run keeps
 *    (trust-store.ts; the host may ask now), and a flow's file or the MCP
 *    configuration file (which says what command starts the server) likewise;
 * 4. the state's rules allow it as if the agent ran it: a command through
 *    the shell gate (Runner.tool with the Bash tool) before it starts; a
 *    flow's commands each through the same gate as the flow reaches them
 *    (gated-flow-host.ts), in the state the run is in then; an MCP tool
 *    through the tool rules as `mcp__<server>__<tool>`.
 * Its start, exit code and output size are journaled (`handler_start`,
 * `handler_end`); the output itself only becomes the done event's data.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFlow } from '../flow/control.js';
import type { FlowHost } from '../flow/host.js';
import type { FlowSummary } from '../flow/types.js';
import { gatedFlowHost } from './gated-flow-host.js';
import { chartWorkflow, completeChartInvocation } from '../machine/chart-run.js';
import type { JournalEntry, RunSnapshot } from '../machine/run.js';
import type { JsonObject, JsonValue, Workflow } from '../model/index.js';
import { shellQuote } from '../util/shell-quote.js';
import type { Runner } from '../runs/runner.js';
import { execCommand, HANDLER_TIMEOUT_MS, type ExecResult } from './exec-command.js';
import { callMcpTool } from './mcp-call.js';
import { findMcpServer, type StdioServer } from './mcp-server-config.js';
import { pendingHandlers, stillRunning, type HandlerWork, type PendingHandler } from './pending.js';
import { trustContent, trustState } from './trust-store.js';
import { flowTrust, flowTrustCheck, trustFlow, untrustedParts, type FlowTrust } from './flow-trust.js';
import type { TrustCheck } from '../flow/types.js';

/** What the person is shown when asked to trust a file (VS Code's modal). */
export interface TrustQuestion {
  readonly file: string;
  /** A content of the file was trusted before, not this one. */
  readonly changed: boolean;
  /** One line per thing it runs (`review: command npm test`). */
  readonly runs: readonly string[];
}

export interface HandlerHost {
  /** VS Code's workspace trust; a person's terminal (the CLI) has no Restricted Mode: true. */
  readonly workspaceTrusted: boolean;
  /** Asks the person to trust a file now; absent (the CLI): an untrusted file is refused, `stategate trust FILE` is the way. */
  confirm?(question: TrustQuestion): Promise<boolean>;
  /** Where a flow handler runs (the CLI's or VS Code's flow host); its commands are gated on the way. */
  readonly flowHost: FlowHost;
  /** Runs a command handler (default: execCommand in the workspace folder). */
  exec?(argv: readonly string[], params: JsonObject | undefined): Promise<ExecResult>;
}

export interface HandlerReport {
  readonly id: string;
  readonly handler: string;
  readonly ok: boolean;
  readonly exit_code: number | null;
  readonly bytes: number;
  readonly reason?: string;
  /**
   * Not run, and still pending: no person has trusted what it runs yet (the
   * CLI cannot ask; `stategate trust FILE` is the way) or the workspace is in
   * Restricted Mode. It runs on a later call once that changes; its service
   * gets no error event for it.
   */
  readonly waiting?: true;
}

/** Why a handler is not run now; `waits`: it stays pending for a person to trust what it runs (no error event). */
interface Refusal {
  readonly reason: string;
  readonly waits?: true;
}

/**
 * What a cleared handler runs, exactly as it was trusted: the flow file's text and the MCP server
 * read once for the trust check are the ones run, so a file swapped after the check never runs.
 */
type Cleared =
  | { readonly kind: 'command' }
  /** `text`: what was trusted of the flow (formats/flow-trust-text.ts), the only thing startFlow may run. */
  | { readonly kind: 'flow'; readonly trust: TrustCheck }
  | { readonly kind: 'mcp'; readonly server: StdioServer };

/** At most this many handlers in one call: handlers whose results invoke handlers again, without end, stop here. */
export const MAX_HANDLERS_PER_CALL = 100;

interface Ended {
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly bytes: number;
  readonly data: JsonObject;
  readonly reason?: string;
}

export async function runPendingHandlers(runner: Runner, host: HandlerHost): Promise<HandlerReport[]> {
  const reports: HandlerReport[] = [];
  // Handlers left pending in this call (untrusted): the others still run, and these are not tried again.
  const waiting = new Set<string>();
  for (let i = 0; i < MAX_HANDLERS_PER_CALL; i++) {
    const run = await runner.requireActive();
    if (run.status !== 'running') break;
    const wf = chartWorkflow(run, runner.env);
    if (!wf) break;
    const now = Date.parse(runner.env.now());
    const next = pendingHandlers(run, wf, (text) => runner.env.load(text)).find((p) => !claimedElsewhere(run, p.id, now) && !waiting.has(p.id));
    if (!next) break;
    if (!(await claim(runner, run.runId, next.id))) continue; // another process took it meanwhile
    const report = await runOne(runner, host, run, next);
    if (report.waiting) waiting.add(next.id);
    reports.push(report);
  }
  return reports;
}

/** A claim younger than the longest a handler may run (with a minute to spare): its process is still at it. */
function claimedElsewhere(run: RunSnapshot, id: string, now: number): boolean {
  const at = run.handlerClaims?.[id];
  return at !== undefined && now - Date.parse(at) < HANDLER_TIMEOUT_MS + 60_000;
}

/** Claims pending handler `id` for this process under the store's lock; false when it is claimed already or gone. */
async function claim(runner: Runner, runId: string, id: string): Promise<boolean> {
  return runner.apply((r) => {
    const wf = chartWorkflow(r, runner.env);
    const now = runner.env.now();
    if (!wf || r.runId !== runId || claimedElsewhere(r, id, Date.parse(now)) || !pendingHandlers(r, wf, (text) => runner.env.load(text)).some((p) => p.id === id)) return { run: r, journal: [], outcome: false };
    return { run: { ...r, handlerClaims: { ...r.handlerClaims, [id]: now } }, journal: [], outcome: true };
  });
}

/** The run without the claim on `id`. */
function unclaimed(r: RunSnapshot, id: string): RunSnapshot {
  if (!r.handlerClaims || !Object.hasOwn(r.handlerClaims, id)) return r;
  const { [id]: _gone, ...rest } = r.handlerClaims;
  const next: RunSnapshot = { ...r };
  if (Object.keys(rest).length) next.handlerClaims = rest;
  else delete next.handlerClaims;
  return next;
}

/** The pending handlers of the active run (none when it is not a running statechart run). */
export async function pendingOf(runner: Runner): Promise<PendingHandler[]> {
  const active = await runner.active();
  if (active.kind !== 'ok' || active.run.status !== 'running') return [];
  const wf = chartWorkflow(active.run, runner.env);
  return wf ? pendingHandlers(active.run, wf, (text) => runner.env.load(text)) : [];
}

async function runOne(runner: Runner, host: HandlerHost, run: RunSnapshot, p: PendingHandler): Promise<HandlerReport> {
  const checked = await refusalOf(runner, host, run, p);
  const refusal = 'reason' in checked ? checked : undefined;
  if (refusal?.waits) {
    await runner.apply((r) => ({ run: r.runId === run.runId ? unclaimed(r, p.id) : r, journal: [], outcome: undefined }));
    return { id: p.id, handler: p.handler, ok: false, exit_code: null, bytes: 0, reason: refusal.reason, waiting: true };
  }
  if (refusal !== undefined) return end(runner, run.runId, p, { ok: false, exitCode: null, bytes: 0, data: { error: refusal.reason, message: refusal.reason }, reason: refusal.reason });
  const cleared = checked as Cleared;
  const work = p.work as HandlerWork;
  const at = runner.env.now();
  const start: JournalEntry = {
    kind: 'handler_start',
    at,
    id: p.id,
    handler: p.handler,
    handler_kind: work.kind,
    state: p.state,
    ...(work.kind === 'command' ? { command: [...work.argv] } : {}),
    ...(work.kind === 'flow' ? { flow: runner.relativePath(work.file) ?? work.file } : {}),
    ...(work.kind === 'mcp' ? { mcp: { server: work.server, tool: work.tool } } : {}),
  };
  await runner.apply((r) => ({ run: r, journal: r.runId === run.runId ? [start] : [], outcome: undefined }));
  if (work.kind === 'command') return end(runner, run.runId, p, await runCommand(runner, host, work.argv, p.params));
  if (work.kind === 'flow' && cleared.kind === 'flow') return end(runner, run.runId, p, await runFlow(runner, host, work.file, cleared.trust, p.params));
  if (work.kind === 'mcp' && cleared.kind === 'mcp') return end(runner, run.runId, p, await runMcp(runner, cleared.server, work.tool, p.params));
  const reason = `handler \`${p.handler}\` was cleared for another kind of work than it declares`;
  return end(runner, run.runId, p, { ok: false, exitCode: null, bytes: 0, data: { error: reason, message: reason }, reason });
}

async function runMcp(runner: Runner, server: StdioServer, tool: string, params: JsonObject | undefined): Promise<Ended> {
  const r = await callMcpTool(server, runner.workspaceRoot, tool, params ?? {}, HANDLER_TIMEOUT_MS);
  if (r.ok) return { ok: true, exitCode: 0, bytes: r.bytes, data: { output: r.output } };
  const reason = r.error ?? `the MCP tool ${tool} failed`;
  return { ok: false, exitCode: null, bytes: r.bytes, data: { error: reason, message: reason, output: r.output }, reason };
}

async function runCommand(runner: Runner, host: HandlerHost, argv: readonly string[], params: JsonObject | undefined): Promise<Ended> {
  const r = await (host.exec ? host.exec(argv, params) : execCommand(argv, runner.workspaceRoot, params));
  if (r.exitCode === 0) return { ok: true, exitCode: 0, bytes: r.bytes, data: { output: parsedOutput(r.stdout), exit_code: 0 } };
  const reason = r.error ?? `${argv[0]} exited with code ${r.exitCode}`;
  return { ok: false, exitCode: r.exitCode, bytes: r.bytes, data: { error: reason, message: reason, exit_code: r.exitCode, output: parsedOutput(r.stdout) }, reason };
}

async function runFlow(runner: Runner, host: HandlerHost, file: string, trust: TrustCheck, params: JsonObject | undefined): Promise<Ended> {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) vars[k] = typeof v === 'string' ? v : JSON.stringify(v);
  let s: FlowSummary;
  try {
    s = await startFlow(gatedFlowHost(host.flowHost, (command) => gate(runner, command)), { file, vars, trust });
  } catch (err) {
    const reason = `the flow ${path.basename(file)} could not run: ${(err as Error).message}`;
    return { ok: false, exitCode: null, bytes: 0, data: { error: reason, message: reason }, reason };
  }
  const output: JsonObject = { ...s.variables };
  const bytes = Buffer.byteLength(JSON.stringify(output));
  if (s.status === 'completed' && (s.exit_code ?? 0) === 0) return { ok: true, exitCode: 0, bytes, data: { output, exit_code: 0, instance: s.instance } };
  const reason = `the flow ${s.flow} ended ${s.status}${s.exit_code === null ? '' : ` with exit code ${s.exit_code}`}${s.message ? `: ${s.message}` : ''}`;
  return { ok: false, exitCode: s.exit_code, bytes, data: { error: reason, message: reason, exit_code: s.exit_code, output, instance: s.instance }, reason };
}

/** JSON output comes back as the value it spells; anything else as its text. */
function parsedOutput(stdout: string): JsonValue {
  const text = stdout.trim();
  if (text === '') return '';
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** Journals the end and delivers it: a queued call leaves the queue, a service's invocation completes (its done or error event). */
async function end(runner: Runner, runId: string, p: PendingHandler, e: Ended): Promise<HandlerReport> {
  const entry: JournalEntry = {
    kind: 'handler_end',
    at: runner.env.now(),
    id: p.id,
    handler: p.handler,
    ok: e.ok,
    exit_code: e.exitCode,
    bytes: e.bytes,
    ...(e.reason === undefined ? {} : { reason: e.reason }),
  };
  await runner.apply((claimed) => {
    // Another run became the active one while the handler ran: this result is not its business.
    if (claimed.runId !== runId) return { run: claimed, journal: [], outcome: undefined };
    const r = unclaimed(claimed, p.id);
    if (p.source === 'action') {
      const calls = (r.handlerCalls ?? []).filter((c) => c.id !== p.id);
      const next: RunSnapshot = { ...r };
      if (calls.length) next.handlerCalls = calls;
      else delete next.handlerCalls;
      return { run: next, journal: [entry], outcome: undefined };
    }
    const wf = chartWorkflow(r, runner.env);
    const still = r.chart !== undefined && stillRunning(r.chart, p.id);
    // Its state was left while the handler ran: the result has nowhere to go, only the journal keeps it.
    if (!wf || !still) return { run: r, journal: [entry], outcome: undefined };
    const done = completeChartInvocation(r, wf, p.id, e.ok, e.data, runner.env, true);
    return { run: done.run, journal: [entry, ...done.journal], outcome: undefined };
  });
  return { id: p.id, handler: p.handler, ok: e.ok, exit_code: e.exitCode, bytes: e.bytes, ...(e.reason === undefined ? {} : { reason: e.reason }) };
}

/** Why the handler is not run now, or what it runs: the content the trust check read. */
async function refusalOf(runner: Runner, host: HandlerHost, run: RunSnapshot, p: PendingHandler): Promise<Refusal | Cleared> {
  const what = `handler \`${p.handler}\``;
  if (!host.workspaceTrusted) return { reason: `${what} is not run yet: the workspace is in Restricted Mode (trust the folder to run handlers)`, waits: true };
  const work = p.work;
  if (!work) return { reason: `${what} is not declared under the chart's \`handlers:\`` };
  const server = work.kind === 'mcp' ? findMcpServer(runner.workspaceRoot, work.server) : undefined;
  if (server && 'problem' in server) return { reason: `${what} is not run: ${server.problem}` };
  // The chart that declares the handler: the run's own, or the copy a child statechart keeps.
  const chartFile = p.chart.file;
  if (chartFile === undefined) return { reason: `${what} is not run: its chart has no file for a person to trust` };
  const chartTrust = await trusted(runner, host, chartFile, p.chart.text, handlerLines(p.chart.workflow));
  if (chartTrust) return { ...chartTrust, reason: `${what} is not run${chartTrust.waits ? ' yet' : ''}: ${chartTrust.reason}` };
  let flowCheck: TrustCheck | undefined;
  if (work.kind === 'flow') {
    let text: string;
    try {
      text = fs.readFileSync(work.file, 'utf8');
    } catch {
      return { reason: `${what} runs the flow ${work.file}, which cannot be read` };
    }
    // The flow with the custom tool registry it sees and the sub-flows it names: what VS Code and
    // `stategate trust` record for a flow (flow-trust.ts).
    const trust = flowTrust(runner.dir, work.file, text);
    const rel = (f: string): string => runner.relativePath(f) ?? f;
    const runs = [
      `the flow ${path.basename(work.file)}, every state as it leads${trust.tools.kind === 'none' ? '' : `, with the custom tools of ${rel(trust.tools.file)}`}`,
      ...trust.parts.slice(1).map((part) => `its sub-flow ${rel(part.file)}`),
    ];
    const refused = await trustedFlow(runner, host, trust, runs);
    if (refused) return { ...refused, reason: `${what} is not run${refused.waits ? ' yet' : ''}: ${refused.reason}` };
    flowCheck = flowTrustCheck(runner.dir, trust);
  }
  if (server && !('problem' in server)) {
    const starts = [server.server.command, ...server.server.args].map(quoteWord).join(' ');
    const configTrust = await trusted(runner, host, server.file, server.text, [`the MCP servers it configures, among them ${(work as { server: string }).server}: ${starts}`]);
    if (configTrust) return { ...configTrust, reason: `${what} is not run${configTrust.waits ? ' yet' : ''}: ${configTrust.reason}` };
  }
  if (work.kind === 'mcp') {
    const answer = await runner.tool({ tool: `mcp__${work.server}__${work.tool}`, input: p.params ?? {} });
    if (answer.enforcement === 'off') return { reason: `${what} is not run: the run is not running any more (${answer.reason ?? 'enforcement is off'})` };
    if (answer.decision === 'allow') return server && !('problem' in server) ? { kind: 'mcp', server: server.server } : { reason: `${what} is not run: its MCP server is not configured` };
    return { reason: `${what} is not run: the rules of state ${answer.state ?? run.state} do not allow the tool mcp__${work.server}__${work.tool}${answer.reason ? ` (${answer.reason})` : ''}` };
  }
  // A flow's commands are gated one by one as it runs them.
  if (work.kind === 'flow') return flowCheck === undefined ? { reason: `${what} runs a flow that was not read` } : { kind: 'flow', trust: flowCheck };
  const denied = await gate(runner, work.argv.map(quoteWord).join(' '));
  return denied === undefined ? { kind: 'command' } : { reason: `${what} is not run: ${denied}` };
}

/** Why the state's rules refuse `command` as the agent's Bash call (counted and journaled as one), or undefined. */
async function gate(runner: Runner, command: string): Promise<string | undefined> {
  const answer = await runner.tool({ tool: 'Bash', input: { command } });
  // With enforcement off (the run paused, stopped or ended meanwhile) every call passes: a handler does not.
  if (answer.enforcement === 'off') return `the run is not running any more (${answer.reason ?? 'enforcement is off'}): handlers run only while it runs`;
  if (answer.decision === 'allow') return undefined;
  return `the rules of state ${answer.state ?? '(unknown)'} do not allow \`${command}\`${answer.reason ? ` (${answer.reason})` : ''}`;
}

/**
 * Undefined when the person trusts this content of `file` (asked now where the
 * host can ask); else why not. A person who says no refuses the handler (its
 * service gets its error event); where nobody could be asked (the CLI), it
 * waits for `stategate trust FILE`.
 */
async function trusted(runner: Runner, host: HandlerHost, file: string, content: string, runs: readonly string[]): Promise<Refusal | undefined> {
  const state = trustState(runner.dir, file, content);
  if (state === 'trusted') return undefined;
  const rel = runner.relativePath(file) ?? file;
  const how = `a person runs \`stategate trust ${rel}\` after reading it`;
  if (host.confirm) {
    if (await host.confirm({ file, changed: state === 'changed', runs })) {
      trustContent(runner.dir, file, content);
      return undefined;
    }
    return { reason: `the person did not trust ${rel}${state === 'changed' ? ' as it is now' : ''}` };
  }
  return { reason: state === 'changed' ? `${rel} changed since a person trusted it; ${how}` : `no person has trusted ${rel}; ${how}`, waits: true };
}

/** As trusted(), for a flow: the flow and the sub-flows it names, asked about and recorded together (flow-trust.ts). */
async function trustedFlow(runner: Runner, host: HandlerHost, trust: FlowTrust, runs: readonly string[]): Promise<Refusal | undefined> {
  if (trust.state === 'trusted') return undefined;
  const file = trust.parts[0]!.file;
  const rel = runner.relativePath(file) ?? file;
  const subs = trust.parts.slice(1).some((part) => part.state !== 'trusted');
  const untrusted = untrustedParts(trust, runner.workspaceRoot).join(', ');
  const what = trust.parts[0]!.state !== 'trusted' && !subs ? `${rel} changed since a person trusted it` : `${untrusted} changed since a person trusted ${rel}`;
  const how = `a person runs \`stategate trust ${rel}\` after reading it${trust.parts.length > 1 ? ' and its sub-flows' : ''}`;
  if (host.confirm) {
    if (await host.confirm({ file, changed: trust.state === 'changed', runs })) {
      trustFlow(runner.dir, trust);
      return undefined;
    }
    return { reason: `the person did not trust ${rel}${trust.state === 'changed' ? ' as it is now' : ''}` };
  }
  return { reason: trust.state === 'changed' ? `${what}; ${how}` : `no person has trusted ${rel}; ${how}`, waits: true };
}

/** What the chart's handlers run, one line each (the trust question shows them). */
export function handlerLines(wf: Workflow): string[] {
  return [...(wf.chart?.handlers ?? [])].map(([name, def]) =>
    def.kind === 'command' ? `${name}: ${def.argv.map(quoteWord).join(' ')}` : def.kind === 'flow' ? `${name}: the flow ${def.file}` : `${name}: the MCP tool ${def.tool} of ${def.server}`,
  );
}

function quoteWord(w: string): string {
  return /^[A-Za-z0-9_\-.,/:=@%+]+$/.test(w) ? w : shellQuote(w);
}
