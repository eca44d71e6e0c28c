/** What every request handler reads: the analyses, the open documents, the workspace's workflows, the client's options. */
import type { AnalysedDocuments } from './documents.js';
import type { OpenDocuments } from './locations.js';
import type { WorkspaceWorkflows } from './workspace-index.js';
import type { SchemaDocs } from './schemas.js';

export interface ServerContext {
  readonly docs: AnalysedDocuments;
  readonly open: OpenDocuments;
  readonly workspace: WorkspaceWorkflows;
  readonly schemas: SchemaDocs;
  /** The lens commands the client can run. */
  readonly commands: ReadonlySet<string>;
}
