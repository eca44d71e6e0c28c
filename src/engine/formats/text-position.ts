/**
 * Offset <-> line/character conversion for diagnostics. Source locations in the
 * IR are character offsets; editors and the CLI want 0-based lines and columns.
 */

export interface TextPosition {
  /** 0-based line. */
  readonly line: number;
  /** 0-based UTF-16 code unit within the line (what VS Code and LSP use). */
  readonly character: number;
}

/**
 * Precomputed line starts, so many lookups on one text cost O(log lines) each
 * instead of rescanning the text every time.
 */
export class LineIndex {
  private readonly starts: number[];

  constructor(private readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      // \r\n counts as one break; a lone \r (old Mac) also ends a line.
      if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  positionAt(offset: number): TextPosition {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: clamped - (this.starts[lo] ?? 0) };
  }

  /** Same as positionAt (the shorter name reads better at call sites). */
  position(offset: number): TextPosition {
    return this.positionAt(offset);
  }

  offsetAt(pos: TextPosition): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.starts[pos.line] ?? 0;
    const next = this.starts[pos.line + 1] ?? this.text.length + 1;
    // Never step past the line's own break into the next line.
    return Math.min(start + Math.max(0, pos.character), next - 1, this.text.length);
  }
}

/** One-off conversion; build a LineIndex when converting many offsets of one text. */
export function offsetToPosition(text: string, offset: number): TextPosition {
  return new LineIndex(text).positionAt(offset);
}
