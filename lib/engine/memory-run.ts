/**
 * A step's states held in memory instead of in run files, when the whole step fits the budget and
 * no file is asked for. Unsorted unless sorted was asked: one run needs no merge order.
 *
 * Its size is a number of 32-bit words, like the state table's: a step whose counts carry fewer
 * residues holds more states in the same words (capacityFor).
 */

import { adviseHugePages } from '../shared/huge-pages.js';
import { Batch } from './batch.js';

export const memoryRunBytes = (residueCount: number): number => 8 + 4 * residueCount;

/** The most words of one typed array. */
export const MAX_RUN_WORDS = 2 ** 32 - 1;

/** A step's states held in memory: a MemoryRun, or, where the plan allows, a GroupedRun (grouped-run.ts). */
export interface StepInMemory {
  readonly count: number;
  readonly capacity: number;
  readonly residueCount: number;
  capacityFor(residueCount: number): number;
  reset(residueCount: number): void;
  append(hi: number, lo: number, src: Uint32Array, at: number): void;
  appendBlock(states: Uint32Array, residues: Uint32Array, n: number): void;
  appendSorted(states: Uint32Array, residues: Uint32Array, n: number): void;
  batches(size: number): Generator<Batch>;
}

export class MemoryRun implements StepInMemory {
  count = 0;
  /** States the run holds with this step's residues. */
  capacity: number;
  /** Residues a state carries in the step held. */
  residueCount: number;
  private readonly words: Uint32Array;
  private states: Uint32Array;
  private residues: Uint32Array;

  /** Room for `capacity` states of `residueCount` residues, and for more of fewer. */
  constructor(capacity: number, residueCount: number) {
    this.words = new Uint32Array(Math.min(MAX_RUN_WORDS, capacity * (2 + residueCount)));
    adviseHugePages(this.words.buffer);
    this.capacity = capacity;
    this.residueCount = residueCount;
    this.states = this.residues = this.words;
    this.reset(residueCount);
  }

  /** States of `residueCount` residues the run holds. */
  capacityFor(residueCount: number): number {
    return Math.floor(this.words.length / (2 + residueCount));
  }

  /** Empties the run for states of `residueCount` residues: their (hi, lo) words first, then their residues. */
  reset(residueCount: number): void {
    this.residueCount = residueCount;
    this.capacity = this.capacityFor(residueCount);
    this.states = this.words.subarray(0, 2 * this.capacity);
    this.residues = this.words.subarray(2 * this.capacity, (2 + residueCount) * this.capacity);
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

  /** Appends n records in increasing order, as appendBlock: the state table drains sorted steps into it a block at a time. */
  appendSorted(states: Uint32Array, residues: Uint32Array, n: number): void {
    this.appendBlock(states, residues, n);
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
