/**
 * A workflow file's definition as the state panel draws it when "Show
 * diagram" asks for a file that is not the active run's: its diagram as a run
 * of it would show it (a statechart or a flow through the export tree, a flat
 * workflow through its graph), with no state highlighted. Pure, unit-tested.
 */
import { isChartWorkflow, type Workflow } from '../../engine/index.js';
import type { DefinitionRenderModel } from '../../protocol.js';
import { chartDiagramModel } from './chart-diagram-model.js';
import { diagramModel } from './diagram-model.js';

/** `file`: as the panel names it (relative to the workspace folder); `runActive`: whether a run of another file is active. */
export function definitionRenderModel(wf: Workflow, file: string, runActive: boolean): DefinitionRenderModel {
  return {
    kind: 'definition',
    file,
    workflow: { id: wf.id, ...(wf.name === undefined ? {} : { name: wf.name }) },
    format: wf.format,
    diagram: isChartWorkflow(wf) || wf.format === 'flow' ? chartDiagramModel(wf) : diagramModel(wf),
    runActive,
  };
}

/** A file asked for that does not load as a workflow: said in the panel, with no diagram. */
export function definitionProblem(file: string, problem: string, runActive: boolean): DefinitionRenderModel {
  return { kind: 'definition', file, workflow: { id: file }, diagram: { nodes: [], edges: [], groups: [] }, problem, runActive };
}
