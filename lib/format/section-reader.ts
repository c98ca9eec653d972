/**
 * Reads one owner's section of a split run file (split-layout.ts): its entry in the index, then its
 * chunks, in order, as one record stream, checked as a run file's records are (RecordReader); at
 * the end its record count, residue sums and checksum against the index. It reads nothing of the
 * other owners' records, so the engine's merge (lib/engine/run-merge.ts) takes it as it takes a
 * RunReader. `readSplitRun` reads a whole file: every section, and the checksum of the file;
 * `readWholeRun` any run file, split or not.
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { RunFileError } from '../shared/errors.js';
import { counted } from '../shared/plural.js';
import { RecordReader, RunReader } from './run-reader.js';
import { parseSplitRunFileName } from './folder-names.js';
import { basename } from 'node:path';
import type { RunHeader } from './layout.js';
import {
  CHUNK_ENTRY_BYTES,
  decodeChunkEntry,
  decodeFooter,
  decodeSectionEntry,
  decodeSplitHeader,
  indexPlaceProblem,
  SectionEntry,
  sectionEntryBytes,
  splitFooterBytes,
  MOST_SPLIT_HEADER_BYTES,
  splitHeaderBytes,
  SplitFooter,
  SplitHeader,
  splitChecksum,
} from './split-layout.js';
import { checksumFileBytes, checksumProblem, type FileChecksum } from './run-sum.js';

/** A split run's header and footer, read from its two ends, and its size. */
export interface SplitIndex {
  readonly header: SplitHeader;
  readonly footer: SplitFooter;
  readonly size: number;
}

/** Reads and checks the header and footer of the split run open at `fd`; RunFileError when they do not hold. */
export function readSplitIndex(path: string, fd: number): SplitIndex {
  const size = fstatSync(fd).size;
  const start = Buffer.alloc(Math.min(size, MOST_SPLIT_HEADER_BYTES));
  readSync(fd, start, 0, start.length, 0);
  const header = decodeSplitHeader(start);
  if (typeof header === 'string') throw new RunFileError(path, header);
  const k = header.moduli.length;
  if (size < splitHeaderBytes(k, header.version) + splitFooterBytes(k))
    throw new RunFileError(path, `file is cut short (${counted(size, 'byte')})`);
  const end = Buffer.alloc(splitFooterBytes(k));
  readSync(fd, end, 0, end.length, size - end.length);
  const footer = decodeFooter(end, k);
  if (typeof footer === 'string') throw new RunFileError(path, footer);
  const problem = indexPlaceProblem(header, footer, size);
  if (problem) throw new RunFileError(path, problem);
  return { header, footer, size };
}

/** Owner `owner`'s entry in the index of a split run open at `fd`. */
export function readSectionEntry(path: string, fd: number, index: SplitIndex, owner: number): SectionEntry {
  const { header, footer } = index;
  if (!(owner >= 0 && owner < header.owners))
    throw new RunFileError(path, `holds the sections of ${counted(header.owners, 'owner')}, not of worker ${owner}`);
  const k = header.moduli.length;
  const buf = Buffer.alloc(sectionEntryBytes(k));
  readSync(fd, buf, 0, buf.length, footer.indexOffset + owner * buf.length);
  const entry = decodeSectionEntry(buf, 0, k);
  if (entry.firstChunk + entry.chunks > footer.chunks)
    throw new RunFileError(path, `worker ${owner}'s section lists chunks past the index's ${footer.chunks}`);
  return entry;
}

export class SectionReader extends RecordReader {
  readonly header: SplitHeader;
  readonly owner: number;
  private readonly entry: SectionEntry;
  /** Each chunk's file offset and bytes, in stream order. */
  private readonly chunkOffset: Float64Array;
  private readonly chunkBytes: Float64Array;
  /** The chunk the stream's next byte to read is in, and the stream offset where it starts. */
  private chunk = 0;
  private chunkStart = 0;
  private readonly checksum: FileChecksum;

