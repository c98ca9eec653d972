/**
 * Unsigned LEB128 varints (7 bits a byte, high bit = more follow) for values below 2^32, the same
 * bytes the `varint` package reads. This is the engine's own codec because it runs once per record:
 * it writes into and reads from a caller's buffer at an offset, with no allocation.
 */

/** Writes v (0 ≤ v < 2^32) at buf[pos..]; returns the position after it. */
export function writeVarint(buf: Uint8Array, pos: number, v: number): number {
  while (v >= 0x80) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[pos++] = v;
  return pos;
}

/** The most bytes a varint below 2^32 takes. */
export const MAX_VARINT_BYTES = 5;

/**
 * Reads a varint at buf[cursor.pos..], advancing cursor.pos. Returns -1 when it runs past `end` or
 * past 5 bytes: a damaged file, for the caller to report.
 */
export function readVarint(buf: Uint8Array, cursor: { pos: number }, end: number): number {
  let pos = cursor.pos;
  let value = 0;
  let scale = 1;
  for (let n = 0; n < MAX_VARINT_BYTES && pos < end; n++) {
    const byte = buf[pos++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      cursor.pos = pos;
      return value < 2 ** 32 ? value : -1;
    }
    scale *= 128;
  }
  return -1;
}
