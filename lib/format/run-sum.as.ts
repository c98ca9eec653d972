/**
 * AssemblyScript: the run sum's inner loop (lib/format/run-sum.ts), compiled into its own module and,
 * re-exported, into the run merge's, so that the sum reads the merge's buffers where they are.
 * Four lanes take the file's little-endian u32 words in turn; each keeps Fletcher's two sums modulo
 * 2^64: A, the sum of its words, and B, the sum of A after each word.
 */

/** Adds `n` bytes at `at` (n a multiple of 16) to the lanes at `lanes`: A0 A1 A2 A3 B0 B1 B2 B3, u64 each. */
export function sumBlocks(lanes: usize, at: usize, n: usize): void {
  let a01 = v128.load(lanes);
  let a23 = v128.load(lanes + 16);
  let b01 = v128.load(lanes + 32);
  let b23 = v128.load(lanes + 48);
  const end = at + n;
  for (let p = at; p < end; p += 16) {
    const words = v128.load(p);
    a01 = i64x2.add(a01, i64x2.extend_low_i32x4_u(words));
    a23 = i64x2.add(a23, i64x2.extend_high_i32x4_u(words));
    b01 = i64x2.add(b01, a01);
    b23 = i64x2.add(b23, a23);
  }
  v128.store(lanes, a01);
  v128.store(lanes + 16, a23);
  v128.store(lanes + 32, b01);
  v128.store(lanes + 48, b23);
}

export function heapBase(): usize {
  return __heap_base;
}
