/**
 * Which owner holds each key bucket for a window (lib/border/window-key.ts): the buckets packed
 * onto the owners by their weight, the records sampled at the step before the window's first.
 * Hashing the buckets onto owners would leave the heavy ones where they fall; packing them
 * heaviest first onto the lightest owner so far (longest processing time first, Graham 1969)
 * evens the shares out.
 */

import { BUCKETS } from '../border/window-key.js';

/** An owner per bucket (u16). */
export type BucketOwners = Uint16Array;

/** The buckets dealt out in turn: for a window whose weights were not sampled (a count resumed at its first step). */
export function dealtOwners(owners: number): BucketOwners {
  const table = new Uint16Array(BUCKETS);
  for (let b = 0; b < BUCKETS; b++) table[b] = b % owners;
  return table;
}

/** Buckets packed by weight, heaviest first, each onto the owner with the least so far (the lowest such owner on ties). */
export function packedOwners(weights: ArrayLike<number>, owners: number): BucketOwners {
  const table = new Uint16Array(BUCKETS);
  if (owners === 1) return table;
  const order = Array.from({ length: BUCKETS }, (_, b) => b);
  order.sort((a, b) => weights[b] - weights[a] || a - b);
  // A binary heap of owners by load, then number.
  const load = new Float64Array(owners);
  const heap = Array.from({ length: owners }, (_, d) => d);
  const less = (a: number, b: number) => load[a] < load[b] || (load[a] === load[b] && a < b);
  for (const b of order) {
    const d = heap[0];
    table[b] = d;
    load[d] += weights[b] + 1e-9; // an empty bucket still takes a turn, so empty ones spread too
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < owners && less(heap[l], heap[m])) m = l;
      if (r < owners && less(heap[r], heap[m])) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
  return table;
}

/** The buckets' weights summed over every worker's histogram. */
export function joinedWeights(histograms: readonly ArrayLike<number>[]): Float64Array {
  const sum = new Float64Array(BUCKETS);
  for (const h of histograms) for (let b = 0; b < BUCKETS; b++) sum[b] += h[b];
  return sum;
}

/**
 * The weights of the next window's keys from a step's parts and ends (a group step's come with
 * its part, the state table's with its end, once it drained): undefined when the step weighed none.
 */
export function stepWeights(parts: readonly { readonly histogram?: ArrayLike<number> }[]): Float64Array | undefined {
  const histograms = parts.flatMap((part) => (part.histogram ? [part.histogram] : []));
  return histograms.length > 0 ? joinedWeights(histograms) : undefined;
}

/** An owner table as the manifest of a partitioned count's step records it: its u16 words in base64. */
export function ownersText(table: BucketOwners): string {
  return Buffer.from(table.buffer, table.byteOffset, table.byteLength).toString('base64');
}

/** The owner table a manifest records, or undefined when it is not one of `owners` owners. */
export function ownersFromText(text: string, owners: number): BucketOwners | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 2 * BUCKETS) return undefined;
  const table = new Uint16Array(BUCKETS);
  for (let b = 0; b < BUCKETS; b++) table[b] = bytes.readUInt16LE(2 * b);
  return table.every((owner) => owner < owners) ? table : undefined;
}

/** A histogram of sampled key weights as a partition task's done-marker records it: its u32 words in base64. */
export function weightsText(histogram: Uint32Array): string {
  return Buffer.from(histogram.buffer, histogram.byteOffset, histogram.byteLength).toString('base64');
}

/** The histogram a done-marker records, or undefined when it is not one. */
export function weightsFromText(text: string): Uint32Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 4 * BUCKETS) return undefined;
  return Uint32Array.from({ length: BUCKETS }, (_, b) => bytes.readUInt32LE(4 * b));
}
