/**
 * Writes one sorted run file: header, records, trailer with CRC-32. The file is written under a
 * temporary name and renamed only when it is complete and synced, so a run file that exists is whole.
 */

import { openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { writeVarint } from './varint.js';
import { commitTempFile, discardTempFile, writeAll } from './atomic.js';
import { encodeHeader, encodeTrailerBody, maxRecordBytes, RunHeader } from './layout.js';
import { tempPath } from './count-folder.js';
import { addModulo } from '../residues/sums.js';

export interface RunSummary {
  /** Its path within its step folder. */
  readonly file: string;
  readonly records: number;
  readonly sums: number[];
  readonly bytes: number;
  readonly crc: number;
  /** The worker whose states the run holds. */
  readonly worker?: number;
  /** In a partitioned count: the worker that wrote it. */
  readonly source?: number;
}

export class RunWriter {
  readonly path: string;
  private readonly tempPath: string;
  private readonly chunk: Buffer;
  private readonly moduli: Float64Array;
  private readonly sums: Float64Array;
  private readonly flushAt: number;
  private fd: number;
  private used = 0;
  private crc = 0;
  private bytes = 0;
  private records = 0;
  private prevHi = 0;
  private prevLo = 0;

  /** `chunk` is scratch the caller lends for buffering: at least 16 KiB. */
  constructor(path: string, header: RunHeader, chunk: Buffer) {
    this.path = path;
    this.tempPath = tempPath(path);
    this.chunk = chunk;
    this.moduli = Float64Array.from(header.moduli);
    this.sums = new Float64Array(header.moduli.length);
    this.flushAt = chunk.length - maxRecordBytes(header.moduli.length);
    this.fd = openSync(this.tempPath, 'w');
    this.put(encodeHeader(header));
  }

  /** Appends a record; states must come in strictly increasing order. */
  append(hi: number, lo: number, residues: Uint32Array, at: number): void {
    const { chunk, moduli, sums } = this;
    let pos = this.used;
    if (this.records === 0 || hi !== this.prevHi) {
      pos = writeVarint(chunk, pos, lo * 2 + 1);
      pos = writeVarint(chunk, pos, hi - this.prevHi);
    } else {
      pos = writeVarint(chunk, pos, (lo - this.prevLo) * 2);
    }
    for (let r = 0; r < moduli.length; r++) {
      const v = residues[at + r];
      chunk[pos] = v;
      chunk[pos + 1] = v >>> 8;
      chunk[pos + 2] = v >>> 16;
      chunk[pos + 3] = v >>> 24;
      pos += 4;
      sums[r] = addModulo(sums[r], v, moduli[r]);
    }
    this.used = pos;
    this.prevHi = hi;
    this.prevLo = lo;
    this.records++;
    if (pos >= this.flushAt) this.drain();
  }

  /** The state the next record's delta is taken from, and whether it is the run's first. */
  continuation(): { hi: number; lo: number; first: boolean } {
    return { hi: this.prevHi, lo: this.prevLo, first: this.records === 0 };
  }

  /**
   * Appends `records` records already encoded as append() encodes them, continuing from
   * continuation(): the bytes, the last state, and each residue's sum over them (reduced).
   */
  appendEncoded(bytes: Uint8Array, records: number, lastHi: number, lastLo: number, blockSums: Uint32Array): void {
    const { chunk, moduli, sums } = this;
    for (let r = 0; r < moduli.length; r++) sums[r] = addModulo(sums[r], blockSums[r], moduli[r]);
    for (let from = 0; from < bytes.length;) {
      if (this.used === chunk.length) this.drain();
      const n = Math.min(chunk.length - this.used, bytes.length - from);
      chunk.set(bytes.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
    }
    this.prevHi = lastHi;
    this.prevLo = lastLo;
    this.records += records;
    if (this.used >= this.flushAt) this.drain();
  }

  /** Writes the trailer, syncs, closes and renames into place. */
  finish(): RunSummary {
    this.put(encodeTrailerBody(this.records, this.sums));
    this.drain(); // the CRC now covers everything before it
    const crc = this.crc;
    const tail = Buffer.alloc(4);
    tail.writeUInt32LE(crc, 0);
    this.put(tail);
    this.drain();
    commitTempFile(this.fd, this.tempPath, this.path);
    this.fd = -1;
    return {
      file: this.path.slice(this.path.lastIndexOf('/') + 1),
      records: this.records,
      sums: Array.from(this.sums),
      bytes: this.bytes,
      crc,
    };
  }

  /** Closes and removes the temporary file; for errors. */
  abort(): void {
    discardTempFile(this.fd, this.tempPath);
    this.fd = -1;
  }

  private put(bytes: Buffer): void {
    if (this.used + bytes.length > this.chunk.length) this.drain();
    bytes.copy(this.chunk, this.used);
    this.used += bytes.length;
  }

  private drain(): void {
    if (this.used === 0) return;
    const data = this.chunk.subarray(0, this.used);
    writeAll(this.fd, data);
    this.crc = crc32(data, this.crc);
    this.bytes += data.length;
    this.used = 0;
  }
}
