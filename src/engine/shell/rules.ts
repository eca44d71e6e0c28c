/**
 * The parts of a state's rules the shell analysis works under (shared by the
 * policy, which builds them, and analyse.ts, which applies them; kept apart so
 * the policy never loads the analysis).
 */
import type { AgentAct } from '../model/index.js';

export interface ShellRules {
  /** undefined: any command (the other rules still apply). */
  readonly allowedCommands?: readonly string[];
  readonly blockedEnv: readonly string[];
  /** Whether the state allows Write or Edit: shell writes to files need it. */
  readonly writeAllowed: boolean;
  /** The acts the run's workflow grants the agent (meta.agent_may): `stategate run stop` etc. pass the own-CLI check. */
  readonly agentMay?: readonly AgentAct[];
}

/**
 * Do the rules limit commands? When they do not, the analysis is lenient
 * (it only reports what the command writes) and so are the path rules
 * about writes they cannot place.
 */
export function commandRulesInForce(r: ShellRules): boolean {
  return r.allowedCommands !== undefined || r.blockedEnv.length > 0 || !r.writeAllowed;
}
