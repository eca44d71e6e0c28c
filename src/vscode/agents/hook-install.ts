/** Moved to the engine (src/engine/clients/hook-install.ts), so the CLI's `enable` writes the same entries. */
export {
  CLAUDE_SETTINGS_FILE,
  describeWrites,
  HOOK_TIMEOUT_S,
  INSTALLED_HOOK_EVENTS as HOOK_EVENTS,
  hookCommand,
  isOurVscodeHookFile,
  isStategateHookCommand,
  mergeClaudeSettings,
  removeFromClaudeSettings,
  repointHookEntries,
  VSCODE_HOOK_FILE,
  vscodeHookFile,
  type HookEvent,
} from '../../engine/index.js';
