/**
 * A step's states held in memory instead of in run files, when the whole step fits the budget and
 * no file is asked for. Unsorted unless sorted was asked: one run needs no merge order.
 */

import { Batch } from './batch.js';

export const memoryRunBytes = (residueCount: number): number => 8 + 4 * residueCount;

export class MemoryRun {
  count = 0;
  readonly capacity: number;
  /** Residues a state carries in the step held; at most the count the run was made for. */
  residueCount: number;
  private readonly states: Uint32Array;
  private readonly residues: Uint32Array;

  constructor(capacity: number, residueCount: number) {
    this.capacity = capacity;
    this.residueCount = residueCount;
    this.states = new Uint32Array(2 * capacity);
    this.residues = new Uint32Array(residueCount * capacity);
  }

  /** Empties the run for states of `residueCount` residues. */
  reset(residueCount: number): void {
    if (residueCount > this.residues.length / Math.max(this.capacity, 1))
      throw new RangeError(`a memory run made for fewer than ${residueCount} residues`);
    this.residueCount = residueCount;
    this.count = 0;
  }

  append(hi: number, lo: number, src: Uint32Array, at: number): void {
    if (this.count === this.capacity) throw new RangeError(`in-memory run full at ${this.capacity} states`);
    const n = this.count++;
    this.states[2 * n] = hi;
    this.states[2 * n + 1] = lo;
    const k = this.residueCount;
    for (let r = 0; r < k; r++) this.residues[n * k + r] = src[at + r];
  }

  /** Appends n records: states as (hi, lo) pairs, residues residueCount each. */
  appendBlock(states: Uint32Array, residues: Uint32Array, n: number): void {
    if (this.count + n > this.capacity) throw new RangeError(`in-memory run full at ${this.capacity} states`);
    this.states.set(states.subarray(0, 2 * n), 2 * this.count);
    this.residues.set(residues.subarray(0, this.residueCount * n), this.residueCount * this.count);
    this.count += n;
  }

  /** The states as batches of at most `size`: views, no copy. */
  *batches(size: number): Generator<Batch> {
    const k = this.residueCount;
    for (let start = 0; start < this.count; start += size) {
      const n = Math.min(size, this.count - start);
      yield new Batch(n, k, {
        states: this.states.subarray(2 * start, 2 * (start + n)),
        residues: this.residues.subarray(k * start, k * (start + n)),
        size: n,
      });
    }
  }
}
