/**
 * The unit that flows between stream stages: up to `capacity` state-count pairs in typed arrays.
 * states[2i] and states[2i+1] are record i's hi and lo words; residues[K·i + r] its residue r.
 */

export class Batch {
  size = 0;
  readonly capacity: number;
  readonly states: Uint32Array;
  readonly residues: Uint32Array;
  /** False for views into a MemoryRun, which go back to no pool. */
  readonly pooled: boolean;

  constructor(capacity: number, residueCount: number, views?: { states: Uint32Array; residues: Uint32Array; size: number }) {
    this.capacity = capacity;
    this.pooled = views === undefined;
    this.states = views?.states ?? new Uint32Array(2 * capacity);
    this.residues = views?.residues ?? new Uint32Array(residueCount * capacity);
    this.size = views?.size ?? 0;
  }
}

/** Reuses batches of one capacity so a step allocates a handful, not one per chunk. */
export class BatchPool {
  private readonly free: Batch[] = [];
  constructor(
    readonly capacity: number,
    readonly residueCount: number,
  ) {}

  take(): Batch {
    const batch = this.free.pop() ?? new Batch(this.capacity, this.residueCount);
    batch.size = 0;
    return batch;
  }

  give(batch: Batch): void {
    if (batch.pooled && batch.capacity === this.capacity) this.free.push(batch);
  }
}

/**
 * Follows a step's last batch down the pipeline, which lives for the whole pass: each stage passes
 * it on untouched, and the end of the pipeline takes it as the step's end.
 */
export const STEP_END: Batch = Object.freeze(new Batch(0, 0));
