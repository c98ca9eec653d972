/**
 * 32-bit words appended to one of several scratch files (buckets), each through a buffer of its
 * own, and read back bucket by bucket in chunks. A solve with its states on disk sends its moves
 * and its messages between states this way (lib/solve/cycle-draw/cycle-draw-on-disk.ts).
 */

import { ScratchFile } from '../moves/scratch-file.js';

export class BucketFiles {
  private readonly files: ScratchFile[] = [];
  private buffers: Uint32Array[] = [];
  private readonly used: Uint32Array;

  /**
   * The buffers are carved from `storage`, an even number of words each (so pairs never straddle
   * a flush); it must hold at least two words a bucket.
   */
  constructor(folder: string, count: number, storage: Uint32Array) {
    const words = Math.floor(storage.length / count) & ~1;
    if (words < 2) throw new Error(`bucket files: ${storage.length} words of buffers for ${count} buckets`);
    this.used = new Uint32Array(count);
    try {
      for (let b = 0; b < count; b++) {
        this.files.push(ScratchFile.open(folder));
        this.buffers.push(storage.subarray(b * words, (b + 1) * words));
      }
    } catch (error) {
      this.close();
      throw error;
    }
  }

  get count(): number {
    return this.buffers.length;
  }

  push(b: number, word: number): void {
    const buffer = this.buffers[b];
    if (this.used[b] === buffer.length) {
      if (buffer.length === 0) throw new Error('bucket files: a push after seal()');
      this.flush(b);
    }
    buffer[this.used[b]++] = word;
  }

  /** Writes every buffer out and gives the storage up: the buckets are read, never pushed to again. */
  seal(): void {
    for (let b = 0; b < this.count; b++) this.flush(b);
    this.buffers = this.buffers.map(() => new Uint32Array(0));
  }

  /** The words bucket b holds, buffered or written. */
  words(b: number): number {
    return this.files[b].length / 4 + this.used[b];
  }

  /** Every word of bucket b in order, in chunks of at most into.length words (an even number). */
  *chunks(b: number, into: Uint32Array): Generator<Uint32Array> {
    const file = this.files[b];
    if (file.length === 0) {
      // Never written: the buffer holds them all.
      yield this.buffers[b].subarray(0, this.used[b]);
      return;
    }
    this.flush(b);
    const step = Math.max(2, into.length & ~1);
    for (let at = 0; at < file.length / 4; at += step) {
      const chunk = into.subarray(0, Math.min(step, file.length / 4 - at));
      file.readAt(chunk, at * 4);
      yield chunk;
    }
  }

  private flush(b: number): void {
    if (this.used[b] === 0) return;
    this.files[b].append(this.buffers[b].subarray(0, this.used[b]));
    this.used[b] = 0;
  }

  /** Empties every bucket. */
  clear(): void {
    for (const file of this.files) file.clear();
    this.used.fill(0);
  }

  /** Bytes the buckets hold on disk. */
  get bytes(): number {
    return this.files.reduce((sum, file) => sum + file.bytes, 0);
  }

  close(): void {
    for (const file of this.files) file.close();
  }
}
