/**
 * AssemblyScript: which worker owns a state, exactly as ownerOf in lib/border/ownership.ts, for the
 * kernels that compute it (expander-kernel.as.ts in its fan-out, lib/engine/owner-split.as.ts when a partitioned worker's
 * run is split by owner). `shift` is ownerShift(width) of that file.
 */

/** A multiplicative hash of the state without its `shift` low bits, scaled to [0, owners) by its high bits. */
export function ownerOf(hi: u32, lo: u32, owners: i32, shift: u32): i32 {
  const h = ((lo >> shift) ^ (hi * 0x85ebca6b)) * 0x27d4eb2f;
  return <i32>((<u64>h * <u64>owners) >> 32);
}
