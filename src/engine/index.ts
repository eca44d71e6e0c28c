/**
 * The engine's public surface: the shells (src/cli/, src/vscode/, src/lsp/,
 * src/protocol.ts, webview/) import the engine only through this file (`npm run
 * lint` holds that: .dependency-cruiser.cjs), so the folders behind
 * it can be rearranged without touching the shells around it. The one exception
 * is the lazily loaded parts (check/check-file.ts, shell/gate.ts,
 * shell/parser.ts): the bundles load them on first use with `require` of their
 * own file, so that activation and the hook do not pay for them
 * (docs/architecture.md "Bundles").
 */
export * from './model/index.js';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './model/json-value.js';
export * from './formats/index.js';
export * from './formats/statewright.js';
export * from './formats/registry.js';
export * from './formats/workspace-workflows.js';
export * from './formats/text-position.js';
export type * from './check/check-file.js';
export * from './machine/run.js';
export { evidenceView, EVIDENCE_KEY, type CallOutcome, type Evidence } from './machine/evidence.js';
export * from './machine/describe.js';
export * from './runs/runner.js';
export * from './sandbox/answer.js';
export * from './sandbox/bwrap-argv.js';
export * from './sandbox/bwrap-probe.js';
export * from './sandbox/clients.js';
export * from './sandbox/plan.js';
export * from './store/run-store.js';
export * from './store/run-storage.js';
export * from './store/file-storage.js';
export * from './store/store-choice.js';
export * from './store/store-pointer.js';
export * from './store/project-key.js';
export * from './store/replay.js';
export * from './util/atomic-file.js';
export * from './store/active-record.js';
export * from './util/user-state-dir.js';
export * from './store/recent-calls.js';
export * from './store/deadline.js';
// The shared PostgreSQL store's schema (versioned migrations; docs/team.md).
export * as storeSchema from './store/postgres/schema.js';
export { StoreSchemaError, isStoreSchemaError, type SchemaStatus, type SchemaProblem, type MigrateResult } from './store/postgres/schema.js';
export { LATEST_SCHEMA_VERSION, RUN_NOTIFY_CHANNEL, MIGRATIONS, type Migration } from './store/postgres/migrations.js';
export * from './store/postgres/connect-options.js';
export * from './store/postgres/classify-error.js';
export * from './policy/decide.js';
export * from './agent/tools.js';
export * from './policy/tool-aliases-file.js';
export * from './runs/agent-tools.js';
export * from './agent/agent-acts.js';
// Stage pipelines: the completion step, turns, grants, stage views and the audit timeline (docs/pipelines.md).
export * from './pipeline/index.js';
// The run record (agent-state.json): its files, bounds, and the operations the participant calls (Runner.reportUsage).
export { RECORD_FILE, LEARNINGS_FILE, MIRROR_PATH, MIRROR_SETTING_FILE, readRecord, writeMirrorSetting } from './record/record-file.js';
export { noteSession } from './record/sessions-seen.js';
export { formatCost, formatElapsed, parseCost, parseDuration } from './record/bounds.js';
export { parseModelPrices, priceFor, usageReport, type ModelName, type ModelPrice, type ModelPrices } from './record/pricing.js';
export type { UsageReport, UsageOutcome, LearningOutcome } from './record/operations.js';
export type * from './record/types.js';
export * from './policy/briefing.js';
export * from './policy/chart-agent-view.js';
export * from './export/graph.js';
export * from './export/text-exports.js';
export * from './export/layout.js';
export * from './export/svg.js';
export * from './language/index.js';
// Statechart runs, for the state panel and the status bar (src/vscode/panel, src/vscode/runtime).
export { chartEvents, type ChartEventCandidate, type ChartEventView, type ChartGuardView } from './machine/chart-events.js';
export { isChartWorkflow } from './machine/chart-run.js';
export { diagramTree, duration, isContainer, type DiagramTree, type TreeNode } from './export/tree.js';
export { configurationPaths, nextDue, ROOT_ID, type ChartInvocation, type ChartSnapshot, type ChartTimer } from './statechart/index.js';
// Flows (FlowState): the runner, for `stategate flow ...` and the Flows view.
export * from './flow/index.js';
export * from './handlers/index.js';
// The effects of a plain Node host (the CLI's, whose bash and claude-code the extension's host reuses).
export * from './flow/effects/index.js';
// Agent clients: the hook and MCP entries `stategate enable` and "Enable Agent Enforcement" write (src/engine/clients).
export * from './clients/cli-launch.js';
export * from './clients/hook-install.js';
export * from './clients/client-configs.js';
export * from './clients/config-io.js';
export * from './clients/repoint-mcp.js';
