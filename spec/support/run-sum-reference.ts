import { runSumValue } from '../../lib/format/run-sum.js';

/** The run sum word by word in BigInt, as docs/formats.md defines it: the kernel's oracle. */
export function referenceSum(bytes: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(bytes.length / 16) * 16);
  padded.set(bytes);
  const words = new DataView(padded.buffer);
  const lanes = new BigUint64Array(8); // A0 … A3, B0 … B3
  for (let w = 0; w < padded.length / 4; w++) {
    const j = w % 4;
    lanes[j] += BigInt(words.getUint32(4 * w, true)); // BigUint64Array wraps modulo 2^64
    lanes[4 + j] += lanes[j];
  }
  return runSumValue(lanes, bytes.length);
}
