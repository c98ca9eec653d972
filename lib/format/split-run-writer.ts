/**
 * Writes one split run file (split-layout.ts): the header, then each owner's chunks as they come,
 * appended, then the index and the footer. The chunks come encoded (lib/engine/owner-split.ts); this
 * class keeps the index: where each chunk went, and each section's records and CRC-32. Like a run
 * file, it is written under a temporary name and renamed only when it is complete and synced.
 */

import { openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { commitTempFile, discardTempFile, writeAll } from './atomic.js';
import { tempPath } from './count-folder.js';
import type { RunSummary } from './run-writer.js';
import {
  CHUNK_ENTRY_BYTES,
  encodeChunkEntry,
  encodeFooterBody,
  encodeSectionEntry,
  encodeSplitHeader,
  indexBytes,
  sectionEntryBytes,
  SplitHeader,
} from './split-layout.js';

export class SplitRunWriter {
  readonly path: string;
  private readonly tempPath: string;
  private readonly header: SplitHeader;
  private readonly buffer: Buffer;
  private fd: number;
  private used = 0;
  private crc = 0;
  /** Bytes written to the file so far (the buffer's bytes come after them). */
  private written = 0;
  private readonly sectionCrc: Uint32Array;
  private readonly sectionRecords: Float64Array;
  private readonly sectionChunks: Uint32Array;
  // Each chunk in file order: its owner, offset, bytes and records. One entry a chunk, not a record.
  private readonly chunkOwner: number[] = [];
  private readonly chunkOffset: number[] = [];
  private readonly chunkBytes: number[] = [];
  private readonly chunkRecords: number[] = [];

  /** `buffer` is scratch the caller lends: chunks smaller than half of it are gathered there. */
  constructor(path: string, header: SplitHeader, buffer: Buffer) {
    this.path = path;
    this.tempPath = tempPath(path);
    this.header = header;
    this.buffer = buffer;
    this.sectionCrc = new Uint32Array(header.owners);
    this.sectionRecords = new Float64Array(header.owners);
    this.sectionChunks = new Uint32Array(header.owners);
    this.fd = openSync(this.tempPath, 'w');
    this.put(encodeSplitHeader(header));
  }

  /** Appends a chunk of `owner`'s section: `records` whole records, continuing its stream. */
  writeChunk(owner: number, bytes: Uint8Array, records: number): void {
    if (bytes.length === 0) return;
    this.chunkOwner.push(owner);
    this.chunkOffset.push(this.written + this.used);
    this.chunkBytes.push(bytes.length);
    this.chunkRecords.push(records);
    this.sectionCrc[owner] = crc32(bytes, this.sectionCrc[owner]);
    this.sectionRecords[owner] += records;
    this.sectionChunks[owner]++;
    // A large chunk goes out as it is, from the memory it was encoded in; small ones are gathered.
    if (bytes.length >= this.buffer.length / 2) {
      this.drain();
      this.write(bytes);
    } else this.put(bytes);
  }

  /**
   * Writes the index, from each owner's residue sums (`sumsOf`, reduced) and what the chunks gave,
   * and the footer; syncs, closes and renames into place.
   */
  finish(sumsOf: (owner: number) => ArrayLike<number>): RunSummary {
    const { header } = this;
    const { owners, moduli } = header;
    const k = moduli.length;
    const chunks = this.chunkOwner.length;
    const indexOffset = this.written + this.used;
    const index = Buffer.alloc(indexBytes(owners, chunks, k));
    // Chunks by owner, each owner's in file order: a counting sort on the owner.
    const firstOf = new Uint32Array(owners + 1);
    for (let g = 0; g < owners; g++) firstOf[g + 1] = firstOf[g] + this.sectionChunks[g];
    const fileSums = moduli.map(() => 0);
    let records = 0;
    for (let g = 0; g < owners; g++) {
      const sums = Array.from(sumsOf(g), (sum) => sum);
      sums.forEach((sum, r) => (fileSums[r] = (fileSums[r] + sum) % moduli[r]));
      records += this.sectionRecords[g];
      const entry = {
        firstChunk: firstOf[g],
        chunks: this.sectionChunks[g],
        records: this.sectionRecords[g],
        crc: this.sectionCrc[g],
        sums,
      };
      encodeSectionEntry(entry, index, g * sectionEntryBytes(k));
    }
    const next = firstOf.subarray(0, owners).slice();
    const chunkTable = owners * sectionEntryBytes(k);
    for (let c = 0; c < chunks; c++) {
      const owner = this.chunkOwner[c];
      const entry = { owner, offset: this.chunkOffset[c], bytes: this.chunkBytes[c], records: this.chunkRecords[c] };
      encodeChunkEntry(entry, index, chunkTable + next[owner]++ * CHUNK_ENTRY_BYTES);
    }
    this.put(index);
    this.put(encodeFooterBody({ indexOffset, chunks, records, sums: fileSums }));
    // The CRC of every byte before it: those written, and those the buffer still holds.
    const crc = crc32(this.buffer.subarray(0, this.used), this.crc);
    const tail = Buffer.alloc(4);
    tail.writeUInt32LE(crc, 0);
    this.put(tail);
    this.drain();
    commitTempFile(this.fd, this.tempPath, this.path);
    this.fd = -1;
    return { file: this.path.slice(this.path.lastIndexOf('/') + 1), records, sums: fileSums, bytes: this.written, crc };
  }

  /** Closes and removes the temporary file; for errors. */
  abort(): void {
    discardTempFile(this.fd, this.tempPath);
    this.fd = -1;
  }

  private put(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buffer.length) this.drain();
    if (bytes.length > this.buffer.length) {
      this.write(bytes);
      return;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  private drain(): void {
    if (this.used === 0) return;
    const data = this.buffer.subarray(0, this.used);
    this.used = 0;
    this.write(data);
  }

  private write(data: Uint8Array): void {
    writeAll(this.fd, data);
    this.crc = crc32(data, this.crc);
    this.written += data.length;
  }
}
