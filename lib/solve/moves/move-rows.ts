/**
 * The rows of a move graph (each state's children, or its parents): one sequence of 32-bit state
 * numbers, row s being items[start[s] .. start[s + 1]). Held in memory while they fit their
 * allowance; beyond it they go to a file of the solve's scratch folder (lib/solve/moves/scratch-file.ts)
 * and are read back in blocks of whole rows, so a board whose moves exceed `--memory` is still
 * solved.
 */

import { ScratchFile } from './scratch-file.js';

/** Rows of states first .. last - 1: item e of them is items[e - offset]. */
export interface RowBlock {
  readonly first: number;
  readonly last: number;
  readonly offset: number;
  readonly items: Uint32Array;
}

/**
 * Where rows that outgrow memory go: a folder; the most items rows may hold in memory, beyond
 * which they go to a file; and the items of a block read back from the file.
 */
export interface RowSpill {
  readonly folder: string;
  readonly memoryItems: number;
  readonly blockItems: number;
  /** Called as the rows first go to a file; may throw to stop the rows being built. */
  readonly onSpill?: () => void;
}

export class MoveRows {
  constructor(
    readonly start: Uint32Array,
    /** The items, when in memory. */
    readonly items: Uint32Array | undefined,
    /** Else the file that holds them. */
    private readonly file: ScratchFile | undefined,
    private readonly blockItems: number,
  ) {}

  static inMemory(start: Uint32Array, items: Uint32Array): MoveRows {
    return new MoveRows(start, items, undefined, 0);
  }

  /** The bytes of the file holding the rows (0 when they are in memory). */
  get bytesOnDisk(): number {
    return this.file?.bytes ?? 0;
  }

  get states(): number {
    return this.start.length - 1;
  }

  get length(): number {
    return this.start[this.states];
  }

  /**
   * Every row, in blocks of whole rows (one block when in memory). A block's items are valid until
   * the next block is read.
   */
  *blocks(): Generator<RowBlock> {
    if (this.items) {
      yield { first: 0, last: this.states, offset: 0, items: this.items };
      return;
    }
    const { start, states } = this;
    const buffer = new Uint32Array(this.blockItems);
    for (let first = 0; first < states;) {
      let last = first + 1;
      while (last < states && start[last + 1] - start[first] <= this.blockItems) last++;
      const items = start[last] - start[first] <= buffer.length ? buffer : new Uint32Array(start[last] - start[first]);
      this.file!.readAt(items.subarray(0, start[last] - start[first]), start[first] * 4);
      yield { first, last, offset: start[first], items };
      first = last;
    }
  }

  /** Row s: a view when in memory, else read from the file. */
  row(s: number): Uint32Array {
    const from = this.start[s];
    const count = this.start[s + 1] - from;
    if (this.items) return this.items.subarray(from, from + count);
    const row = new Uint32Array(count);
    this.file!.readAt(row, from * 4);
    return row;
  }

  /** Gives the file's space back, if any. */
  dispose(): void {
    this.file?.close();
  }
}

const CHUNK_ITEMS = 1 << 20;
const MIN_CHUNK_ITEMS = 1 << 10;

/**
 * Collects rows item by item: in chunks in memory while they total at most spill.memoryItems, then
 * in a file (chunks written as they fill). `finish` makes the MoveRows.
 */
export class RowWriter {
  private readonly chunkItems: number;
  private chunk: Uint32Array;
  private used = 0;
  private readonly full: Uint32Array[] = [];
  private file: ScratchFile | undefined;

  constructor(private readonly spill: RowSpill | undefined) {
    this.chunkItems = spill ? Math.min(CHUNK_ITEMS, Math.max(MIN_CHUNK_ITEMS, spill.blockItems >>> 2)) : CHUNK_ITEMS;
    this.chunk = new Uint32Array(this.chunkItems);
  }

  push(item: number): void {
    if (this.used === this.chunkItems) this.flushChunk();
    this.chunk[this.used++] = item;
  }

  private flushChunk(): void {
    if (!this.file) {
      this.full.push(this.chunk);
      this.chunk = new Uint32Array(this.chunkItems);
      this.used = 0;
      if (this.spill && this.full.length * this.chunkItems > this.spill.memoryItems) {
        for (const chunk of this.full.splice(0)) this.write(chunk, this.chunkItems);
      }
      return;
    }
    this.write(this.chunk, this.used);
    this.used = 0;
  }

  private write(chunk: Uint32Array, count: number): void {
    if (!this.file) {
      this.spill!.onSpill?.();
      this.file = ScratchFile.open(this.spill!.folder);
    }
    this.file.append(chunk.subarray(0, count));
  }

  /** The rows, in memory or in their file. */
  finish(start: Uint32Array): MoveRows {
    const total = this.full.length * this.chunkItems + this.used;
    if (!this.file && !(this.spill && total > this.spill.memoryItems)) {
      const items = new Uint32Array(total);
      this.full.forEach((chunk, i) => items.set(chunk, i * this.chunkItems));
      items.set(this.chunk.subarray(0, this.used), this.full.length * this.chunkItems);
      return MoveRows.inMemory(start, items);
    }
    for (const chunk of this.full.splice(0)) this.write(chunk, this.chunkItems);
    this.write(this.chunk, this.used);
    return new MoveRows(start, undefined, this.file, Math.max(1, this.spill!.blockItems));
  }
}
