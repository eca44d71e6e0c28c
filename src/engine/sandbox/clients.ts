/**
 * Which clients can take a rewritten command from the hook WITHOUT the
 * rewrite also approving the call (the person's own prompt must stay: an
 * "allow" that carries the rewrite would switch it off, the bug class of
 * Cupcake's issue #96). Where a client cannot, the sandbox is off for its
 * calls and the analysis alone decides; the reason says why.
 * docs/agents.md has the same table with its sources.
 */
import type { HookClientName } from '../clients/hook-install.js';

/** undefined: the client rewrites without approving; a string: why the boundary is off for it. */
export const CLIENT_REWRITE: Readonly<Record<HookClientName, string | undefined>> = {
  // Seen with Claude Code 2.1.330 (test/e2e/claude-code-sandbox.test.ts): hookSpecificOutput.updatedInput
  // without permissionDecision is applied, and Claude Code's own permission check runs on the rewritten input.
  claude: undefined,
  // VS Code reads the same hook output as Claude Code (hook-protocol.ts).
  vscode: undefined,
  // Our own plugin (opencode-plugin.ts) puts the rewritten arguments in place; OpenCode's permissions still ask.
  opencode: undefined,
  codex: 'Codex applies a rewritten input only with permissionDecision "allow" (its hook output parser refuses updatedInput without it), which would approve the call past its own prompt',
  cursor: 'Cursor takes updated_input only beside permission "allow", which approves the call past its own prompt',
  gemini: "Gemini CLI's BeforeTool can merge hookSpecificOutput.tool_input, but stategate has not seen it applied without approving in a live Gemini CLI yet",
  copilot: "Copilot CLI's preToolUse documents modifiedArgs, but stategate has not seen it applied without approving in a live Copilot CLI yet",
};

/** Why the sandbox is off for this client's calls, or undefined when its hook can rewrite them. */
export function clientCannotRewrite(client: string | undefined): string | undefined {
  if (client === undefined || !(client in CLIENT_REWRITE)) return undefined;
  const why = CLIENT_REWRITE[client as HookClientName];
  return why === undefined ? undefined : `the client cannot take a rewritten command without approving it: ${why}`;
}
