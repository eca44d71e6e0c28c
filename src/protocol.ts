/**
 * The messages between the state panel's host (src/vscode/panel/) and its
 * webview (webview/). Both sides import these types, so a renamed field is a
 * compile error on both ends instead of a silently blank panel. Only types
 * and one constant: the webview bundle must not pull engine code in through
 * this module (engine imports are `import type`).
 */
import type { StateView } from './engine/index.js';
import type { EdgeKind } from './engine/index.js';
import type { JsonObject, JsonValue } from './engine/index.js';
import type { JournalEntry, RunStatus, TakenEdge } from './engine/index.js';
import type { ChartEventView, ChartInvocation } from './engine/index.js';
import type { FlowStatusName } from './engine/index.js';
import type { AuditTimeline } from './engine/index.js';

export type { ChartEventView };

/** A state in the diagram, with the size the layout reserves for its label. */
export interface DiagramNode {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  readonly final: boolean;
  readonly initial: boolean;
  readonly interruptHandler: boolean;
  /** Statecharts only: what the node shows (its key or meta.label; `H` / `H*` for history), when not its id. */
  readonly label?: string;
  /** Statecharts only: the node it is drawn inside. */
  readonly parent?: string;
  /** Statecharts only: a box around its children (a parallel state's children are its regions; `chart` is the root's frame, drawn when the chart has transitions of its own). */
  readonly container?: 'compound' | 'parallel' | 'region' | 'chart';
  /** Statecharts and flows: the name a person reads (engine/export/state-names.ts), for tooltips, screen readers and event targets, when not the label. */
  readonly name?: string;
  readonly history?: 'shallow' | 'deep';
}

export interface DiagramEdge {
  /** Unique within the graph (`e0`, `e1`, ...). */
  readonly id: string;
  readonly from: string;
  readonly to: string;
  /** The event name alone, to match against the run's taken transitions. */
  readonly event: string;
  readonly label: string;
  readonly labelWidth: number;
  readonly kind: EdgeKind;
  readonly guarded: boolean;
  readonly approval: boolean;
}

/** A box drawn around related states: an interrupt's handlers, or one fork branch. */
export interface DiagramGroup {
  readonly id: string;
  readonly label: string;
  readonly kind: 'interrupts' | 'fork-branch';
  readonly members: readonly string[];
}

export interface DiagramModel {
  readonly nodes: readonly DiagramNode[];
  readonly edges: readonly DiagramEdge[];
  readonly groups: readonly DiagramGroup[];
}

/** A pending `after` timer of a statechart run. */
export interface ChartTimerView {
  readonly state: string;
  /** `after 2s → tested` */
  readonly label: string;
  /** When it is due, ms since the epoch (the run's clock). */
  readonly dueMs: number;
}

/** What a statechart run adds to the panel (absent for flat workflows). */
export interface ChartPanelModel {
  /** The active atomic and final states (the configuration). */
  readonly configuration: readonly string[];
  /** Every active state, the configuration's ancestors included. */
  readonly active: readonly string[];
  /** The status bar's short form (`pipeline › build.compiling | lint.linting`). */
  readonly summary: string;
  readonly timers: readonly ChartTimerView[];
  readonly invocations: readonly ChartInvocation[];
  readonly events: readonly ChartEventView[];
  readonly error?: string;
}

/** A journal line as the panel's history shows it. */
/** Where a journal entry of a shared run was committed: the machine (host name or STATEGATE_MACHINE) and the client (`cli`, `hook`, `vscode`, `mcp`). */
export interface EntryOrigin {
  readonly machine?: string;
  readonly client?: string;
}

export type HistoryEntry = JournalEntry & { readonly seq: number; readonly origin?: EntryOrigin };

export interface WorkflowSummary {
  readonly id: string;
  readonly name?: string;
  readonly file?: string;
  readonly taskType?: string;
  readonly dangerLevel?: string;
  readonly estimatedSteps?: number;
  readonly debug: boolean;
}

export type RenderModel =
  | { readonly kind: 'none'; readonly reason?: string }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | {
      readonly kind: 'active';
      readonly runId: string;
      readonly status: RunStatus;
      /** The status as every view words it (STATUS_WORDS): "waiting for approval", "paused"… */
      readonly statusLabel: string;
      readonly workflow: WorkflowSummary;
      readonly view: StateView;
      /** The state to highlight in the diagram: the current branch's state during a fork. */
      readonly current: string;
      readonly diagram: DiagramModel;
      readonly visited: readonly string[];
      readonly taken: readonly TakenEdge[];
      readonly history: readonly HistoryEntry[];
      readonly definitionChanged: boolean;
      /** Whether allowed shell commands run in the kernel sandbox here, and why not (one line in the panel). */
      readonly sandbox?: { readonly enforced: boolean; readonly reason?: string; readonly off_for?: Readonly<Record<string, string>> };
      readonly chart?: ChartPanelModel;
      /** The run record's summary (agent-state.json); absent when the run has none yet. */
      readonly record?: RecordSummary;
      /** A stage pipeline's timeline (stages, attempts, grants, turns, durations, payloads); absent for other runs. */
      readonly pipeline?: PipelineTimeline;
    }
  | FlowRenderModel
  | DefinitionRenderModel;

