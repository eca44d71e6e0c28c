/**
 * Typed arrays with one slot per node of a chart, reused from one operation
 * to the next. Allocating them afresh (the run state's configuration flags
 * and entry stamps, a microstep's exit and entry marks: four per event) took
 * a good part of a send and most of its garbage collection. Flags are handed
 * out cleared and stamps filled with -1; the user gives them back when done
 * with them (cleared again here). One never given back (an exception on the
 * way) is simply collected.
 */

/** Spare arrays kept per chart: enough for operations nested a few deep, bounded for anything else. */
const MAX_SPARE = 8;

export class NodeBuffers {
  private readonly spareFlags: Uint8Array[] = [];
  private readonly spareStamps: Int32Array[] = [];

  constructor(readonly size: number) {}

  /** One byte per node, all 0. */
  flags(): Uint8Array {
    return this.spareFlags.pop() ?? new Uint8Array(this.size);
  }

  /** `cleared`: the caller set every flag back to 0 itself. */
  releaseFlags(flags: Uint8Array, cleared = false): void {
    if (this.spareFlags.length >= MAX_SPARE) return;
    if (!cleared) flags.fill(0);
    this.spareFlags.push(flags);
  }

  /** One int per node, all -1. */
  stamps(): Int32Array {
    return this.spareStamps.pop() ?? new Int32Array(this.size).fill(-1);
  }

  releaseStamps(stamps: Int32Array): void {
    if (this.spareStamps.length >= MAX_SPARE) return;
    stamps.fill(-1);
    this.spareStamps.push(stamps);
  }
}
