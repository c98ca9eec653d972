/**
 * The rows of a move graph (each state's children, or its parents): one sequence of 32-bit state
 * numbers, row s being items[start[s] .. start[s + 1]). Held in memory while they fit their
 * allowance; beyond it they go to a file of the solve's scratch folder and are read back in blocks
 * of whole rows, so a board whose moves exceed `--memory` is still solved. The file's name is
 * removed as soon as it is open: its space lasts as long as the descriptor, so a solve that is
 * stopped or killed leaves nothing behind.
 */

import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { diskError } from '../engine/scratch.js';
import { makeFolder } from '../format/make-folder.js';

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
}

export class MoveRows {
  constructor(
    readonly start: Uint32Array,
    /** The items, when in memory. */
    readonly items: Uint32Array | undefined,
    /** Else the open file that holds them, and its folder where its name could not be removed at once. */
    private fd: number,
    private readonly leftover: string | undefined,
    private readonly blockItems: number,
  ) {}

  static inMemory(start: Uint32Array, items: Uint32Array): MoveRows {
    return new MoveRows(start, items, -1, undefined, 0);
  }

  /** The bytes of the file holding the rows (0 when they are in memory). */
  get bytesOnDisk(): number {
    return this.fd < 0 ? 0 : fstatSync(this.fd).size;
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
      readItems(this.fd, items, start[first], start[last] - start[first]);
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
    readItems(this.fd, row, from, count);
    return row;
  }

  /** Gives the file's space back, if any. */
  dispose(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    if (this.leftover) rmSync(this.leftover, { recursive: true, force: true });
  }
}

function readItems(fd: number, into: Uint32Array, from: number, count: number): void {
  const bytes = Buffer.from(into.buffer, into.byteOffset, count * 4);
  for (let done = 0; done < bytes.length;) {
    const read = readSync(fd, bytes, done, bytes.length - done, from * 4 + done);
    if (read === 0) throw new Error(`move rows: the file ends at item ${from + done / 4}`);
    done += read;
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
  private fd = -1;
  private leftover: string | undefined;

  constructor(private readonly spill: RowSpill | undefined) {
    this.chunkItems = spill ? Math.min(CHUNK_ITEMS, Math.max(MIN_CHUNK_ITEMS, spill.blockItems >>> 2)) : CHUNK_ITEMS;
    this.chunk = new Uint32Array(this.chunkItems);
  }

  push(item: number): void {
    if (this.used === this.chunkItems) this.flushChunk();
    this.chunk[this.used++] = item;
  }

  private flushChunk(): void {
    if (this.fd < 0) {
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
    try {
      if (this.fd < 0) {
        makeFolder(this.spill!.folder, 'scratch folder');
        const folder = mkdtempSync(path.join(this.spill!.folder, 'solve-'));
        this.fd = openSync(path.join(folder, 'rows.u32'), 'w+');
        try {
          rmSync(folder, { recursive: true });
        } catch {
          this.leftover = folder; // a system that keeps open files' names: removed by dispose()
        }
      }
      writeSync(this.fd, new Uint8Array(chunk.buffer, chunk.byteOffset, count * 4));
    } catch (error) {
      throw diskError(error, this.spill!.folder, 'free some space, or give --scratch a folder with more, and solve again');
    }
  }

  /** The rows, in memory or in their file. */
  finish(start: Uint32Array): MoveRows {
    const total = this.full.length * this.chunkItems + this.used;
    if (this.fd < 0 && !(this.spill && total > this.spill.memoryItems)) {
      const items = new Uint32Array(total);
      this.full.forEach((chunk, i) => items.set(chunk, i * this.chunkItems));
      items.set(this.chunk.subarray(0, this.used), this.full.length * this.chunkItems);
      return MoveRows.inMemory(start, items);
    }
    for (const chunk of this.full.splice(0)) this.write(chunk, this.chunkItems);
    this.write(this.chunk, this.used);
    return new MoveRows(start, undefined, this.fd, this.leftover, Math.max(1, this.spill!.blockItems));
  }
}
