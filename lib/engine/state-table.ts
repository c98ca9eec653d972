/**
 * The in-memory buffer of one step's successors: an open-addressing hash table from state to its
 * residues, so equal states are combined as they arrive. When it holds maxLoad states it is drained
 * in state order into a run file, or, at the end of a step that fit, into a MemoryRun.
 */

import { MemoryRun } from './memory-run.js';

/** Linear probing stays short at this load. */
export const MAX_LOAD_FACTOR = 0.7;

/** Bytes per slot, and per stored state for the sort keys, for budget planning. */
export const tableSlotBytes = (residueCount: number): number => 9 + 4 * residueCount;
export const sortKeyBytes = 8;

export interface RecordSink {
  append(hi: number, lo: number, residues: Uint32Array, at: number): void;
}

export class StateTable {
  readonly capacity: number;
  readonly maxLoad: number;
  readonly residueCount: number;
  size = 0;

  private readonly hi: Uint32Array;
  private readonly lo: Uint32Array;
  private readonly used: Uint8Array;
  private readonly residues: Uint32Array;
  private readonly moduli: Float64Array;
  /** Sort keys as 64-bit integers: (hi << 30 | lo), written through a 32-bit view. */
  private readonly keys: BigUint64Array;
  private readonly keyWords: Uint32Array;

  constructor(capacity: number, moduli: readonly number[]) {
    this.capacity = capacity;
    this.maxLoad = Math.max(1, Math.floor(capacity * MAX_LOAD_FACTOR));
    this.residueCount = moduli.length;
    this.moduli = Float64Array.from(moduli);
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.used = new Uint8Array(capacity);
    this.residues = new Uint32Array(capacity * moduli.length);
    this.keys = new BigUint64Array(this.maxLoad);
    this.keyWords = new Uint32Array(this.keys.buffer);
  }

  get full(): boolean {
    return this.size >= this.maxLoad;
  }

  /** Adds residues src[at..at+K) to state (hi, lo). */
  add(hi: number, lo: number, src: Uint32Array, at: number): void {
    const { capacity, used, moduli, residues } = this;
    const k = moduli.length;
    let i = slotHash(hi, lo) % capacity;
    while (used[i] === 1) {
      if (this.lo[i] === lo && this.hi[i] === hi) {
        const base = i * k;
        for (let r = 0; r < k; r++) {
          const s = residues[base + r] + src[at + r];
          residues[base + r] = s >= moduli[r] ? s - moduli[r] : s;
        }
        return;
      }
      if (++i === capacity) i = 0;
    }
    used[i] = 1;
    this.hi[i] = hi;
    this.lo[i] = lo;
    const base = i * k;
    for (let r = 0; r < k; r++) residues[base + r] = src[at + r];
    this.size++;
  }

  /** Sends every state to `sink` in increasing order, then empties the table. */
  drainSorted(sink: RecordSink): void {
    const n = this.sortedKeys();
    const { keyWords, residues, residueCount } = this;
    for (let j = 0; j < n; j++) {
      const low = keyWords[2 * j];
      const high = keyWords[2 * j + 1];
      const hi = (high << 2) | (low >>> 30);
      const lo = low & 0x3fffffff;
      sink.append(hi, lo, residues, this.find(hi, lo) * residueCount);
    }
    this.clear();
  }

  /** Copies every state into `run` (sorted when asked), then empties the table. */
  drainTo(run: MemoryRun, sorted: boolean): void {
    run.reset(sorted);
    if (sorted) this.drainSorted(run);
    else {
      const { used, residues, residueCount } = this;
      for (let i = 0; i < this.capacity; i++) {
        if (used[i] === 1) run.append(this.hi[i], this.lo[i], residues, i * residueCount);
      }
      this.clear();
    }
  }

  clear(): void {
    this.used.fill(0);
    this.size = 0;
  }

  /** Fills keys[0..size) with the stored states and sorts them; returns size. */
  private sortedKeys(): number {
    const { keyWords, used } = this;
    let n = 0;
    for (let i = 0; i < this.capacity; i++) {
      if (used[i] === 0) continue;
      keyWords[2 * n] = ((this.hi[i] << 30) | this.lo[i]) >>> 0;
      keyWords[2 * n + 1] = this.hi[i] >>> 2;
      n++;
    }
    this.keys.subarray(0, n).sort();
    return n;
  }

  private find(hi: number, lo: number): number {
    let i = slotHash(hi, lo) % this.capacity;
    while (this.lo[i] !== lo || this.hi[i] !== hi) if (++i === this.capacity) i = 0;
    return i;
  }
}

/** A 31-bit mix of both words; the low word varies most. */
function slotHash(hi: number, lo: number): number {
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae3d);
  h ^= h >>> 13;
  return h >>> 1;
}
