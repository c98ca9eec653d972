/**
 * Hands a batch of successors to the shards of a state table (state-table.ts) that spans several
 * WebAssembly memories: lib/engine/table-router.as.ts groups the batch by shard in one pass, and each
 * shard then takes its group in one copy.
 */

import { align8 as align, instantiate, type WasmMemory } from '../shared/wasm-module.js';

interface RouterExports {
  memory: WasmMemory;
  heapBase(): number;
  init(shardOf: number, starts: number, shards: number, prefixShift: number, scratch: number): void;
  stage(n: number, residues: number): number;
  route(n: number): void;
  routedAt(): number;
}

export class TableRouter {
  private readonly kernel: RouterExports;
  private readonly shards: number;
  private readonly prefixes: number;
  private words = new Uint32Array(0);
  // Word offsets: the shard of each prefix (u16, in halfwords), the group starts, the routed batch.
  private readonly shardOfAt: number;
  private readonly startsAt: number;
  private routedAt = 0;
  private routed = 0;
  private k = 0;

  constructor(shards: number, prefixShift: number, prefixes: number) {
    this.shards = shards;
    this.prefixes = prefixes;
    this.kernel = instantiate<RouterExports>(new URL('./table-router.wasm', import.meta.url), 'the state table router');
    const shardOfAt = align(this.kernel.heapBase());
    const startsAt = align(shardOfAt + 2 * prefixes);
    this.kernel.init(shardOfAt, startsAt, shards, prefixShift, align(startsAt + 4 * (shards + 1)));
    this.shardOfAt = shardOfAt / 2;
    this.startsAt = startsAt / 4;
  }

  /** The shard of each prefix, to be written when the buckets are planned. */
  get shardOf(): Uint16Array {
    return new Uint16Array(this.renew().buffer, 2 * this.shardOfAt, this.prefixes);
  }

  /** Groups n records (states as (hi, lo) words, k residues a record) by shard. */
  route(states: Uint32Array, residues: Uint32Array, n: number, k: number): void {
    const { kernel } = this;
    const staged = (kernel.stage(n, k) >>> 0) / 4;
    const words = this.renew();
    words.set(states, staged);
    words.set(residues, staged + 2 * n);
    kernel.route(n);
    this.routedAt = (kernel.routedAt() >>> 0) / 4;
    this.routed = n;
    this.k = k;
  }

  /** Where shard j's group of the last routed batch begins; start(shards) is its size. */
  start(j: number): number {
    return this.words[this.startsAt + j];
  }

  /** Records [from, to) of the last routed batch: views of its states and residues, no copy. */
  states(from: number, to: number): Uint32Array {
    return this.words.subarray(this.routedAt + 2 * from, this.routedAt + 2 * to);
  }

  residues(from: number, to: number): Uint32Array {
    const at = this.routedAt + 2 * this.routed;
    return this.words.subarray(at + this.k * from, at + this.k * to);
  }

  get shardCount(): number {
    return this.shards;
  }

  private renew(): Uint32Array {
    const { buffer } = this.kernel.memory;
    if (this.words.buffer !== buffer) this.words = new Uint32Array(buffer);
    return this.words;
  }
}
