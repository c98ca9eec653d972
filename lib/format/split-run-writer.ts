/**
 * Writes one split run file (split-layout.ts): the header, then each owner's chunks as they come,
 * appended, then the index and the footer. The chunks come encoded (lib/engine/owner-split.ts); this
 * class keeps the index: where each chunk went, and each section's records and checksum (the run
 * sum, read where the owner split encoded the chunk). Like a run file, it is written under a
 * temporary name and renamed only when it is complete and synced.
 */

import { BufferedTempFile } from './buffered-temp-file.js';
import type { RunSummary } from './run-writer.js';
import {
  CHUNK_ENTRY_BYTES,
  encodeChunkEntry,
  encodeFooterBody,
  encodeSectionEntry,
  encodeSplitHeader,
  indexBytes,
  sectionEntryBytes,
  splitChecksum,
  SplitHeader,
} from './split-layout.js';
import type { PendingCommits } from './pending-commits.js';
import type { FileChecksum } from './run-sum.js';

export class SplitRunWriter {
  readonly path: string;
  private readonly file: BufferedTempFile;
  private readonly header: SplitHeader;
  private readonly sectionSums: FileChecksum[];
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
    this.file = new BufferedTempFile(path, buffer, splitChecksum(header.version));
    this.header = header;
    this.sectionSums = Array.from({ length: header.owners }, () => splitChecksum(header.version));
    this.sectionRecords = new Float64Array(header.owners);
    this.sectionChunks = new Uint32Array(header.owners);
    this.file.put(encodeSplitHeader(header));
  }

  /** Appends a chunk of `owner`'s section: `records` whole records, continuing its stream. */
  writeChunk(owner: number, bytes: Uint8Array, records: number): void {
    if (bytes.length === 0) return;
    this.chunkOwner.push(owner);
    this.chunkOffset.push(this.file.offset);
    this.chunkBytes.push(bytes.length);
    this.chunkRecords.push(records);
    this.sectionSums[owner].update(bytes);
    this.sectionRecords[owner] += records;
    this.sectionChunks[owner]++;
    // A large chunk goes out as it is, from the memory it was encoded in; small ones are gathered.
    if (bytes.length >= this.file.buffer.length / 2) this.file.putDirect(bytes);
    else this.file.put(bytes);
  }

  /**
   * Writes the index, from each owner's residue sums (`sumsOf`, reduced) and what the chunks gave,
   * and the footer; syncs, closes and renames into place, or has `later` do those (BufferedTempFile.commit).
   */
  finish(sumsOf: (owner: number) => ArrayLike<number>, later?: PendingCommits): RunSummary {
    const { header } = this;
    const { owners, moduli } = header;
    const k = moduli.length;
    const chunks = this.chunkOwner.length;
    const { file } = this;
    const indexOffset = file.offset;
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
        crc: this.sectionSums[g].value(),
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
    file.put(index);
    file.put(encodeFooterBody({ indexOffset, chunks, records, sums: fileSums }));
    const crc = file.commit(later);
    return { file: this.path.slice(this.path.lastIndexOf('/') + 1), records, sums: fileSums, bytes: file.written, crc };
  }

  /** Closes and removes the temporary file; for errors. */
  abort(): void {
    this.file.abort();
  }
}
