/** Where a node of the IR was written, and names that refer to something defined elsewhere. */
/**
 * Where a node came from. `start`/`end` are character offsets into the source
 * text (end exclusive). For string literals the range covers the contents
 * without the quotes, so a rename can replace it directly. `pointer` is the
 * RFC 6901 JSON pointer of the node in the document as written (including a
 * `/definition` prefix for gateway-wrapped files).
 */
export interface SourceLoc {
  readonly pointer: string;
  readonly start: number;
  readonly end: number;
}

/** A name that refers to something defined elsewhere (a state, a guard, a workflow). */
export interface NameRef {
  readonly name: string;
  readonly loc: SourceLoc;
}
