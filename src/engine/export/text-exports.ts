/**
 * The diagram exports of a workflow, flat or nested: Mermaid, Graphviz DOT and
 * PlantUML as text (here), SVG laid out by elkjs (svg.ts, asynchronous: the
 * layout runs in ELK's worker).
 */
import type { Workflow } from '../model/index.js';
import { dot } from './dot.js';
import { mermaid } from './mermaid.js';
import { plantuml } from './plantuml.js';
import { diagramTree } from './tree.js';

export type TextExportFormat = 'mermaid' | 'dot' | 'plantuml';
export type ExportFormat = TextExportFormat | 'svg';
export const TEXT_EXPORT_FORMATS: readonly TextExportFormat[] = ['mermaid', 'dot', 'plantuml'];
export const EXPORT_FORMATS: readonly ExportFormat[] = [...TEXT_EXPORT_FORMATS, 'svg'];

export function exportWorkflow(wf: Workflow, format: TextExportFormat): string {
  const tree = diagramTree(wf);
  switch (format) {
    case 'mermaid':
      return mermaid(tree);
    case 'dot':
      return dot(tree);
    case 'plantuml':
      return plantuml(tree);
  }
}
