/**
 * Custom agent sync (opt-in, `stategate.syncCustomAgent`): keeps
 * `.github/agents/stategate.agent.md` in step with the run, rewriting it on
 * every run change (transitions from any process: the RunService watches the
 * store). The content comes from custom-agent.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activeIsDebug, type BriefedView, writeFileAtomic, OWN_TOOLS } from '../../engine/index.js';
import type { RunService } from '../runtime/run-service.js';
import { CUSTOM_AGENT_FILE, customAgentMarkdown, taskAgentFile, taskAgentMarkdown, WRITTEN_MARKER, type ToolCandidate } from './custom-agent.js';
import { syncCustomAgentEnabled, toolAliases } from './settings.js';
import { offerRules } from './tool-offer.js';
import { hasApi, languageModelToolNames } from '../editor-apis.js';

/**
 * The tools VS Code knows, each with the name an agent file can list it by.
 * VS Code 1.139 resolves a `tools:` entry by full reference name, then by
 * `toolReferenceName`: a contributed tool with a reference name is listed by
 * it, one without by its full name `<extension id>/<displayName>`; tools no
 * extension contributes (VS Code's own) keep their id.
 */
function candidates(): ToolCandidate[] {
  const refs = new Map<string, string>();
  for (const ext of vscode.extensions.all) {
    const tools = (ext.packageJSON as { contributes?: { languageModelTools?: { name?: unknown; toolReferenceName?: unknown; displayName?: unknown }[] } })?.contributes?.languageModelTools;
    if (!Array.isArray(tools)) continue;
    for (const t of tools) {
      if (typeof t.name !== 'string') continue;
      if (typeof t.toolReferenceName === 'string') refs.set(t.name, t.toolReferenceName);
      else if (typeof t.displayName === 'string') refs.set(t.name, `${ext.id.toLowerCase()}/${t.displayName}`);
    }
  }
  const ids = [...OWN_TOOLS, ...languageModelToolNames(), ...refs.keys()];
  return [...new Set(ids)].map((id) => (refs.has(id) ? { id, reference: refs.get(id)! } : { id }));
}

/** Writes `text` to `rel` under the workspace unless it is there already. */
function writeIfChanged(root: string, rel: string, text: string): void {
  const file = path.join(root, rel);
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    /* not written yet */
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, text);
}

/** Task agents' files this sync wrote earlier for tasks that no longer run: removed (only files with its marker). */
function removeStaleTaskAgents(root: string, keep: ReadonlySet<string>): void {
  const dir = path.join(root, path.dirname(CUSTOM_AGENT_FILE));
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const rel = `${path.dirname(CUSTOM_AGENT_FILE)}/${name}`;
    if (!name.endsWith('.agent.md') || rel === CUSTOM_AGENT_FILE || keep.has(rel)) continue;
    try {
      if (fs.readFileSync(path.join(dir, name), 'utf8').includes(WRITTEN_MARKER)) fs.rmSync(path.join(dir, name), { force: true });
    } catch {
      /* gone already */
    }
  }
}

function sync(service: RunService): void {
  if (!syncCustomAgentEnabled() || !vscode.workspace.isTrusted) return;
  const situation = service.current;
  // The service's view is await runner.state(): on a statechart run it carries the chart's part too.
  const view: BriefedView | undefined = situation.kind === 'active' ? situation.view : undefined;
  // activeIsDebug without another read: the situation holds the active run's definition.
  const rules = offerRules(view, situation.kind === 'active' && situation.workflow?.meta.debug === true);
  const tools = candidates();
  const root = service.folder.uri.fsPath;
  writeIfChanged(root, CUSTOM_AGENT_FILE, customAgentMarkdown(view, rules, tools, toolAliases()));
  // A statechart's `agent:<name>` task goes to the custom agent of that name, while it runs.
  const written = new Set<string>();
  for (const task of view?.agent_invocations ?? []) {
    const rel = taskAgentFile(task.agent);
    if (!rel || !view) continue;
    writeIfChanged(root, rel, taskAgentMarkdown(task, view, rules, tools, toolAliases()));
    written.add(rel);
  }
  removeStaleTaskAgents(root, written);
}

export function syncCustomAgent(service: RunService): vscode.Disposable[] {
  const run = (): void => {
    try {
      sync(service);
    } catch (err) {
      void vscode.window.showWarningMessage(`stategate: could not write ${CUSTOM_AGENT_FILE}: ${(err as Error)?.message ?? String(err)}`);
    }
  };
  run();
  return [
    service.onDidChange(run),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('stategate.syncCustomAgent') || e.affectsConfiguration('stategate.toolAliases')) run();
    }),
    ...(hasApi('chat models') ? [vscode.lm.onDidChangeChatModels(run)] : []),
  ];
}
