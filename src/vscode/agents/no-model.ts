/**
 * What @stategate answers when VS Code has no language model for it (no
 * extension provides one, nobody signed in, or access was not allowed), in
 * place of the error VS Code would show: what is needed and how to get it.
 * Pure (no 'vscode'), so the unit tests read it directly.
 */

/** The extension that brings VS Code's chat models, which the answer's button searches for. */
export const MODEL_EXTENSION = 'GitHub.copilot-chat';

/** The parts of vscode.LanguageModelError this reads (`code`: NotFound, NoPermissions, Blocked). */
interface MaybeModelError {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
}

export type NoModel = 'none' | 'not-allowed' | 'blocked';

/**
 * Why the turn cannot get a model, or undefined when `err` is some other failure (shown as it is).
 * `model` is the request's model: absent when the editor offers none at all.
 */
export function noModelReason(model: unknown, err?: unknown): NoModel | undefined {
  if (model === undefined || model === null) return 'none';
  if (err === undefined || err === null || typeof err !== 'object') return undefined;
  const e = err as MaybeModelError;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === 'NotFound' || code === 'LanguageModelError.NotFound') return 'none';
  if (code === 'NoPermissions' || code === 'LanguageModelError.NoPermissions') return 'not-allowed';
  if (code === 'Blocked' || code === 'LanguageModelError.Blocked') return 'blocked';
  return undefined;
}

/** The answer, in Markdown (the button to the extension follows it). */
export function noModelMarkdown(reason: NoModel): string {
  const first =
    reason === 'not-allowed'
      ? '**@stategate may not use the chosen language model yet.** Allow it when VS Code asks (or under Accounts › Manage Language Model Access), then ask again.'
      : reason === 'blocked'
        ? '**The language model refused the request for now** (a rate or quota limit). Wait a moment, or pick another model in the chat\'s model picker, then ask again.'
        : '**@stategate needs a language model, and VS Code has none to offer.**';
  if (reason !== 'none') return first;
  return [
    first,
    '',
    '1. Install **GitHub Copilot Chat** (or another extension that provides chat models).',
    '2. Sign in from the Accounts menu, then pick a model in the chat\'s model picker.',
    '3. Ask @stategate again.',
    '',
    'Everything else works without a model: runs, the state panel, and the agents you gate with **Enable Agent Enforcement** (Claude Code, Codex, Gemini CLI…), which bring their own.',
  ].join('\n');
}
