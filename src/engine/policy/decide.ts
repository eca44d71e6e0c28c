/**
 * Tool-call decisions: what every client asks before a call (`decide`) and
 * reports after it (`record`). Pure functions on a run snapshot, like the
 * machine: the Runner calls them under the store's lock and commits the new
 * counters. The enforcement table (no run, unreadable run, paused, final) is
 * applied by the Runner before it gets here; this is the "running" row.
 *
 * Order of checks (docs/enforcement.md): own tools → no state for the call
 * (a statechart or fork where no active state allows it: found.denial) → the
 * run's bounds (meta.max_cost, max_time) → protected files (a write into
 * the run's own files under `.stategate/` or into the files that install the
 * agent gate, by any tool or shell command, after symlinks: write-plan.ts)
 * → disallowed_tools → allowed_tools → max_iterations → shell rules → path
 * scope (allowed_paths, denied_paths, outside the workspace: util/paths/scope.ts)
 * → max_edit_lines → max_files_per_state → context_budget_bytes. An allowed
 * call counts one iteration when decided (a client may never report the
 * end); a denied call counts nothing.
 *
 * max_edit_lines holds each edit on its own (the lines that one call
 * changes); the lines are still counted as usage. Edited files are counted
 * when the call is decided, since the limits must hold before the edit runs and a client may never
 * report the result: an edit that then fails still used its allowance
 * (fail closed). Result bytes are counted when the result is reported.
 */
import { copyRun } from '../machine/cursor.js';
import { fileChanged, type MachineEnv, type MachineResult, type BranchOption } from '../machine/operations.js';
import { locateForCall, type LimitKey } from './effective-rules.js';
import { callCounters } from './limit-counters.js';
import type { JsonValue, StateNode, StateRules, Workflow } from '../model/index.js';
import type { JournalEntry, RunSnapshot } from '../machine/run.js';
import { lexicalPathEnv } from '../util/paths/env.js';
import { pathScopeOf } from '../util/paths/scope.js';
import { commandRulesInForce, type ShellRules } from '../shell/rules.js';
import type { ShellVerdict } from '../shell/analyse.js';
import { extractCall, isOwnTool, toolEntry, toolMatches, editLineCount, type ExtraAliases, type ExtractedCall } from '../agent/tools.js';
import { noteBounds } from '../record/bounds.js';
import { editLinesInFile, replacesAll } from '../agent/edit-lines.js';
import { MAX_COMMAND_CHARS, noteEvidence, type CallOutcome, type ObservedCall } from '../machine/evidence.js';
import { planWrites, protectedWriteReason, scopeWriteReason, unknownWriteReason, type WritePlan } from './paths/write-plan.js';
import { PathGuard, type PathEnv } from '../util/paths/write-guard.js';

export type { ShellRules } from '../shell/rules.js';

export interface ToolCall {
  /** The tool id as the client names it (`run_in_terminal`, `Bash`, `mcp__x__y`...). */
  readonly tool: string;
  readonly input: unknown;
}

/** The result of analysing a shell command against a state's rules (shell/analyse.ts, done before the lock), with what it writes: declared once, there. */
export type { ShellVerdict } from '../shell/analyse.js';

export interface PolicyOptions extends BranchOption {
  /** User-added tool aliases (the setting that extends the tool-name table). */
  readonly aliases?: ExtraAliases;
  /** The workspace root: edited paths are counted workspace-relative. */
  readonly workspaceRoot?: string;
  /** The machine for the path rules (real paths, home, state folder); without it paths are taken as written. */
  readonly paths?: PathEnv;
  /** The agent's working folder, where relative paths start (default: the workspace root). */
  readonly cwd?: string;
  /** For a shell call, the analysis of its command under the state's rules. Absent: not analysed (denied where rules need it). */
  readonly shell?: ShellVerdict;
  /** A rewritten input to suggest when the call is allowed (blocked env unset, overrides applied). */
  readonly rewrite?: unknown;
  /** A one-shot grant covers this call (pipeline/grants.ts): the tool envelope is not checked; every other rule is. */
  readonly granted?: boolean;
  /**
   * An allowed shell call will run inside the kernel sandbox (src/engine/sandbox), which keeps the
   * gate's files read-only: git's whole-tree writes are then left to it (write-plan.ts).
   */
  readonly sandboxed?: boolean;
}

