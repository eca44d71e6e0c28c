/**
 * stategate's own CLI run by the agent through a shell tool. The person's
 * commands (approve, reject, stop, force, reload, enable/disable, and the
 * hook's own reporting channel) would let an agent approve itself or turn its
 * gate off ("Approval is never granted by the agent", docs/enforcement.md), or
 * trust a file to run its commands (`trust`, `run handlers`), so they are
 * denied in every enforced state, whatever its rules. What the agent may run:
 * `run state`, `run send` (a transition, like statewright_transition; a
 * stage's completion event is refused there, pipeline/completion-only.ts),
 * `run complete` (a stage's completion tool, its payload checked), `run bind`
 * (binding its session to a fork branch, as over MCP),
 * `validate`, `export`, `mcp`, `flow` and help; and `run pause`, `run stop`,
 * `run start`/`run resume` and `run force` where the caller says the run's
 * workflow grants the act (`meta.agent_may`, agent/agent-acts.ts): the same acts
 * its tools are refused without the grant.
 *
 * Recognised: the command `stategate` (any path), `npx`/`npm exec`/`pnpm
 * dlx`/`yarn`/`bunx`... running the package `stategate`, and `node` running a
 * script whose path names stategate or ends in `dist/cli.js` (also when the
 * rest of the path is only known at run time). An interpreter running code
 * (`node -e`, `python -c`) or a name wholly computed at run time is not
 * recognised: docs/enforcement.md says what stays out of reach.
 */
import * as path from 'node:path';
import { packageName, visitPrograms } from './command-args';
import type { Word } from './words';
import { actRefusal } from '../agent/agent-acts';
import type { AgentAct } from '../model/index';

/** Top-level commands the agent may run (the CLI answers `-x` words with help, a version or an error). */
const AGENT_COMMANDS = new Set(['validate', 'export', 'mcp', 'help']);
/** `stategate run` subcommands the agent may run. */
// `bind`: binding its session to a fork branch is the agent's, as over MCP (statewright_load_workflow with
// `branch`): it gets that branch's rules, never more than the workflow grants the branch (docs/design/forks.md).
const AGENT_RUN = new Set(['state', 'send', 'complete', 'bind']);

const PERSON = "only a person does that, in VS Code (the notification or the stategate panel) or in their own terminal";
const WHY: Readonly<Record<string, string>> = {
  'run approve': `approval is never granted by the agent: ${PERSON}`,
  'run reject': `an approval is decided by a person: ${PERSON}`,
  'run reload': `it applies the edited workflow file to the live run: ${PERSON}`,
  'run join': `it makes another run the active one (a stopped run enforces nothing): ${PERSON}`,
  'run tool': "it reports tool calls to the gate, which only the client's hook does",
  'run result': "it reports tool calls to the gate, which only the client's hook does",
  'run file-changed': 'it reports file changes (which fire interrupts), which only the editor and the hooks do',
  'run handlers': `it runs the chart's handlers, commands outside the agent's sandbox: ${PERSON}`,
  trust: `it records that a person read a chart or flow file and trusts what it runs (docs/statechart-handlers.md): ${PERSON}`,
  hook: "it is the client's hook, which reports the agent's calls to the gate",
  enable: `it installs or removes the agents' hooks: ${PERSON}`,
  disable: `it installs or removes the agents' hooks: ${PERSON}`,
};
/** The run commands that are an act a workflow may grant the agent (meta.agent_may). */
const ACTS: Readonly<Record<string, AgentAct>> = { 'run pause': 'pause', 'run stop': 'stop', 'run start': 'load_workflow', 'run resume': 'load_workflow', 'run force': 'force' };
const MENTIONS = /stategate|cli/i;
const ALLOWED = '`stategate run state`, `stategate run send EVENT`, `stategate run complete TOOL --payload JSON`, `stategate run bind`, `validate`, `export` and `mcp`';

/**
 * Does this program word run stategate's CLI? A word only known when it runs
 * is judged by its literal parts (`$(pwd)/dist/cli.js`, `~/bin/stategate`).
 */
function isStategate(how: 'command' | 'package' | 'script', w: Word): boolean {
  const p = path.posix.normalize(w.value.replace(/\\/g, '/'));
  if (how === 'package' && /^stategate$/i.test(packageName(w.value))) return true;
  if (how !== 'package' && /^stategate(\.\w+)?$/i.test(path.posix.basename(p))) return true;
  // A script (or an executable path) of stategate's: its folder names stategate, or it is the bundled dist/cli.js.
  return how !== 'command' || p.includes('/') ? /stategate/i.test(p) || /(^|\/)dist\/cli(\.[cm]?js)?$/i.test(p) : false;
}

/** Why running stategate's CLI with these arguments is the person's to do, or undefined when the agent may. */
function personsCommand(args: readonly Word[], granted: readonly AgentAct[]): string | undefined {
  const top = args[0];
  if (!top) return undefined;
  const cannotTell = (w: Word): string => `which stategate command \`${w.text}\` names is only known when it runs`;
  if (top.dynamic) return cannotTell(top);
  if (top.value.startsWith('-') || AGENT_COMMANDS.has(top.value)) return undefined;
  let command = top.value;
  if (command === 'run') {
    // As `stategate run` reads it: --dir takes the next word; the first other non-option word is the subcommand.
    let sub: Word | undefined;
    for (let i = 1; i < args.length && !sub; i++) {
      const a = args[i]!;
      if (!a.dynamic && a.value === '--dir') i++;
      else if (a.dynamic || !a.value.startsWith('-')) sub = a;
    }
    if (!sub) return undefined;
    if (sub.dynamic) return cannotTell(sub);
    if (AGENT_RUN.has(sub.value)) return undefined;
    command = `run ${sub.value}`;
  }
  const act = Object.hasOwn(ACTS, command) ? ACTS[command] : undefined;
  if (act) return granted.includes(act) ? undefined : actRefusal(act, `\`stategate ${command}\``);
  const why = Object.hasOwn(WHY, command) ? WHY[command] : 'it is not one of the commands an agent may run';
  return `\`stategate ${command}\` is a person's command, not the agent's: ${why}. An agent may run ${ALLOWED}`;
}

/**
 * The reason this simple command (words after quote removal) runs a person's
 * stategate command, or undefined. `granted`: the acts the run's workflow
 * grants the agent (meta.agent_may); none unless the caller passes them.
 */
export function ownCliDenial(words: readonly Word[], granted: readonly AgentAct[] = []): string | undefined {
  // Every way recognised below has `stategate` or `cli` in a word (the hot path asks this of every command).
  if (!words.some((w) => MENTIONS.test(w.value))) return undefined;
  let reason: string | undefined;
  visitPrograms(words, (how, w, rest) => {
    if (reason === undefined && isStategate(how, w)) reason = personsCommand(rest, granted);
  });
  return reason;
}
