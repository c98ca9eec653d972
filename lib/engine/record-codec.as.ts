/**
 * AssemblyScript: a run record's key, the one encoder and decoder of the WebAssembly modules. The
 * state table (table-shard.as.ts) and the owner split (owner-split.as.ts) encode with putKey, the merge
 * (run-merge.as.ts) decodes with readVarint. The bytes are in docs/formats.md; lib/format/varint.ts
 * and the run writer and reader are the TypeScript pair, and `verify` keeps a decoder of its own.
 *
 * A key continues from the previous record's state (prevHi, prevLo): a new high word (or the
 * stream's first record) gives varint(lo · 2 + 1) and varint(hi − prevHi), a repeated one
 * varint((lo − prevLo) · 2). Its residues follow as k little-endian words.
 */

/** The most bytes a varint of the format takes: every one fits 32 bits. */
export const MAX_VARINT_BYTES: i32 = 5;
const MAX_U32: u64 = 0xffffffff;
/** What readVarint gives for bytes that are no varint of the format. */
export const BROKEN_VARINT: u64 = MAX_U32 + 1;

/** Writes the key of (hi, lo) after (prevHi, prevLo) at pos, or as a stream's first when `first`; returns the position after it. */
export function putKey(pos: usize, hi: u32, lo: u32, prevHi: u32, prevLo: u32, first: bool): usize {
  if (first || hi != prevHi) return putVarint(putVarint(pos, (lo << 1) | 1), hi - prevHi);
  return putVarint(pos, (lo - prevLo) << 1);
}

/** Writes v as an unsigned LEB128 varint at pos; returns the position after it. */
export function putVarint(pos: usize, v: u32): usize {
  while (v >= 0x80) {
    store<u8>(pos++, <u8>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  store<u8>(pos++, <u8>v);
  return pos;
}

/** Where the last readVarint stopped: the byte after its varint. */
export let varintEnd: u32 = 0;

/**
 * The varint at buf + p, which must end before `limit` within MAX_VARINT_BYTES bytes; a broken one
 * reads as BROKEN_VARINT, above 2^32 − 1 as any value too large for the format.
 */
export function readVarint(buf: usize, p: u32, limit: u32): u64 {
  let value: u64 = 0;
  let shift: u64 = 0;
  for (let n = 0; ; n++) {
    if (p >= limit || n == MAX_VARINT_BYTES) return BROKEN_VARINT;
    const byte = <u64>load<u8>(buf + p++);
    value |= (byte & 0x7f) << shift;
    shift += 7;
    if (byte < 0x80) break;
  }
  varintEnd = p;
  return value;
}