export interface Decision {
  readonly decision: 'allow' | 'deny';
  readonly reason?: string;
  /** Things the agent should know even when allowed (budget nearly spent, overrides applied). */
  readonly notices: string[];
  readonly rewrite?: unknown;
  readonly state: string;
  /** Whether this call counted one iteration. */
  readonly counted: boolean;
}

const BUDGET_NOTICE_AT = 0.9;

export function isToolAllowedByRules(rules: StateRules, tool: string, aliases?: ExtraAliases): boolean {
  if (rules.disallowedTools.some((r) => toolMatches(r, tool, aliases))) return false;
  if (rules.allowedTools === undefined) return true;
  return rules.allowedTools.some((r) => toolMatches(r, tool, aliases));
}

/**
 * The rules a shell call's command is analysed under. Every shell command is
 * analysed while a run is enforced, even where commands are free: what it
 * writes must pass the protected files and the path scope.
 */
export function shellRulesFor(node: StateNode, call: ExtractedCall, tool: string, aliases?: ExtraAliases): ShellRules | undefined {
  if (call.kind !== 'shell') return undefined;
  const rules = node.rules;
  // allowed_commands restricts the tool named by allowed_commands_tool (default: every shell tool).
  const restricted = rules.allowedCommandsTool === undefined || toolMatches(rules.allowedCommandsTool, tool, aliases);
  const writeAllowed = isToolAllowedByRules(rules, 'Write', aliases) || isToolAllowedByRules(rules, 'Edit', aliases);
  const allowedCommands = restricted ? rules.allowedCommands : undefined;
  return { ...(allowedCommands ? { allowedCommands } : {}), blockedEnv: rules.blockedEnv, writeAllowed };
}

/** Events of this state that lead to a state where `tool` would be allowed. */
function eventsAllowing(wf: Workflow, node: StateNode, tool: string, aliases?: ExtraAliases): string[] {
  const out: string[] = [];
  for (const t of node.on) {
    const targets = t.kind === 'branched' ? t.branches.map((b) => b.target.name) : t.kind === 'invoke' || t.kind === 'fork' ? [t.onComplete.name] : [t.target.name];
    for (const target of targets) {
      const next = wf.states.get(target);
      if (next && next.kind !== 'final' && isToolAllowedByRules(next.rules, tool, aliases)) out.push(`${t.event} (→ ${target})`);
    }
  }
  return [...new Set(out)];
}

function allowedList(rules: StateRules): string {
  if (rules.allowedTools === undefined) return rules.disallowedTools.length ? `every tool but ${rules.disallowedTools.join(', ')}` : 'every tool';
  const list = rules.allowedTools.filter((t) => !rules.disallowedTools.includes(t));
  return list.length ? list.join(', ') : 'none (only stategate\'s own tools)';
}

function toolDenial(wf: Workflow, node: StateNode, tool: string, canonical: string, why: string, aliases?: ExtraAliases): string {
  const name = canonical === tool ? tool : `${tool} (${canonical})`;
  const events = eventsAllowing(wf, node, tool, aliases);
  const way = events.length ? ` To use it, transition with ${events.join(' or ')} (statewright_transition).` : ' No event of this state leads to a state that allows it.';
  return `${name} is not allowed in state '${node.id}' ${why}. Allowed: ${allowedList(node.rules)}.${way}`;
}

