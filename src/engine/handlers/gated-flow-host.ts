/**
 * A flow run as a handler runs its commands as if the agent ran them: each
 * `bash` state's command (already templated) goes through the gate first, and
 * a denied one does not run: it ends with exit code 126 and the denial as its
 * message, which the flow routes like any failure (`on-error`). The other
 * effects pass through (a `claude-code` state is under the hook already).
 */
import type { CommandRequest, FlowHost, ToolOutcome } from '../flow/host.js';

/** Exit code of a command the gate refused (the shell's "cannot execute"). */
export const DENIED_EXIT = 126;

/** `gate` answers why the command may not run, or undefined when it may. */
export function gatedFlowHost(host: FlowHost, gate: (command: string) => Promise<string | undefined>): FlowHost {
  return {
    workspace: host.workspace,
    sink: host.sink,
    async runCommand(req: CommandRequest): Promise<ToolOutcome> {
      const denied = await gate(req.command);
      if (denied !== undefined) {
        host.sink.progress(`✗ ${req.state}: ${denied}`);
        return { exitCode: DENIED_EXIT, stdout: '', message: denied };
      }
      return host.runCommand(req);
    },
    askUser: (req) => host.askUser(req),
    prompt: (req) => host.prompt(req),
    claudeCode: (req) => host.claudeCode(req),
    ghIssue: (req) => host.ghIssue(req),
    now: () => host.now(),
  };
}