/** A workflow file's definition as the panel draws it ("Show diagram" on a file that is not the active run's): no state highlighted. */
export interface DefinitionRenderModel {
  readonly kind: 'definition';
  /** The file, relative to the workspace folder. */
  readonly file: string;
  readonly workflow: { readonly id: string; readonly name?: string };
  /** Absent when the file does not load as a workflow (then `problem` says so). */
  readonly format?: 'statewright' | 'statechart' | 'flow';
  readonly diagram: DiagramModel;
  readonly problem?: string;
  /** Whether a run (of another file) is active, so the panel offers the way back to it. */
  readonly runActive: boolean;
}

/** The audit timeline the panel draws (without the raw events, which the history shows). */
export type PipelineTimeline = Omit<AuditTimeline, 'events'>;

/** A flow instance (`.stategate/flows/<instance>/`) as the panel draws it. */
export interface FlowRenderModel {
  readonly kind: 'flow';
  readonly instance: string;
  /** The flow's name. */
  readonly flow: string;
  readonly status: FlowStatusName;
  /** The status in the words every view uses (STATUS_WORDS). */
  readonly statusLabel: string;
  /** The current or last state path (`deploy/check` inside a sub-flow). */
  readonly state: string;
  /** The top-level state to highlight (the first segment of `state`); '' once the flow completed. */
  readonly current: string;
  /** The top-level states that have run (the log's), drawn as visited. */
  readonly finished: readonly string[];
  /** The top-level state the flow failed in. */
  readonly failed?: string;
  readonly message?: string;
  readonly diagram: DiagramModel;
}

/** A bound of the run record with how much of it is used (fraction null when the bound is not set). */
export interface BoundView {
  readonly used: string;
  readonly max: string | null;
  readonly fraction: number | null;
}

/** What the panel shows of the run record: phase, task, iterations, bounds with bars. */
export interface RecordSummary {
  /** The run's status in the shared words (STATUS_WORDS), not the record's seed status. */
  readonly status: string;
  /** The record's own counts, in plain words: "2 tasks done", "0 lessons recorded", "1 checkpoint". */
  readonly counts: readonly string[];
  /** While the run goes on: when it started and the time bound (ms), so the panel's time ticks between the record's writes. */
  readonly ticking?: { readonly startMs: number; readonly maxMs: number | null };
  readonly phase: { readonly index: number; readonly total: number; readonly name: string };
  /** "N/M" within the phase. */
  readonly task: string;
  readonly taskText?: string;
  readonly iteration: number;
  readonly maxIterations: number | null;
  readonly cost: BoundView;
  readonly time: BoundView;
  readonly warnings: readonly string[];
  readonly completed: number;
  readonly pending: number;
  readonly learnings: number;
  readonly checkpoints: number;
  readonly lastCheckpointSha: string | null;
}

/** What the run looked like right after a history entry (replay of the journal's prefix). */
export interface HistoryPoint {
  readonly seq: number;
  readonly state: string;
  readonly context: JsonObject;
  readonly status: RunStatus;
  readonly transitions: number;
}

export type HostMessage =
  | { readonly type: 'render'; readonly model: RenderModel }
  | { readonly type: 'historyPoint'; readonly point: HistoryPoint | null }
  /** The host wants the diagram as a standalone SVG document (export). */
  | { readonly type: 'requestSvg'; readonly requestId: number };

export type WebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'sendEvent'; readonly event: string; readonly data?: JsonValue }
  | { readonly type: 'approve' }
  | { readonly type: 'reject' }
  | { readonly type: 'pause' }
  | { readonly type: 'resume' }
  | { readonly type: 'stop' }
  | { readonly type: 'reloadDefinition' }
  | { readonly type: 'openState'; readonly state: string }
  /** Leave the flow instance the panel shows, back to the workflow run. */
  | { readonly type: 'closeFlow' }
  /** Leave the workflow file's definition the panel shows ("Show diagram"), back to the run. */
  | { readonly type: 'closeDefinition' }
  /** Debug workflows only: replace one top-level context key (the host applies it as a forced patch). */
  | { readonly type: 'editContext'; readonly key: string; readonly value: JsonValue }
  /** `null` goes back to the live run. */
  | { readonly type: 'selectHistory'; readonly seq: number | null }
  | { readonly type: 'svg'; readonly requestId: number; readonly svg: string | null }
  /** The panel's "Export SVG" button (statechart runs): `stategate.exportSvg` with a save dialog. */
  | { readonly type: 'exportSvg' };

export const WEBVIEW_MESSAGE_TYPES: ReadonlySet<WebviewMessage['type']> = new Set<WebviewMessage['type']>([
  'ready', 'sendEvent', 'approve', 'reject', 'pause', 'resume', 'stop', 'reloadDefinition', 'openState', 'editContext', 'selectHistory', 'svg', 'exportSvg', 'closeFlow', 'closeDefinition',
]);
