import type { JsonValue } from './json-types.js';
import type { SourceLoc } from './source.js';

export type Severity = 'error' | 'warning' | 'info';

export interface RelatedInfo {
  readonly message: string;
  readonly loc: SourceLoc;
  /** Another file, when the related place is not in the diagnosed file. */
  readonly file?: string;
}

export interface Diagnostic {
  readonly severity: Severity;
  /** Stable code, e.g. `unknown-target`; documented in docs/format.md. */
  readonly code: string;
  readonly message: string;
  readonly loc: SourceLoc;
  readonly related?: readonly RelatedInfo[];
  /** Machine-readable hints for quick fixes (e.g. the closest state name). */
  readonly data?: Readonly<Record<string, JsonValue>>;
}
