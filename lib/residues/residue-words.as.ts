/**
 * AssemblyScript: a record's residues added and copied, for the kernels that combine equal states
 * (the expansion's fan-out, the state table, the run merge and the group step) and those that
 * encode run files (the state table's and the owner split's). Four residues at a time in
 * WebAssembly SIMD, and without a branch: a residue is uniformly spread below its modulus,
 * so `if (sum >= m)` is taken half the time at random, and its mispredictions cost more than the
 * arithmetic (docs/performance.md). Modules that import this are compiled with `--enable simd`.
 */

/**
 * to[r] = (to[r] + from[r]) mod moduli[r] for r < k, u32 words. Each residue is below its modulus,
 * itself below 2^32: a + b ≥ p exactly when a ≥ p − b, and the wrapped sum less p is then a + b − p.
 */
export function addResidues(to: usize, from: usize, moduli: usize, k: i32): void {
  let r = 0;
  for (; r + 4 <= k; r += 4) {
    const at = (<usize>r) << 2;
    inline.always(addVector(to + at, from + at, moduli + at));
  }
  for (; r < k; r++) {
    const at = (<usize>r) << 2;
    const p = <u64>load<u32>(moduli + at);
    const sum = <u64>load<u32>(to + at) + <u64>load<u32>(from + at);
    store<u32>(to + at, <u32>select<u64>(sum - p, sum, sum >= p));
  }
}

/**
 * Copies k words from `from` to `to`, then zeros to `vectors` whole vectors of four (vectors = ⌈k/4⌉):
 * the operand of copyResidueVectors and addResidueVectors. Reads `from` in whole vectors too.
 */
export function padResidues(to: usize, from: usize, k: i32, vectors: i32): void {
  copyResidueVectors(to, from, vectors);
  for (let r = k; r < vectors << 2; r++) store<u32>(to + ((<usize>r) << 2), 0);
}

/** Copies `vectors` vectors of four words: padResidues' words into a record, and past its k residues, words not yet used. */
export function copyResidueVectors(to: usize, from: usize, vectors: i32): void {
  for (let v = 0; v < vectors; v++) v128.store(to + ((<usize>v) << 4), v128.load(from + ((<usize>v) << 4)));
}

/**
 * addResidues over whole vectors of four, with no scalar tail: past the k residues `from` holds 0
 * (padResidues) and `moduli` 0, so a + 0 − 0 leaves those words, another record's, as they were.
 */
export function addResidueVectors(to: usize, from: usize, moduli: usize, vectors: i32): void {
  for (let v = 0; v < vectors; v++) {
    const at = (<usize>v) << 4;
    inline.always(addVector(to + at, from + at, moduli + at));
  }
}

/** Four residues at once, as addResidues says: a + b ≥ p exactly when a ≥ p − b. */
function addVector(to: usize, from: usize, moduli: usize): void {
  const a = v128.load(to);
  const b = v128.load(from);
  const p = v128.load(moduli);
  const over = i32x4.ge_u(a, i32x4.sub(p, b));
  v128.store(to, i32x4.sub(i32x4.add(a, b), v128.and(over, p)));
}

/** Copies k u32 words from `from` to `to` (the two apart by at least k words, or equal). */
export function copyResidues(to: usize, from: usize, k: i32): void {
  let r = 0;
  for (; r + 4 <= k; r += 4) v128.store(to + ((<usize>r) << 2), v128.load(from + ((<usize>r) << 2)));
  if (r + 2 <= k) {
    store<u64>(to + ((<usize>r) << 2), load<u64>(from + ((<usize>r) << 2)));
    r += 2;
  }
  if (r < k) store<u32>(to + ((<usize>r) << 2), load<u32>(from + ((<usize>r) << 2)));
}

/**
 * Copies k u32 words from `from` to `to`, as copyResidues, and adds each to its u64 at `sums`
 * (sums[r] += from[r], unreduced): a run's residue sums for its trailer, four words at a time.
 */
export function copyResiduesAndSum(to: usize, from: usize, sums: usize, k: i32): void {
  let r = 0;
  for (; r + 4 <= k; r += 4) {
    const v = v128.load(from + ((<usize>r) << 2));
    v128.store(to + ((<usize>r) << 2), v);
    const s = sums + ((<usize>r) << 3);
    v128.store(s, i64x2.add(v128.load(s), i64x2.extend_low_i32x4_u(v)));
    v128.store(s + 16, i64x2.add(v128.load(s + 16), i64x2.extend_high_i32x4_u(v)));
  }
  for (; r < k; r++) {
    const v = load<u32>(from + ((<usize>r) << 2));
    store<u32>(to + ((<usize>r) << 2), v);
    const s = sums + ((<usize>r) << 3);
    store<u64>(s, load<u64>(s) + <u64>v);
  }
}

/**
 * sums[r] += times · from[r] for r < k, u64 words left unreduced, four residues at a time: what
 * parents send to their dropped successors (times ≤ 3), where reducing them a parent at a time would
 * cost every parent. Each addition is below 3 · 2^32, so 2^30 of them cannot overflow; the caller
 * reduces the sums (reduceInto) before that.
 */
