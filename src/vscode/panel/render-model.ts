/**
 * What the panel shows, computed from the RunService's situation and the
 * journal: one plain, serialisable object posted to the webview whole, so the
 * webview never has to merge partial updates. Pure (type-only imports of the
 * 'vscode' side), so it is unit-tested without VS Code.
 */
import { auditTimeline, isChartWorkflow, type AgentStateRecord, type JournalEntry, type StoredEntry, shownRunStatus, STATUS_WORDS } from '../../engine/index.js';
import type { HistoryEntry, PipelineTimeline, RenderModel } from '../../protocol.js';
import type { RunSituation } from '../runtime/run-service.js';
import { chartDiagramModel } from './chart-diagram-model.js';
import { chartPanelModel } from './chart-panel-model.js';
import { diagramModel } from './diagram-model.js';
import { historyRows } from './history-rows.js';
import { recordSummary } from './record-summary.js';

/** The newest entries the history shows; older ones stay in journal.jsonl. */
export const HISTORY_LIMIT = 500;

/** The store's journal lines are the engine's entries plus `seq` (the store writes them). */
export function historyOf(journal: readonly StoredEntry[]): HistoryEntry[] {
  return journal as unknown as HistoryEntry[];
}

const EMPTY_DIAGRAM = { nodes: [], edges: [], groups: [] } as const;

/** `now`: the run's clock in ms (statechart guards that read `now()` are evaluated at it). `record`: the run's agent-state.json. */
export function renderModel(situation: RunSituation, journal: readonly StoredEntry[], now: number = Date.now(), record?: AgentStateRecord): RenderModel {
  if (situation.kind === 'none') return { kind: 'none' };
  if (situation.kind === 'unreadable') return { kind: 'unreadable', reason: situation.reason };
  const { run, view, workflow: wf } = situation;
  const meta = wf?.meta;
  const chart = wf && run.chart && isChartWorkflow(wf) ? chartPanelModel(run, wf, now) : undefined;
  return {
    kind: 'active',
    runId: run.runId,
    status: run.status,
    statusLabel: STATUS_WORDS[shownRunStatus(run)].label,
    workflow: {
      id: run.workflow.id,
      ...(wf?.name === undefined ? {} : { name: wf.name }),
      ...(run.workflow.file === undefined ? {} : { file: run.workflow.file }),
      ...(meta?.taskType === undefined ? {} : { taskType: meta.taskType }),
      ...(meta?.dangerLevel === undefined ? {} : { dangerLevel: meta.dangerLevel }),
      ...(meta?.estimatedSteps === undefined ? {} : { estimatedSteps: meta.estimatedSteps }),
      debug: meta?.debug ?? false,
    },
    view,
    // While a child workflow runs, the parent's diagram shows the state that waits for it.
    current: view.child ? view.child.parent_state : view.state,
    diagram: !wf ? EMPTY_DIAGRAM : chart ? chartDiagramModel(wf) : diagramModel(wf),
    visited: run.visited,
    taken: run.taken,
    history: historyRows(historyOf(journal.slice(-HISTORY_LIMIT))),
    definitionChanged: situation.definitionChanged,
    ...(situation.sandbox ? { sandbox: situation.sandbox } : {}),
    ...(chart ? { chart } : {}),
    ...(record && record.stategate.run_id === run.runId ? { record: recordSummary(record, STATUS_WORDS[shownRunStatus(run)].label, run.status === 'running') } : {}),
    ...pipelineOf(run.pipeline !== undefined, journal),
  };
}

/** A pipeline run's timeline from its whole journal (stages start at its beginning). */
function pipelineOf(isPipeline: boolean, journal: readonly StoredEntry[]): { pipeline?: PipelineTimeline } {
  if (!isPipeline) return {};
  const { stages, decisions } = auditTimeline(journal as unknown as JournalEntry[]);
  return { pipeline: { stages, decisions } };
}
