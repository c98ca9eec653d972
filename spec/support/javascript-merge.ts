/**
 * k-way merge of sorted runs in JavaScript, RunReader.next() a record at a time: a binary heap of
 * readers ordered by their current state, equal states' residues added. The engine merges in
 * WebAssembly (lib/engine/run-merge.ts); this is the oracle its tests compare with.
 */

import type { RunReader } from '../../lib/format/run-reader.js';
import type { Batch } from '../../lib/engine/batch.js';
import type { RecordSink } from '../../lib/engine/state-table.js';
import { addModulo } from '../../lib/residues/sums.js';

export class RunMerger {
  private readonly heap: RunReader[] = [];
  private readonly moduli: Float64Array;
  private readonly current: Uint32Array;

  constructor(readers: RunReader[], moduli: readonly number[]) {
    this.moduli = Float64Array.from(moduli);
    this.current = new Uint32Array(moduli.length);
    for (const reader of readers) {
      if (reader.next()) this.push(reader);
    }
  }

  /** Fills `batch` with up to its capacity of distinct states; returns false once nothing is left. */
  fill(batch: Batch): boolean {
    batch.size = 0;
    const k = this.moduli.length;
    while (batch.size < batch.capacity && this.heap.length > 0) {
      const at = batch.size++;
      batch.states[2 * at] = this.heap[0].hi;
      batch.states[2 * at + 1] = this.heap[0].lo;
      this.takeState(batch.residues, at * k);
    }
    return batch.size > 0;
  }

  /** Sends every remaining state to `sink`, in order. */
  drainTo(sink: RecordSink): void {
    const { current } = this;
    while (this.heap.length > 0) {
      const hi = this.heap[0].hi;
      const lo = this.heap[0].lo;
      this.takeState(current, 0);
      sink.append(hi, lo, current, 0);
    }
  }

  /** Pops every reader at the smallest state, summing their residues into out[at..]. */
  private takeState(out: Uint32Array, at: number): void {
    const { heap, moduli } = this;
    const k = moduli.length;
    const top = heap[0];
    const hi = top.hi;
    const lo = top.lo;
    for (let r = 0; r < k; r++) out[at + r] = top.residues[r];
    this.advanceTop();
    while (heap.length > 0 && heap[0].hi === hi && heap[0].lo === lo) {
      const same = heap[0];
      for (let r = 0; r < k; r++) out[at + r] = addModulo(out[at + r], same.residues[r], moduli[r]);
      this.advanceTop();
    }
  }

  private advanceTop(): void {
    const { heap } = this;
    if (heap[0].next()) this.siftDown(0);
    else {
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        this.siftDown(0);
      }
    }
  }

  private push(reader: RunReader): void {
    const { heap } = this;
    heap.push(reader);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const { heap } = this;
    const n = heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && before(heap[right], heap[left]) ? right : left;
      if (!before(heap[child], heap[i])) return;
      [heap[i], heap[child]] = [heap[child], heap[i]];
      i = child;
    }
  }
}

function before(a: RunReader, b: RunReader): boolean {
  return a.hi < b.hi || (a.hi === b.hi && a.lo < b.lo);
}
