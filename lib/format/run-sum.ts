/**
 * The checksums that close a file: the CRC-32 (node:zlib) and the run sum of run files from version 3.
 *
 * The run sum: the bytes, padded with zeros to a multiple of 16, are little-endian u32 words
 * w_0 … w_{N−1}; lane j (0–3) takes the words w_{4i+j} and keeps Fletcher's two sums modulo 2^64,
 * A_j = Σ w and B_j = the sum of A_j after each word. The value is the low 32 bits of h, where
 * h = the byte count, then h = fmix64(h xor v) for v = A_0 … A_3, B_0 … B_3 in turn (fmix64 is
 * MurmurHash3's finalizer). Damage goes unseen about once in 2^32, as with a CRC-32, which unlike
 * the sum also catches every burst of up to 32 bits for sure. The lanes run in WebAssembly SIMD
 * (run-sum.as.ts), about four times as fast as node:zlib's crc32 on this project's machine
 * (docs/performance.md), and read the bytes in place where those are in a module's memory that
 * has lent its loop (`sumInPlace`: the run merge's buffers) or was made for it (`summedBuffer`: the
 * run writer's buffer); other bytes are copied into a staging area first.
 */

import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { instantiate, PAGE_BYTES, type WasmMemory } from '../shared/wasm-module.js';
import { crcText } from './crc-text.js';

/** A checksum fed a file's bytes in order. */
export interface FileChecksum {
  readonly name: string;
  update(bytes: Uint8Array): void;
  /** The value of every byte so far (it may be fed more after). */
  value(): number;
}

/**
 * What is wrong when a file states a checksum its bytes do not give, or undefined. `says` and
 * `gives` word where it is stated and what gives the value: a run file's trailer and its content by
 * default, a split run's footer or index entry (split-layout.ts).
 */
export function checksumProblem(
  checksum: FileChecksum,
  stated: number,
  says = 'trailer says',
  gives = 'content gives',
): string | undefined {
  const value = checksum.value();
  return stated === value ? undefined : `${checksum.name} mismatch: ${says} ${crcText(stated)}, ${gives} ${crcText(value)}`;
}

/**
 * Feeds `checksum` the bytes [0, end) of the file open at `fd`, read through `buffer`; false when the
 * file ends before `end`.
 */
export function checksumFileBytes(fd: number, end: number, buffer: Uint8Array, checksum: FileChecksum): boolean {
  for (let at = 0; at < end;) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at);
    if (n === 0) return false;
    checksum.update(buffer.subarray(0, n));
    at += n;
  }
  return true;
}

export class Crc32 implements FileChecksum {
  readonly name = 'CRC-32';
  private crc = 0;

  update(bytes: Uint8Array): void {
    this.crc = crc32(bytes, this.crc);
  }

  value(): number {
    return this.crc;
  }
}

interface SumExports {
  readonly memory: WasmMemory;
  heapBase(): number;
  sumBlocks(lanes: number, at: number, n: number): void;
}

/** A module's loop and the 64 bytes of its memory where the lanes go during a call. */
interface SumKernel {
  readonly exports: Pick<SumExports, 'sumBlocks'>;
  readonly memory: WasmMemory;
  readonly lanesAt: number;
}

const LANE_BYTES = 64;
const STAGING_BYTES = 1 << 16;
/** Modules whose memory the run sum reads in place, by the memory's current buffer. */
const inPlace = new WeakMap<ArrayBuffer, SumKernel>();
let staging: { kernel: SumKernel; at: number } | undefined;

const runSumModule = (): URL => new URL('./run-sum.wasm', import.meta.url);

/** A module of `bytes` free bytes for a caller, with the lanes' 64 bytes before them. */
function sumModule(bytes: number): { kernel: SumKernel; at: number } {
  const exports = instantiate<SumExports>(runSumModule(), 'the run sum');
  const lanesAt = Math.ceil(exports.heapBase() / 16) * 16;
  const at = lanesAt + LANE_BYTES;
  const pages = Math.ceil((at + bytes) / PAGE_BYTES) - exports.memory.buffer.byteLength / PAGE_BYTES;
  if (pages > 0) exports.memory.grow(pages);
  const kernel = { exports, memory: exports.memory, lanesAt };
  inPlace.set(exports.memory.buffer, kernel);
  return { kernel, at };
}

