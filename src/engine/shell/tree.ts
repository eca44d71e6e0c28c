/**
 * The parse tree as the shell analysis reads it: each web-tree-sitter node
 * wrapped once, every property asked of the parser at most once and kept.
 *
 * Every property of web-tree-sitter's `Node` is a call into the WASM module
 * (with its arguments and result copied through a transfer buffer), and
 * `children`/`parent`/`childForFieldName` hand back fresh objects each time;
 * `parent` even walks down from the root. The analysis asks the same few
 * questions of each node many times over (type, text, children), so it
 * spends most of its time crossing into WASM, not deciding. Here each answer
 * still comes from the parser, only once:
 *
 * - `type`, `endIndex`, `isNamed`, `children` and field children are asked
 *   of the real node on first use and cached;
 * - `namedChildren` are the named ones among `children` (what tree-sitter
 *   counts as named children), unless an anonymous child has children of its
 *   own: then the parser is asked;
 * - `text` is the source sliced at the node's offsets, which is what
 *   web-tree-sitter's `text` returns for a tree parsed from a string;
 * - `parent` is the wrapper the node was reached from (the real parent's
 *   answer is asked only for nodes not reached from the root);
 * - `isMissing` and `hasError` are false without asking when the root has no
 *   error: tree-sitter counts every ERROR and MISSING node below a node in its
 *   error cost, which is what `hasError` reads.
 *
 * A wrapper is valid only while its tree is (inside `ShellParser.withTree`).
 */
import type { SyntaxNode } from './parser';

interface Source {
  /** The text the tree was parsed from. */
  readonly text: string;
  /** Whether the root has an error (else no node is ERROR or MISSING). */
  readonly hasError: boolean;
}

const NONE: readonly ShellNode[] = [];

export class ShellNode {
  readonly startIndex: number;
  private typeName: string | undefined;
  private end = -1;
  private named: boolean | undefined;
  private textValue: string | undefined;
  private kids: readonly ShellNode[] | undefined;
  private namedKids: readonly ShellNode[] | undefined;
  /** undefined: not known yet (a node not reached from the root). */
  private up: ShellNode | null | undefined;

  private constructor(
    private readonly real: SyntaxNode,
    private readonly source: Source,
    parent: ShellNode | null | undefined,
  ) {
    this.startIndex = real.startIndex;
    this.up = parent;
  }

  /** Wraps the root of a tree parsed from `text`. */
  static root(real: SyntaxNode, text: string): ShellNode {
    return new ShellNode(real, { text, hasError: real.hasError }, null);
  }

  get id(): number {
    return this.real.id;
  }

  get type(): string {
    return (this.typeName ??= this.real.type);
  }

  get endIndex(): number {
    if (this.end < 0) this.end = this.real.endIndex;
    return this.end;
  }

  get text(): string {
    return (this.textValue ??= this.source.text.slice(this.startIndex, this.endIndex));
  }

  get isNamed(): boolean {
    return (this.named ??= this.real.isNamed);
  }

  get isMissing(): boolean {
    return this.source.hasError && this.real.isMissing;
  }

  get hasError(): boolean {
    return this.source.hasError && this.real.hasError;
  }

  get children(): readonly ShellNode[] {
    if (this.kids === undefined) {
      const real = this.real.children;
      if (real.length === 0) this.kids = NONE;
      else {
        const kids: ShellNode[] = [];
        for (const c of real) if (c) kids.push(new ShellNode(c, this.source, this));
        this.kids = kids;
      }
    }
    return this.kids;
  }

  get childCount(): number {
    return this.children.length;
  }

  /** The real node's named children, as the wrappers in `children`. */
  get namedChildren(): readonly ShellNode[] {
    if (this.namedKids === undefined) this.namedKids = this.namedAmongChildren() ?? this.namedFromParser();
    return this.namedKids;
  }

  /**
   * The named children are the named ones among `children`, unless an
   * anonymous child has children of its own (tree-sitter then looks inside it
   * for named ones): then undefined, and the parser is asked.
   */
  private namedAmongChildren(): readonly ShellNode[] | undefined {
    const kids = this.children;
    let named: ShellNode[] | undefined;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i] as ShellNode;
      if (k.isNamed) {
        named ??= [];
        named.push(k);
      } else if (k.childCount > 0) return undefined;
    }
    return named ?? NONE;
  }

  private namedFromParser(): readonly ShellNode[] {
    const real = this.real.namedChildren;
    if (real.length === 0) return NONE;
    const kids = this.children;
    const named: ShellNode[] = [];
    let from = 0;
    for (const c of real) {
      if (!c) continue;
      const at = ShellNode.indexOf(kids, c, from);
      if (at >= 0) {
        named.push(kids[at] as ShellNode);
        from = at + 1;
      } else named.push(new ShellNode(c, this.source, this));
    }
    return named;
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  get parent(): ShellNode | null {
    if (this.up === undefined) {
      const p = this.real.parent;
      this.up = p ? new ShellNode(p, this.source, undefined) : null;
    }
    return this.up;
  }

  child(index: number): ShellNode | null {
    return this.children[index] ?? null;
  }

  childForFieldName(field: string): ShellNode | null {
    const c = this.real.childForFieldName(field);
    if (!c) return null;
    const kids = this.children;
    const at = ShellNode.indexOf(kids, c, 0);
    return at >= 0 ? (kids[at] as ShellNode) : new ShellNode(c, this.source, this);
  }

  /** The smallest node that spans `index` (asked of the parser; its ancestors are asked lazily). */
  descendantForIndex(index: number): ShellNode | null {
    const d = this.real.descendantForIndex(index);
    return d ? new ShellNode(d, this.source, undefined) : null;
  }

  /** The wrapper in `kids` (from `from` on) for the same node as `real`. */
  private static indexOf(kids: readonly ShellNode[], real: SyntaxNode, from: number): number {
    for (let i = from; i < kids.length; i++) {
      const k = kids[i] as ShellNode;
      if (k.real.id === real.id && k.startIndex === real.startIndex) return i;
    }
    return -1;
  }
}
