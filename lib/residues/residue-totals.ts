/**
 * Each residue summed over a block of records, reduced by its modulus: the check a partitioned task
 * records of the states it holds in memory (lib/cluster/task.ts). The records are copied into the
 * module's memory a piece at a time and summed there four records at a time in WebAssembly SIMD
 * (residue-totals.as.ts): a plain loop over the words cost 8–20 ns a record of six residues.
 */

import { instantiate, PAGE_BYTES, type WasmMemory } from '../shared/wasm-module.js';

interface TotalsExports {
  readonly memory: WasmMemory;
  heapBase(): number;
  begin(k: number): void;
  add(at: number, n: number, k: number): void;
  lanesAt(): number;
}

/** The most residues the lanes hold (residue-totals.as.ts). */
const MOST_RESIDUES = 64;
/** Bytes of the pieces the records are copied in. */
const PIECE_BYTES = 1 << 18;
let module: { exports: TotalsExports; at: number } | undefined;

function totalsModule(): { exports: TotalsExports; at: number } {
  if (module) return module;
  const exports = instantiate<TotalsExports>(new URL('./residue-totals.wasm', import.meta.url), 'the residue totals');
  const at = Math.ceil(exports.heapBase() / 16) * 16;
  const pages = Math.ceil((at + PIECE_BYTES) / PAGE_BYTES) - exports.memory.buffer.byteLength / PAGE_BYTES;
  if (pages > 0) exports.memory.grow(pages);
  return (module = { exports, at });
}

/**
 * Σ residues[i·k + r] over the records i < n, mod moduli[r], for each r < k.
 */
export function residueTotals(residues: Uint32Array, n: number, moduli: readonly number[]): number[] {
  const k = moduli.length;
  if (k > MOST_RESIDUES) throw new RangeError(`residue totals of ${k} residues: at most ${MOST_RESIDUES}`);
  if (k === 0) return [];
  const { exports, at } = totalsModule();
  exports.begin(k);
  // Pieces of whole groups of four records, which the vector loop takes all of.
  const records = Math.max(4, Math.floor(PIECE_BYTES / (16 * k)) * 4);
  for (let from = 0; from < n; from += records) {
    const m = Math.min(records, n - from);
    new Uint32Array(exports.memory.buffer, at, m * k).set(residues.subarray(from * k, (from + m) * k));
    exports.add(at, m, k);
  }
  const lanes = new BigUint64Array(exports.memory.buffer, exports.lanesAt(), 4 * k);
  const totals = moduli.map(() => 0n);
  lanes.forEach((sum, w) => (totals[w % k] += sum));
  return totals.map((total, r) => Number(total % BigInt(moduli[r])));
}