  /** Opens owner `owner`'s section of the split run at `path`. `buf` is scratch the caller lends: at least 4 KiB. */
  constructor(path: string, owner: number, buf: Buffer) {
    super(path, buf);
    this.owner = owner;
    try {
      const index = readSplitIndex(path, this.fd);
      this.header = index.header;
      this.checksum = splitChecksum(index.header.version);
      this.entry = readSectionEntry(path, this.fd, index, owner);
      const { chunks, firstChunk } = this.entry;
      const table = Buffer.alloc(chunks * CHUNK_ENTRY_BYTES);
      const chunkTable = index.footer.indexOffset + index.header.owners * sectionEntryBytes(index.header.moduli.length);
      readSync(this.fd, table, 0, table.length, chunkTable + firstChunk * CHUNK_ENTRY_BYTES);
      this.chunkOffset = new Float64Array(chunks);
      this.chunkBytes = new Float64Array(chunks);
      let bytes = 0;
      for (let c = 0; c < chunks; c++) {
        const entry = decodeChunkEntry(table, c * CHUNK_ENTRY_BYTES);
        const inside =
          entry.offset >= splitHeaderBytes(index.header.moduli.length, index.header.version) &&
          entry.offset + entry.bytes <= index.footer.indexOffset;
        if (entry.owner !== owner || !inside || entry.bytes === 0)
          throw new RunFileError(path, `worker ${owner}'s section: chunk ${c + 1} of its ${chunks} is listed wrong in the index`);
        this.chunkOffset[c] = entry.offset;
        this.chunkBytes[c] = entry.bytes;
        bytes += entry.bytes;
      }
      this.startRecords(index.header.moduli, 0, bytes);
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  /** Bytes of the section: its chunks'. */
  get sectionBytes(): number {
    return this.recordsEnd;
  }

  protected override where(record: number): string {
    return `worker ${this.owner}'s section, record ${record}`;
  }

  protected fill(): void {
    const { buf } = this;
    while (this.bufEnd < buf.length && this.chunk < this.chunkBytes.length) {
      const at = this.bufStart + this.bufEnd - this.chunkStart;
      const left = this.chunkBytes[this.chunk] - at;
      const n = readSync(this.fd, buf, this.bufEnd, Math.min(left, buf.length - this.bufEnd), this.chunkOffset[this.chunk] + at);
      if (n === 0) throw new RunFileError(this.path, `worker ${this.owner}'s section: the file ends inside chunk ${this.chunk + 1}`);
      this.checksum.update(buf.subarray(this.bufEnd, this.bufEnd + n));
      this.bufEnd += n;
      if (n === left) {
        this.chunkStart += this.chunkBytes[this.chunk];
        this.chunk++;
      }
    }
  }

  protected checkEnd(): void {
    const { entry, path, owner } = this;
    this.close();
    const section = `worker ${owner}'s section`;
    const problem = checksumProblem(this.checksum, entry.crc, 'the index says', 'its bytes give');
    if (problem) throw new RunFileError(path, `${section}: ${problem}`);
    if (entry.records !== this.records)
      throw new RunFileError(path, `${section}: the index says ${counted(entry.records, 'record')}, the section holds ${this.records}`);
    for (let r = 0; r < this.sums.length; r++) {
      if (entry.sums[r] !== this.sums[r])
        throw new RunFileError(path, `${section}: residue sum ${r} is ${this.sums[r]}, the index says ${entry.sums[r]}`);
    }
  }
}

/**
 * Reads a whole split run, checked: the checksum of the file against its footer, every section, and the
 * footer's totals. `visit` sees every record, owner by owner. Returns the file's totals.
 */
export function readSplitRun(
  path: string,
  buf: Buffer,
  visit: (reader: SectionReader) => void = () => {},
): { header: SplitHeader; records: number; sums: number[]; bytes: number; crc: number } {
  const fd = openSync(path, 'r');
  let index: SplitIndex;
  let checksum: FileChecksum;
  try {
    index = readSplitIndex(path, fd);
    checksum = splitChecksum(index.header.version);
    checksumFileBytes(fd, index.size - 4, buf, checksum);
  } finally {
    closeSync(fd);
  }
  const { header, footer } = index;
  const problem = checksumProblem(checksum, footer.crc, 'the footer says');
  if (problem) throw new RunFileError(path, problem);
  let records = 0;
  const sums = header.moduli.map(() => 0);
  for (let owner = 0; owner < header.owners; owner++) {
    const reader = new SectionReader(path, owner, buf);
    try {
      while (reader.next()) visit(reader);
    } finally {
      reader.close();
    }
    records += reader.records;
    reader.sums.forEach((sum, r) => (sums[r] = (sums[r] + sum) % header.moduli[r]));
  }
  if (records !== footer.records)
    throw new RunFileError(path, `the footer says ${counted(footer.records, 'record')}, the sections hold ${records}`);
  if (sums.join() !== footer.sums.join()) throw new RunFileError(path, "the footer's residue sums are not its sections'");
  return { header, records, sums, bytes: index.size, crc: footer.crc };
}

/**
 * Reads a whole run file, checked, a split run (by its name) or not: `visit` sees every record (a
 * split run's owner by owner). Returns its header and totals.
 */
export function readWholeRun(
  path: string,
  buf: Buffer,
  visit: (reader: RecordReader) => void = () => {},
): { header: RunHeader; records: number; sums: number[] } {
  if (parseSplitRunFileName(basename(path))) return readSplitRun(path, buf, visit);
  const reader = new RunReader(path, buf);
  try {
    while (reader.next()) visit(reader);
  } finally {
    reader.close();
  }
  return { header: reader.header, records: reader.records, sums: Array.from(reader.sums) };
}