/**
 * The run sum reads in place any bytes in `memory`, by this module's `sumBlocks` (run-sum.as.ts
 * compiled in), with the 64 bytes at `lanesAt` to spare. Valid until the memory grows.
 */
export function sumInPlace(memory: WasmMemory, exports: Pick<SumExports, 'sumBlocks'>, lanesAt: number): void {
  inPlace.set(memory.buffer, { exports, memory, lanesAt });
}

/** A buffer of `bytes` bytes whose contents the run sum reads in place: lend it to writers of run files. */
export function summedBuffer(bytes: number): Buffer {
  const { kernel, at } = sumModule(bytes);
  return Buffer.from(kernel.memory.buffer, at, bytes);
}

const MASK64 = (1n << 64n) - 1n;

function fmix64(x: bigint): bigint {
  x ^= x >> 33n;
  x = (x * 0xff51afd7ed558ccdn) & MASK64;
  x ^= x >> 33n;
  x = (x * 0xc4ceb9fe1a85ec53n) & MASK64;
  return x ^ (x >> 33n);
}

/** The run sum's value from its lanes (A_0 … A_3, B_0 … B_3) and byte count. */
export function runSumValue(lanes: BigUint64Array, bytes: number): number {
  let h = BigInt(bytes);
  for (const v of lanes) h = fmix64(h ^ v);
  return Number(h & 0xffffffffn);
}

export class RunSum implements FileChecksum {
  readonly name = 'run sum';
  private readonly lanes = new BigUint64Array(8);
  private readonly laneBytes = new Uint8Array(this.lanes.buffer);
  /** The bytes after the last whole 16 (fewer than 16). */
  private readonly tail = new Uint8Array(16);
  private tailBytes = 0;
  private bytes = 0;

  update(bytes: Uint8Array): void {
    this.bytes += bytes.length;
    let from = 0;
    if (this.tailBytes > 0) {
      from = Math.min(16 - this.tailBytes, bytes.length);
      this.tail.set(bytes.subarray(0, from), this.tailBytes);
      this.tailBytes += from;
      if (this.tailBytes < 16) return;
      this.addBlocks(this.tail);
      this.tailBytes = 0;
    }
    const whole = from + Math.floor((bytes.length - from) / 16) * 16;
    if (whole > from) this.addBlocks(bytes.subarray(from, whole));
    this.tail.set(bytes.subarray(whole));
    this.tailBytes = bytes.length - whole;
  }

  value(): number {
    if (this.tailBytes === 0) return runSumValue(this.lanes, this.bytes);
    const saved = this.lanes.slice();
    this.tail.fill(0, this.tailBytes);
    this.addBlocks(this.tail);
    const value = runSumValue(this.lanes, this.bytes);
    this.lanes.set(saved);
    return value;
  }

  /** Adds whole 16-byte blocks: in place when a module holds them, else through the staging area. */
  private addBlocks(blocks: Uint8Array): void {
    const kernel = inPlace.get(blocks.buffer as ArrayBuffer);
    if (kernel) {
      this.run(kernel, blocks.byteOffset, blocks.length);
      return;
    }
    staging ??= sumModule(STAGING_BYTES);
    const { kernel: stage, at } = staging;
    for (let from = 0; from < blocks.length; from += STAGING_BYTES) {
      const part = blocks.subarray(from, Math.min(blocks.length, from + STAGING_BYTES));
      new Uint8Array(stage.memory.buffer, at, part.length).set(part);
      this.run(stage, at, part.length);
    }
  }

  private run(kernel: SumKernel, at: number, n: number): void {
    const lanes = new Uint8Array(kernel.memory.buffer, kernel.lanesAt, LANE_BYTES);
    lanes.set(this.laneBytes);
    kernel.exports.sumBlocks(kernel.lanesAt, at, n);
    this.laneBytes.set(lanes);
  }
}