export function sumTimes(sums: usize, from: usize, times: u64, k: i32): void {
  const t = i64x2.splat(times);
  let r = 0;
  for (; r + 4 <= k; r += 4) {
    const v = v128.load(from + ((<usize>r) << 2));
    const s = sums + ((<usize>r) << 3);
    v128.store(s, i64x2.add(v128.load(s), i64x2.mul(i64x2.extend_low_i32x4_u(v), t)));
    v128.store(s + 16, i64x2.add(v128.load(s + 16), i64x2.mul(i64x2.extend_high_i32x4_u(v), t)));
  }
  for (; r < k; r++) {
    const s = sums + ((<usize>r) << 3);
    store<u64>(s, load<u64>(s) + times * <u64>load<u32>(from + ((<usize>r) << 2)));
  }
}

/** to[r] = (to[r] + sums[r]) mod moduli[r] for r < k (u32 words at `to`), and the sums zeroed. */
export function reduceInto(to: usize, sums: usize, moduli: usize, k: i32): void {
  for (let r = 0; r < k; r++) {
    const at = (<usize>r) << 2;
    const s = sums + ((<usize>r) << 3);
    const p = <u64>load<u32>(moduli + at);
    const sum = <u64>load<u32>(to + at) + (load<u64>(s) % p);
    store<u32>(to + at, <u32>select<u64>(sum - p, sum, sum >= p));
    store<u64>(s, 0);
  }
}

/**
 * w · t mod p for t < 2^32 and w < p < 2^32, with shoup = floor(w · 2^32 / p) (Shoup's
 * multiplication by a constant): the quotient's estimate is at most one short, so the remainder is
 * below 2p before one subtraction, and nothing divides, as a 64-bit remainder does
 * (docs/performance.md, "Steps that add a modulus").
 */
function mulModShoup(t: u64, w: u64, shoup: u64, p: u64): u64 {
  const r = t * w - ((t * shoup) >> 32) * p;
  return select<u64>(r - p, r, r >= p);
}

/** v mod p for v < 2^32: no division when p > v / 2, as with moduli near 2^32. */
function reduced32(v: u64, p: u64): u64 {
  if (v < p) return v;
  const r = v - p;
  return r < p ? r : r % p;
}

/**
 * Extends one state's residues from the first `from` moduli to the first `to`: its `from` words at
 * `src` become its `to` words at `dst` (dst may be src; it is read whole before dst is written).
 * Mirrors ResidueExtender.extend in lib/residues/growth.ts: Garner's mixed-radix digits, with
 * inverse[i·from + j] = moduli[i]^-1 mod moduli[j], then each new residue from them, with
 * reduced[i·to + j] = moduli[i] mod moduli[j]; each table's words are followed by their Shoup
 * quotients (ResidueExtender.tables), by which mulModShoup multiplies. `scratch` holds 2·from
 * words of u64.
 */
export function extendResidue(
  src: usize,
  dst: usize,
  from: i32,
  to: i32,
  moduli: usize,
  inverse: usize,
  reduced: usize,
  scratch: usize,
): void {
  const digits = scratch;
  const saved = scratch + ((<usize>from) << 3);
  const inverseShoup = inverse + ((<usize>(from * from)) << 2);
  const reducedShoup = reduced + ((<usize>(from * to)) << 2);
  for (let j = 0; j < from; j++) {
    const p = <u64>load<u32>(moduli + ((<usize>j) << 2));
    const v = <u64>load<u32>(src + ((<usize>j) << 2));
    store<u64>(saved + ((<usize>j) << 3), v);
    let t = v;
    for (let q = 0; q < j; q++) {
      const d = reduced32(load<u64>(digits + ((<usize>q) << 3)), p);
      t = select<u64>(t - d, t + p - d, t >= d);
      const at = (<usize>(q * from + j)) << 2;
      t = mulModShoup(t, <u64>load<u32>(inverse + at), <u64>load<u32>(inverseShoup + at), p);
    }
    store<u64>(digits + ((<usize>j) << 3), t);
  }
  for (let j = 0; j < from; j++) store<u32>(dst + ((<usize>j) << 2), <u32>load<u64>(saved + ((<usize>j) << 3)));
  for (let j = from; j < to; j++) {
    const q = <u64>load<u32>(moduli + ((<usize>j) << 2));
    let value = reduced32(load<u64>(digits + ((<usize>(from - 1)) << 3)), q);
    for (let m = from - 2; m >= 0; m--) {
      const at = (<usize>(m * to + j)) << 2;
      const sum =
        mulModShoup(value, <u64>load<u32>(reduced + at), <u64>load<u32>(reducedShoup + at), q) +
        reduced32(load<u64>(digits + ((<usize>m) << 3)), q);
      value = select<u64>(sum - q, sum, sum >= q);
    }
    store<u32>(dst + ((<usize>j) << 2), <u32>value);
  }
}
