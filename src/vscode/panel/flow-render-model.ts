/**
 * A flow instance as the state panel draws it: the flow's diagram (the export
 * tree of engine/export/flow-tree.ts, as Mermaid and SVG exports draw it) with
 * the instance's state highlighted, the states that ran marked, and the one it
 * failed in marked as failed. Pure, unit-tested.
 */
import { STATUS_WORDS, type FlowStatus, type Workflow } from '../../engine/index.js';
import type { FlowRenderModel } from '../../protocol.js';
import { chartDiagramModel } from './chart-diagram-model.js';

/** The top-level state of a state path (`deploy/check` inside the sub-flow `deploy` → `deploy`). */
function topState(path: string): string {
  return path.split('/')[0] ?? path;
}

/** Statuses whose state is where the instance is (or stands still) now. */
const AT_STATE = new Set<FlowStatus['status']>(['running', 'paused', 'interrupted', 'stopped']);

export function flowRenderModel(wf: Workflow, status: FlowStatus): FlowRenderModel {
  const state = topState(status.state);
  const failed = status.status === 'failed' && state !== '' ? state : undefined;
  return {
    kind: 'flow',
    instance: status.instance,
    flow: status.flow,
    status: status.status,
    statusLabel: STATUS_WORDS[status.status].label,
    state: status.state,
    current: AT_STATE.has(status.status) ? state : '',
    finished: [...new Set(status.log.map((e) => topState(e.state)))],
    ...(failed === undefined ? {} : { failed }),
    ...(status.message === undefined ? {} : { message: status.message }),
    diagram: chartDiagramModel(wf),
  };
}
