/**
 * Security modes of a pipeline (docs/pipelines.md): `ask`, the
 * default, and `yolo`. They decide only what happens to calls *inside* a
 * stage's tools: under `ask` the client keeps its own confirmations; under
 * `yolo` stategate tells the client the call is approved, so it skips the
 * confirmations it lets a hook skip. A call *outside* the stage's tools is
 * put to a person in both modes (a one-shot grant), and what the workflow
 * denies outright (disallowed tools, blocked commands and variables, protected
 * files, the run's bounds) stays denied in both: yolo approves nothing the
 * policy refuses.
 *
 * Where the mode comes from, first match wins: `run start --security-mode`
 * (source `run`), the workflow's `meta.security_mode`, the person's
 * `stategate.securityMode` setting for `@stategate /run` (source `setting`),
 * else `ask`. A mode chosen by flag or setting is journaled (`security_mode`,
 * with the mode then in force); the stage's view (`run stage`) shows it.
 */
import type { Workflow } from '../model/index.js';
import type { MachineEnv, MachineResult } from '../machine/operations.js';
import type { JournalEntry, RunSnapshot } from '../machine/run.js';
import { emptyPipeline } from '../model/pipeline.js';

export const SECURITY_MODES = ['ask', 'yolo'] as const;
export type SecurityMode = (typeof SECURITY_MODES)[number];
/** Who chose the mode: the run's starter (a flag), the workflow's meta, a person's setting, or nobody (the default). */
export type SecurityModeSource = 'run' | 'workflow' | 'setting' | 'default';

export function isSecurityMode(value: unknown): value is SecurityMode {
  return typeof value === 'string' && (SECURITY_MODES as readonly string[]).includes(value);
}

/** The mode in force for a run of `workflow`, and where it came from. */
export function securityModeOf(run: RunSnapshot, workflow: Workflow | undefined): { mode: SecurityMode; source: SecurityModeSource } {
  const chosen = run.pipeline?.securityMode;
  if (chosen?.source === 'run') return chosen;
  const meta = workflow?.meta.raw?.['security_mode'];
  if (isSecurityMode(meta)) return { mode: meta, source: 'workflow' };
  if (chosen) return chosen;
  return { mode: 'ask', source: 'default' };
}

export interface SecurityModeOutcome {
  mode: SecurityMode;
  source: SecurityModeSource;
  error?: { code: string; message: string };
}

/** Records a mode chosen for the run (the starter's flag, or the participant's setting), journaled with the mode then in force. */
export function setSecurityMode(run: RunSnapshot, mode: unknown, source: 'run' | 'setting', env: MachineEnv): MachineResult<SecurityModeOutcome> {
  const workflow = env.load(run.workflow.definitionText);
  if (!isSecurityMode(mode)) {
    const now = securityModeOf(run, workflow);
    return { run, journal: [], outcome: { ...now, error: { code: 'invalid_security_mode', message: `security mode must be one of ${SECURITY_MODES.join(', ')}, got ${JSON.stringify(mode)}` } } };
  }
  const pipeline = run.pipeline ?? emptyPipeline();
  const next: RunSnapshot = { ...run, pipeline: { ...pipeline, securityMode: { mode, source } } };
  const effective = securityModeOf(next, workflow);
  const entry: JournalEntry = { kind: 'security_mode', mode: effective.mode, source: effective.source, requested: mode, requested_by: source, at: env.now() };
  return { run: next, journal: [entry], outcome: effective };
}