/** The state a limit is counted in, for messages: the state itself, or on a statechart the enclosing node that declares the limit. */
function limitHolder(node: StateNode, owners: Partial<Record<LimitKey, string>> | undefined, key: LimitKey): string {
  const owner = owners?.[key];
  return owner === undefined || owner === node.id ? `state '${node.id}'` : `state '${owner}' (which encloses '${node.id}')`;
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function pathGuard(opts: PolicyOptions): PathGuard {
  return new PathGuard(opts.paths ?? lexicalPathEnv(opts.workspaceRoot ?? '/'));
}

/**
 * The lines an edit changes (agent/edit-lines.ts): a replace_all counts every
 * occurrence in the file it edits, read where it really is. `unreadable`
 * names the file when that count is not possible.
 */
function editSize(extracted: ExtractedCall, guard: PathGuard, cwd: string | undefined): { lines: number; unreadable?: string } {
  const shape = extracted.editShape!;
  if (!replacesAll(shape)) return { lines: editLineCount(shape) };
  const target = extracted.paths[0];
  const current = target === undefined ? undefined : guard.env.readFile?.(guard.resolve(target, cwd).real);
  const size = editLinesInFile(shape, current);
  return size.unknown ? { lines: size.lines, unreadable: target ?? 'a file the call does not name' } : { lines: size.lines };
}

/** The edited files of a call, one spelling per file (workspace-relative, or the real absolute path outside). */
function editedFiles(extracted: ExtractedCall, guard: PathGuard, cwd: string | undefined): string[] {
  return [...new Set(extracted.paths.map((p) => guard.identity(guard.resolve(p, cwd))))];
}

/**
 * The files a shell command writes, one spelling per file (as editedFiles).
 * A target that may be a folder (`cp a.ts c.ts`) is planned as both `c.ts`
 * and `c.ts/a.ts`: one file is written, so the one inside is not counted.
 */
function plannedFiles(plan: WritePlan, guard: PathGuard): string[] {
  const all = [...new Set(plan.writes.map((w) => guard.identity(w.path)))];
  return all.filter((f) => !all.some((other) => other !== f && f.startsWith(`${other}/`)));
}

/** The files a shell call wrote, from the analysis of its command (opts.shell), for interrupts. */
function shellWrittenFiles(extracted: ExtractedCall, guard: PathGuard, opts: PolicyOptions): string[] {
  if (extracted.kind !== 'shell' || !opts.shell) return [];
  return plannedFiles(planWrites({ extracted, lenient: true, shell: opts.shell, ...(opts.cwd ? { cwd: opts.cwd } : {}) }, guard), guard);
}

/**
 * Decide a tool call on a running run. Returns the next snapshot (counters
 * updated for an allowed call), the journal entries (a denial is journaled),
 * and the decision.
 */
export function decide(run: RunSnapshot, call: ToolCall, env: MachineEnv, opts: PolicyOptions = {}): MachineResult<Decision> {
  // The policy changes only a position's counters: copyRun copies those (and every position) and shares the strings and the diagram trail's edges.
  const next = copyRun(run);
  const at = env.now();
  const journal: JournalEntry[] = [];
  // A statechart run: the first active state allowing the tool, with its effective rules (effective-rules.ts).
  const found = locateForCall(next, env, call.tool, opts);
  if ('code' in found) {
    const reason = `stategate cannot tell which state applies: ${found.message}`;
    journal.push({ kind: 'tool_denied', at, tool: call.tool, reason, state: run.state });
    return { run: next, journal, outcome: { decision: 'deny', reason, notices: [], state: run.state, counted: false } };
  }
  const { workflow: wf, node, position } = found;
  const rules = node.rules;
  const aliases = opts.aliases;
  const extracted = extractCall(call.tool, call.input, aliases);
  const deny = (reason: string): MachineResult<Decision> => {
    const scope = found.scope;
    journal.push({ kind: 'tool_denied', at, tool: call.tool, reason, state: node.id, ...(scope ? { scope } : {}) });
    return { run: next, journal, outcome: { decision: 'deny', reason, notices: [], state: node.id, counted: false } };
  };

  // stategate's own tools: always allowed, never counted.
  if (isOwnTool(call.tool)) return { run: next, journal, outcome: { decision: 'allow', notices: [], state: node.id, counted: false } };
  if (found.denial) return deny(found.denial);

  // The run's bounds (meta.max_cost / max_time of the run's workflow): past one, nothing but stategate's own tools.
  const bounds = noteBounds(next, env.load(run.workflow.definitionText)?.meta.raw, at, journal);
  const notices = bounds.crossed.map((w) => `${w.message}: once the run reaches the bound, every tool but stategate's own is denied.`);
  if (bounds.exceeded) {
    journal.push({ kind: 'tool_denied', at, tool: call.tool, reason: bounds.exceeded, state: node.id, bound: true, ...(found.scope ? { scope: found.scope } : {}) });
    return { run: next, journal, outcome: { decision: 'deny', reason: bounds.exceeded, notices, state: node.id, counted: false } };
  }

  // The run's own files and the files that install the gate: no state's rules can hand them to an
  // agent (stricter than the reference, docs/compat.md), whatever tool or command writes them.
  const guard = pathGuard(opts);
  const shellRules = shellRulesFor(node, extracted, call.tool, aliases);
  const strictShell = shellRules !== undefined && commandRulesInForce(shellRules);
  // A tool the built-in table does not know (MCP, unknown, or known only by a user's alias) may write whatever its arguments name.
  const unknownTool = toolEntry(call.tool) === undefined ? { unknownToolInput: call.input } : {};
  const plan = planWrites({ extracted, lenient: !strictShell, ...(opts.cwd ? { cwd: opts.cwd } : {}), ...(opts.shell ? { shell: opts.shell } : {}), ...unknownTool }, guard);
  const layout = toolEntry(call.tool, aliases)?.edit;
  const guarded = protectedWriteReason(plan, { tool: call.tool, input: call.input, ...(layout ? { layout } : {}) }, extracted, guard, opts.sandboxed === true);
  if (guarded) return deny(guarded);

  if (!opts.granted && rules.disallowedTools.some((r) => toolMatches(r, call.tool, aliases))) {
    return deny(toolDenial(wf, node, call.tool, extracted.canonical, '(it is in disallowed_tools)', aliases));
  }
  if (!opts.granted && rules.allowedTools !== undefined && !rules.allowedTools.some((r) => toolMatches(r, call.tool, aliases))) {
    return deny(toolDenial(wf, node, call.tool, extracted.canonical, '(it is not in allowed_tools)', aliases));
  }
  const counters = callCounters(next, position, found.limitOwners);
  const iterations = counters.read('maxIterations').iterations;
  if (rules.maxIterations !== undefined && iterations >= rules.maxIterations) {
    const events = found.events ?? node.on.map((t) => t.event);
    return deny(
      `${capitalised(limitHolder(node, found.limitOwners, 'maxIterations'))} has used all ${rules.maxIterations} tool calls (max_iterations). Decide on a transition now: ${events.length ? events.join(', ') : 'no events are defined'} (statewright_transition).`,
    );
  }
  if (shellRules) {
    if (extracted.command === undefined) return deny(`${call.tool} was called without a command stategate can read, and every command is checked for what it writes.`);
    if (!opts.shell) return deny(`the command was not analysed, and every command is checked for what it writes (stategate fails closed).`);
    if (!opts.shell.ok) {
      const allowed = shellRules?.allowedCommands ? ` Allowed commands: ${shellRules.allowedCommands.join(', ')}.` : '';
      return deny(`Command denied in state '${node.id}': ${opts.shell.reason}.${allowed}`);
    }
  }
  // Where the command's commands are restricted, a write it cannot place could be anywhere (a protected file too).
  const outOfScope = (strictShell ? unknownWriteReason(plan) : undefined) ?? scopeWriteReason(plan, call.tool, pathScopeOf(rules), node.id, guard);
  if (outOfScope) return deny(outOfScope);
  let editLines = 0;
  let newFiles: string[] = [];
  if (extracted.editShape) {
    const size = editSize(extracted, guard, opts.cwd);
    editLines = size.lines;
    // max_edit_lines bounds each edit on its own (the lines this one call changes), not a running
    // total: many small reviewed edits are the work a state is for; one sweeping edit is what it caps.
    if (rules.maxEditLines !== undefined && size.unreadable !== undefined) {
      return deny(
        `This edit replaces every occurrence (replace_all) in ${size.unreadable}, which stategate cannot read to count them, so it cannot be held to max_edit_lines (${rules.maxEditLines} lines per edit in ${limitHolder(node, found.limitOwners, 'maxEditLines')}). Replace one occurrence at a time, or transition.`,
      );
    }
    if (rules.maxEditLines !== undefined && editLines > rules.maxEditLines) {
      return deny(
        `This edit changes ${editLines} line(s); ${limitHolder(node, found.limitOwners, 'maxEditLines')} allows ${rules.maxEditLines} lines per edit (max_edit_lines). Split it into edits of ${rules.maxEditLines} line(s) or fewer, or transition.`,
      );
    }
  }
  // The files a call writes count against max_files_per_state whoever writes them: an edit tool's
  // targets, or the files a shell command writes (known before it runs: write-plan.ts).
  const written = extracted.editShape ? editedFiles(extracted, guard, opts.cwd) : plannedFiles(plan, guard);
  if (written.length) {
    const edited = counters.read('maxFilesPerState').filesEdited;
    newFiles = written.filter((p) => !edited.includes(p));
    if (rules.maxFilesPerState !== undefined && edited.length + newFiles.length > rules.maxFilesPerState) {
      const by = extracted.editShape ? '' : ` (written by the command)`;
      return deny(
        `${capitalised(limitHolder(node, found.limitOwners, 'maxFilesPerState'))} allows edits to ${rules.maxFilesPerState} file(s) (max_files_per_state) and ${edited.length} are edited (${edited.join(', ') || 'none'}); ${newFiles.join(', ')}${by} would be more. Re-editing those files is free.`,
      );
    }
  }
  if (rules.contextBudgetBytes !== undefined) {
    const readType = extracted.kind === 'read' || extracted.kind === 'search' || extracted.kind === 'fetch';
    const read = counters.read('contextBudgetBytes').bytesRead;
    const holder = found.limitOwners?.contextBudgetBytes ?? node.id;
    if (readType && read >= rules.contextBudgetBytes) {
      return deny(`${capitalised(limitHolder(node, found.limitOwners, 'contextBudgetBytes'))} has spent its context budget (${read} of ${rules.contextBudgetBytes} bytes read, context_budget_bytes): no more reading here. Act on what you have, or transition.`);
    }
    if (read >= rules.contextBudgetBytes * BUDGET_NOTICE_AT) {
      notices.push(`Context budget nearly spent in '${holder}': ${read} of ${rules.contextBudgetBytes} bytes.`);
    }
  }
  if (shellRules && Object.keys(rules.envOverrides).length) {
    notices.push(`Environment for commands in '${node.id}': ${Object.entries(rules.envOverrides).map(([k, v]) => `${k}=${v}`).join(' ')}.`);
  }
  // Allowed: count it.
  counters.countCall(editLines, newFiles);
  if (rules.maxIterations !== undefined && counters.read('maxIterations').iterations === rules.maxIterations) {
    notices.push(`That was the last tool call allowed in '${found.limitOwners?.maxIterations ?? node.id}' (max_iterations ${rules.maxIterations}): transition next.`);
  }
  next.updatedAt = at;
  return {
    run: next,
    journal,
    outcome: { decision: 'allow', notices, state: node.id, counted: true, ...(opts.rewrite !== undefined ? { rewrite: opts.rewrite } : {}) },
  };
}

export interface ToolResult {
  /** Size of the result the agent got back. */
  readonly bytes?: number;
  /** The output, kept in the journal (capped) when the workflow's meta.capture_output is true. */
  readonly output?: string;
  /** How the client said the call ended (a shell command's exit code): kept as evidence (machine/evidence.ts). */
  readonly outcome?: CallOutcome;
}

export interface RecordOutcome {
  readonly notices: string[];
  readonly interrupted: boolean;
  /** `$return` goes back to `from`; a statechart has no `$return` (its handler returns through a history state): `return_via: "chart"`. */
  readonly interrupt?: { name: string; from: string; to: string; file: string; return_via?: 'chart' };
  readonly state: string;
}

const CAPTURE_LIMIT = 4096;

/** A reported call as evidence (undefined for stategate's own tools, which are not facts about the work). */
function observedCall(call: ToolCall, extracted: ExtractedCall, files: readonly string[], outcome: CallOutcome | undefined): ObservedCall | undefined {
  if (isOwnTool(call.tool)) return undefined;
  const command = extracted.kind === 'shell' && extracted.command !== undefined && extracted.command.length <= MAX_COMMAND_CHARS ? extracted.command : undefined;
  return { tool: call.tool, files, ...(command !== undefined ? { command } : {}), ...(outcome ? { outcome } : {}) };
}

/**
 * After a call: add its result bytes to the state's budget, journal it, and
 * fire the interrupt an edit/write of a matching file triggers (the first
 * matching file wins; no nesting, as the machine decides).
 */
export function record(run: RunSnapshot, call: ToolCall, result: ToolResult, env: MachineEnv, opts: PolicyOptions = {}): MachineResult<RecordOutcome> {
  let next = copyRun(run);
  const at = env.now();
  const journal: JournalEntry[] = [];
  // A statechart run: the state the call was decided in (the first active state allowing it), with its effective rules.
  const found = locateForCall(next, env, call.tool, opts);
  if ('code' in found) return { run: next, journal, outcome: { notices: [], interrupted: false, state: run.state } };
  const { node, position, workflow } = found;
  const extracted = extractCall(call.tool, call.input, opts.aliases);
  // An edit's result is a confirmation, whatever the client echoes back (Claude Code's PostToolUse
  // carries the whole original file): the budget counts what the agent reads, so edits add nothing.
  const bytes = isOwnTool(call.tool) || extracted.editShape ? 0 : Math.max(0, Math.floor(result.bytes ?? 0));
  const counters = callCounters(next, position, found.limitOwners);
  counters.addBytes(bytes);
  // An edit's targets, or the files a shell command wrote (a `> config/app.env` fires an interrupt as an Edit of it does).
  const files = extracted.editShape ? editedFiles(extracted, pathGuard(opts), opts.cwd) : shellWrittenFiles(extracted, pathGuard(opts), opts);
  const capture = workflow.meta.captureOutput && result.output !== undefined ? { output: result.output.slice(0, CAPTURE_LIMIT) } : {};
  const observed = observedCall(call, extracted, files, result.outcome);
  if (observed) position.counters.evidence = noteEvidence(position.counters.evidence, observed);
  journal.push({
    kind: 'tool_result',
    at,
    tool: call.tool,
    state: node.id,
    ...(bytes ? { bytes } : {}),
    ...(files[0] ? { file: files[0] } : {}),
    ...(files.length > 1 ? { files } : {}),
    ...(found.scope ? { scope: found.scope } : {}),
    ...capture,
    // What the evidence of this call was made of, so that replay rebuilds it (store/replay.ts).
    ...(observed?.command !== undefined ? { command: observed.command } : {}),
    ...(observed?.outcome?.ok !== undefined ? { ok: observed.outcome.ok } : {}),
    ...(observed?.outcome?.exitCode !== undefined ? { exit_code: observed.outcome.exitCode } : {}),
  } as JournalEntry);
  const notices: string[] = [];
  const budget = node.rules.contextBudgetBytes;
  const read = counters.read('contextBudgetBytes').bytesRead;
  if (budget !== undefined && read >= budget * BUDGET_NOTICE_AT) {
    notices.push(`Context budget in '${found.limitOwners?.contextBudgetBytes ?? node.id}': ${read} of ${budget} bytes read.`);
  }
  next.updatedAt = at;
  for (const file of files) {
    const fired = fileChanged(next, file, env, opts);
    if (fired.outcome.interrupted && fired.outcome.interrupt) {
      next = fired.run;
      journal.push(...fired.journal);
      const i = fired.outcome.interrupt;
      const via = next.chart ? { return_via: 'chart' as const } : {};
      return { run: next, journal, outcome: { notices, interrupted: true, interrupt: { name: i.name, from: i.from, to: i.to, file, ...via }, state: fired.outcome.state } };
    }
  }
  // The editor may have saved the agent's edit (and the save fired the interrupt) before this report
  // arrived: the edit is still what fired it, and the agent must be told.
  const active = position.interrupt;
  if (active?.file !== undefined && files.includes(active.file)) {
    return { run: next, journal, outcome: { notices, interrupted: true, interrupt: { name: active.name, from: active.returnTo, to: active.target, file: active.file }, state: node.id } };
  }
  return { run: next, journal, outcome: { notices, interrupted: false, state: node.id } };
}
