/**
 * Writes one sorted run file: header, records, trailer with its checksum (the run sum; the CRC-32 for
 * a header of version 2). The file is written under a temporary name and renamed only when it is
 * complete and synced, so a run file that exists is whole.
 */

import { writeVarint } from './varint.js';
import { BufferedTempFile } from './buffered-temp-file.js';
import { encodeHeader, encodeTrailerBody, maxRecordBytes, RunHeader, runFileChecksum } from './layout.js';
import { addModulo } from '../residues/sums.js';
import type { PendingCommits } from './pending-commits.js';

export interface RunSummary {
  /** Its path within its step folder. */
  readonly file: string;
  readonly records: number;
  readonly sums: number[];
  readonly bytes: number;
  /** The trailer's checksum (its CRC-32 before version 3 of the run file, hence the name). */
  readonly crc: number;
  /** The worker whose states the run holds. */
  readonly worker?: number;
  /** In a partitioned count: the worker that wrote it. */
  readonly source?: number;
}

export class RunWriter {
  readonly path: string;
  private readonly file: BufferedTempFile;
  private readonly moduli: Float64Array;
  private readonly sums: Float64Array;
  private readonly flushAt: number;
  private records = 0;
  private prevHi = 0;
  private prevLo = 0;

  /** `chunk` is scratch the caller lends for buffering: at least 16 KiB (a summedBuffer spares the run sum a copy). */
  constructor(path: string, header: RunHeader, chunk: Buffer) {
    this.path = path;
    this.file = new BufferedTempFile(path, chunk, runFileChecksum(header.version));
    this.moduli = Float64Array.from(header.moduli);
    this.sums = new Float64Array(header.moduli.length);
    this.flushAt = chunk.length - maxRecordBytes(header.moduli.length);
    this.file.put(encodeHeader(header));
  }

  /** Appends a record; states must come in strictly increasing order. */
  append(hi: number, lo: number, residues: Uint32Array, at: number): void {
    const { file, moduli, sums } = this;
    const chunk = file.buffer;
    let pos = file.used;
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
    file.used = pos;
    this.prevHi = hi;
    this.prevLo = lo;
    this.records++;
    if (pos >= this.flushAt) file.drain();
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
    const { moduli, sums } = this;
    for (let r = 0; r < moduli.length; r++) sums[r] = addModulo(sums[r], blockSums[r], moduli[r]);
    this.file.put(bytes);
    this.prevHi = lastHi;
    this.prevLo = lastLo;
    this.records += records;
    if (this.file.used >= this.flushAt) this.file.drain();
  }

  /** Writes the trailer, syncs, closes and renames into place, or has `later` do those (BufferedTempFile.commit). */
  finish(later?: PendingCommits): RunSummary {
    const { file } = this;
    file.put(encodeTrailerBody(this.records, this.sums));
    const crc = file.commit(later);
    return {
      file: this.path.slice(this.path.lastIndexOf('/') + 1),
      records: this.records,
      sums: Array.from(this.sums),
      bytes: file.written,
      crc,
    };
  }

  /** Closes and removes the temporary file; for errors. */
  abort(): void {
    this.file.abort();
  }
}
