/**
 * AssemblyScript: each residue summed over a block of records (lib/residues/residue-totals.ts).
 * Records of k u32 residues lie one after another, so four records are k whole vectors of four
 * words: vector v of every group of four records goes to the same two u64x2 lanes, and word 4v + j
 * of a group is residue (4v + j) mod k. Compiled with `--enable simd`.
 */

/** Words a group of four records spans, at most: k ≤ 64 residues. */
const MOST_LANES = 4 * 64;
/** The 4k u64 lanes, one per word of a group of four records. */
const lanes = memory.data(8 * MOST_LANES, 16);

/** Zeros the lanes of records of k residues. */
export function begin(k: i32): void {
  memory.fill(lanes, 0, (<usize>k) << 5);
}

/**
 * Adds n records of k residues at `at` to the lanes: whole groups of four as vectors, then the
 * last n mod 4 records a word at a time, each word to a lane of its residue.
 */
export function add(at: usize, n: i32, k: i32): void {
  const groupBytes = (<usize>k) << 4;
  const end = at + <usize>(n >> 2) * groupBytes;
  for (let p = at; p < end; p += groupBytes) {
    for (let v: usize = 0; v < <usize>k; v++) {
      const words = v128.load(p + (v << 4));
      const lane = lanes + (v << 5);
      v128.store(lane, i64x2.add(v128.load(lane), i64x2.extend_low_i32x4_u(words)));
      v128.store(lane + 16, i64x2.add(v128.load(lane + 16), i64x2.extend_high_i32x4_u(words)));
    }
  }
  const words = <usize>(n & 3) * <usize>k;
  for (let w: usize = 0; w < words; w++) {
    const lane = lanes + (w << 3);
    store<u64>(lane, load<u64>(lane) + <u64>load<u32>(end + (w << 2)));
  }
}

/** Where the lanes are: 4k u64 words, lane w holding residue w mod k. */
export function lanesAt(): usize {
  return lanes;
}

export function heapBase(): usize {
  return __heap_base;
}
