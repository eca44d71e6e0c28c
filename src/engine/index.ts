/**
 * The engine's public surface: the shells (src/cli/, src/vscode/, src/lsp/,
 * src/protocol.ts, webview/) import the engine only through this file (`npm run
 * lint` holds that: .dependency-cruiser.cjs), so the folders behind
 * it can be rearranged without touching the shells around it. The one exception
 * is the lazily loaded parts (check/check-file.ts, shell/gate.ts,
 * shell/parser.ts): the bundles load them on first use with `require` of their
 * own file, so that activation and the hook do not pay for them
 * (docs/architecture.md "Bundles").
 *
 * Every name here is one a shell uses, named, so the surface is what the shells
 * need and nothing more: a name no shell imports any longer goes (tests of an
 * engine part import its file).
 */
export type { ChartAgent, Diagnostic, FlowStep, JsonObject, JsonValue, RelatedInfo, SourceLoc, Workflow, WorkflowFormat } from './model/index.js';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './model/json-value.js';
export {
  detectFormat, isFlowToolRegistryFile, isRegistryManifestDocument,
  loadWorkflowText, sniffFormat, type CustomFlowTool
} from './formats/index.js';
// What a file's name says it holds, one case rule for every shell (docs/design/files-by-content.md, "Names").
export { anyCaseGlob, fileKind, isPlainDataFile, isWorkflowPath, KIND_SUFFIXES, kindGlob } from './formats/file-kinds.js';
export { loadStatewright } from './formats/statewright.js';
export { MANIFEST_FILE, WorkflowRegistry } from './formats/registry.js';
export { activeFirst, declaresWorkflowSchema, findWorkflow, findWorkflows } from './formats/workspace-workflows.js';
export { LineIndex } from './formats/text-position.js';
export { isJsonParserError } from './formats/jsonc.js';
export type { CheckOptions, CheckResult } from './check/check-file.js';
export type { JournalEntry, RunSnapshot, RunStatus, StoredEntry, TakenEdge } from './machine/run.js';
export { countOf, shownRunStatus, STATUS_WORDS, type ShownStatus, type StatusWords } from './machine/status-words.js';
export { evidenceView, type CallOutcome } from './machine/evidence.js';
export type { StateView, TransitionView } from './machine/describe.js';
export { flowNotRunnable, Runner, RunnerError, type OutsideStage, type ShellAnalyser, type ShellRewriter, type StartOptions } from './runs/runner.js';
export { describeLiveRun, isLiveRun, plainAge, REPLACED_RUN_LISTED } from './runs/live-run.js';
export { sandboxStatusHere, type SandboxProvider, type SandboxStatus } from './sandbox/answer.js';
export { SANDBOXED_ENV } from './sandbox/bwrap-argv.js';
export { findSandbox } from './sandbox/bwrap-probe.js';
export type { StoreProblem } from './store/run-store.js';
export { FileRunStorage } from './store/file-storage.js';
export { chooseStorage, chosenStoreUrl } from './store/store-choice.js';
export { writeStorePointer } from './store/store-pointer.js';
export { replay } from './store/replay.js';
export { writeFileAtomic } from './util/atomic-file.js';
export { findStoreDir } from './store/active-record.js';
export { userStateDir } from './util/user-state-dir.js';
export { currentWait, processDeadline, remainingMs, setProcessDeadline } from './store/deadline.js';
// The shared PostgreSQL store's schema (versioned migrations; docs/team.md).
export { isStoreSchemaError, migrate as migrateStoreSchema, status as storeSchemaStatus, type SchemaStatus } from './store/postgres/schema.js';
export {
  redactSecrets, STORE_URL_ENV, storeConnectOptions, storeUrlFromEnv, type StoreConnectOptions
} from './store/postgres/connect-options.js';
export { classifyStoreError, describeStoreFailure } from './store/postgres/classify-error.js';
export type { RecordOutcome } from './policy/decide.js';
export { isOwnTool, OWN_TOOLS, ownToolName, toolMatches, type ExtraAliases } from './agent/tools.js';
export { cleanAliases, writeToolAliases } from './policy/tool-aliases-file.js';
export {
  activeIsDebug, AGENT_TOOLS, describeAgentCall, invokeAgentTool, offeredToolSpecs, specForView, stageBrief,
  type AgentSession
} from './runs/agent-tools.js';
// Stage pipelines: the completion step, turns, grants, stage views and the audit timeline (docs/pipelines.md).
export {
  auditText, auditTimeline, bareNamesAreOurs, completionToolCalled, isSecurityMode, typedDenial,
  type AuditTimeline, type SecurityMode, type StageView
} from './pipeline/index.js';
// The run record (agent-state.json): its files, bounds, and the operations the participant calls (Runner.reportUsage).
export { readRecord, writeMirrorSetting } from './record/record-file.js';
export { noteSession } from './record/sessions-seen.js';
export { parseCost, parseDuration } from './record/bounds.js';
export { parseModelPrices, priceFor, usageReport, type ModelPrices } from './record/pricing.js';
export type { UsageReport } from './record/operations.js';
export type { AgentStateRecord } from './record/types.js';
export { briefing, INTERRUPT_MARKER, type BriefedView } from './policy/briefing.js';
export type { AgentInvocationView } from './policy/chart-agent-view.js';
export { workflowGraph, type EdgeKind, type GraphEdge } from './export/graph.js';
export { EXPORT_FORMATS, exportWorkflow, TEXT_EXPORT_FORMATS, type ExportFormat, type TextExportFormat } from './export/text-exports.js';
export { labelWidth, NODE_HEIGHT_PX, nodeWidth } from './export/layout.js';
export { exportSvg } from './export/svg.js';
export {
  chartCompletions, chartDefinition, chartFixes, chartHover, chartLenses, chartOutline, chartPrepare,
  chartReferences, chartRename, codeLenses, completionsAt, definitionAt, documentSymbols, flowCompletions,
  flowDefinition, flowFixes, flowHover, flowLenses, flowOutline, flowPrepare, flowReferences, flowRename,
  hoverAt, occurrences, prepareRename, quickFixes, referencesAt, renameAt, subFlowLoader, toolCompletions,
  type CompletionKind, type FlowCompletionItem, type Lens, type NavigationOptions, type OutlineKind,
  type OutlineSymbol, type ResolveInvoke, type Target, type ToolName
} from './language/index.js';
// Statechart runs, for the state panel and the status bar (src/vscode/panel, src/vscode/runtime).
export { chartEvents, type ChartEventView } from './machine/chart-events.js';
export { isChartWorkflow } from './machine/chart-run.js';
export { diagramTree, duration, isContainer, type TreeNode } from './export/tree.js';
export { readableNames } from './export/state-names.js';
export { stateNames } from './machine/state-display.js';
export { configurationPaths, nextDue, ROOT_ID, type ChartInvocation, type ChartSnapshot, type ChartTimer } from './statechart/index.js';
// Flows (FlowState): the runner, for `stategate flow ...` and the Flows view.
export {
  abortFlowRuns, declaredVariables, FlowError, flowsDir, flowStatus, instanceDir, instanceFile, listFlows, pauseFlow, renderKnown, resumeFlow, startFlow,
  stopFlow, type AskRequest, type FlowHost, type FlowSink, type FlowStatus, type FlowStatusName,
  type FlowSummary, type IssueRequest, type ModelVendor, type PromptRequest, type ToolOutcome
} from './flow/index.js';
export {
  flowTrust, flowTrustCheck, trustFlow, untrustedParts, type FlowTrust, handlerLines, pendingOf, runPendingHandlers, trustContent, trustFilePath, trustState, type TrustQuestion
} from './handlers/index.js';
// The effects of a plain Node host (the CLI's, whose bash and claude-code the extension's host reuses).
export { claudeHookCommandFor, nodeFlowHost } from './flow/effects/index.js';
// Agent clients: the hook and MCP entries `stategate enable` and "Enable Agent Enforcement" write (src/engine/clients).
export {
  cliCommandLine, cliInvocation, cliPath, guardedCommandLine, quoteWord, RUNTIME_ENV, type HostRuntime
} from './clients/cli-launch.js';
export {
  CLAUDE_SETTINGS_FILE, describeWrites, HOOK_CLIENTS, HOOK_TIMEOUT_S, hookBoundMs, hookCommand,
  INSTALLED_HOOK_EVENTS, isHookClient, isOurVscodeHookFile, isStategateHookCommand, mergeClaudeSettings,
  removeFromClaudeSettings, repointHookEntries, VSCODE_HOOK_FILE, vscodeHookFile, type HookClientName,
  type HookEvent
} from './clients/hook-install.js';
export { ClientConfigError, clientLaunch, enableNotes, MCP_SERVER_NAME, planDisable, planEnable } from './clients/client-configs.js';
export { applyClientWrites, clientFileReader } from './clients/config-io.js';
export { planRepointMcp } from './clients/repoint-mcp.js';
