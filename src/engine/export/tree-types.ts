/** The tree every export draws (tree.ts builds it for each format of workflow; flow-tree.ts for flows). */
import type { HistoryVariant, StateKind } from '../model/index.js';
import type { GraphEdge } from './graph.js';

export interface TreeNode {
  /** The state's id (its path); '' for the chart root when it is drawn (see `DiagramTree.top`). */
  readonly id: string;
  /** What the diagrams print: `meta.label`, else the key (the id for Statewright); `H` / `H*` for history. */
  readonly label: string;
  readonly kind: StateKind;
  /** undefined for a node at the top. */
  readonly parent?: string;
  /** In document order; a parallel state's children are its regions. */
  readonly children: readonly string[];
  /** The initial child's id (compound states whose `initial` names a child). */
  readonly initial?: string;
  readonly history?: HistoryVariant;
  /** A parallel state's child. */
  readonly region: boolean;
  /** Statewright: a state only entered through an interrupt. */
  readonly interruptHandler: boolean;
  /** `meta.color` when the diagrams can use it (diagramColor). */
  readonly color?: string;
}

export interface DiagramTree {
  /** The workflow's id (the diagrams' title). */
  readonly id: string;
  readonly nodes: ReadonlyMap<string, TreeNode>;
  /** The top-level nodes in document order. */
  readonly top: readonly string[];
  /** Where `[*]` of the whole diagram points (a Statewright workflow's `initial` as written). */
  readonly initial?: string;
  /** Edges whose ends both exist, in document order; `from` may be a compound or parallel state. */
  readonly edges: readonly GraphEdge[];
}
