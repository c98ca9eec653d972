/**
 * Checks one split run file (lib/format/split-layout.ts) on its own, sharing no decoding with the
 * engine's readers: its sections' records are decoded by record-stream.ts, with the `varint` package. The header; the checksum of the
 * whole file (split-layout.ts: the run sum, or the CRC-32 before version 3); the index: chunks that tile the bytes between header and index exactly, each listed
 * once under its owner, and each owner's section entry; each section, decoded across its chunks:
 * whole records in each chunk as many as the index says, strictly increasing states, each a valid
 * border state for the step and owned by the section's worker (the bucket of its window key in the
 * header's owner table; ownerOf in version 1), residues below their
 * moduli, and the section's record count, residue sums and checksum; the footer's totals.
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  CHUNK_ENTRY_BYTES,
  ChunkEntry,
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
  SplitHeader,
  splitChecksum,
} from '../format/split-layout.js';
import { checksumFileBytes, checksumProblem, type FileChecksum } from '../format/run-sum.js';
import { ownerOf } from '../border/ownership.js';
import { bucketOf, keyOfBorder, stringKeyOfBorder } from '../border/window-key.js';
import type { SplitRule } from '../format/split-layout.js';
import type { Problem } from './problems.js';
import type { RunCheck } from './run-check.js';
import { CUT_SHORT, DAMAGED_VARINT, headerProblems, RecordStream, type RunExpectation } from './record-stream.js';
import { StateCheck } from './state-check.js';
import { counted } from '../shared/plural.js';

/** What a split run should be, when its step folder says so: its step's, and the count's owners. */
export interface SplitExpectation extends RunExpectation {
  readonly owners: number;
}

export interface SplitCheck extends RunCheck {
  readonly header?: SplitHeader;
}

const READ_BYTES = 1 << 20;

export function checkSplitFile(file: string, expect?: SplitExpectation): SplitCheck {
  const problems: Problem[] = [];
  const fd = openSync(file, 'r');
  try {
    return new SplitChecker(file, fd, problems, expect).check();
  } finally {
    closeSync(fd);
  }
}

class SplitChecker {
  private readonly size: number;
  private readonly buf = Buffer.allocUnsafe(READ_BYTES);

  constructor(
    private readonly file: string,
    private readonly fd: number,
    private readonly problems: Problem[],
    private readonly expect?: SplitExpectation,
  ) {
    this.size = fstatSync(fd).size;
  }

  private report(problem: string): void {
    this.problems.push({ file: this.file, problem });
  }

  /** `length` bytes at `at`, a new buffer (the index, a chunk); fewer where the file ends. */
  private read(at: number, length: number): Buffer {
    const bytes = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, bytes, done, length - done, at + done);
      if (n === 0) break;
      done += n;
    }
    return bytes.subarray(0, done);
  }

  check(): SplitCheck {
    const { file, size, problems } = this;
    const result = (header?: SplitHeader, records = 0, sums: number[] = [], legal?: number[], crc?: number): SplitCheck => ({
      file,
      header,
      records,
      sums,
      legal,
      bytes: size,
      crc,
      problems,
    });
    const header = decodeSplitHeader(this.read(0, Math.min(size, MOST_SPLIT_HEADER_BYTES)));
    if (typeof header === 'string') {
      this.report(header);
      return result();
    }
    if (!this.headerAsExpected(header)) return result(header);
    const k = header.moduli.length;
    if (size < splitHeaderBytes(k, header.version) + splitFooterBytes(k)) {
      this.report(`file is cut short (${counted(size, 'byte')})`);
      return result(header);
    }
    const footer = decodeFooter(this.read(size - splitFooterBytes(k), splitFooterBytes(k)), k);
    const checksum = this.fileChecksum(header.version);
    if (typeof footer === 'string') {
      this.report(footer);
      return result(header);
    }
    const mismatch = checksumProblem(checksum, footer.crc, 'the footer says');
    if (mismatch) this.report(mismatch);
    const place = indexPlaceProblem(header, footer, size);
    if (place) {
      this.report(place);
      return result(header, 0, [], undefined, footer.crc);
    }
    const index = this.read(footer.indexOffset, size - splitFooterBytes(k) - footer.indexOffset);
    const sections: SectionEntry[] = [];
    for (let g = 0; g < header.owners; g++) sections.push(decodeSectionEntry(index, g * sectionEntryBytes(k), k));
    const chunkTable = header.owners * sectionEntryBytes(k);
    const chunks: ChunkEntry[] = [];
    for (let c = 0; c < footer.chunks; c++) chunks.push(decodeChunkEntry(index, chunkTable + c * CHUNK_ENTRY_BYTES));
    if (!this.indexHolds(header, footer.indexOffset, sections, chunks)) return result(header, 0, [], undefined, footer.crc);

    const { step, width } = header;
    const atBoundary = step > 0 && step % width === 0;
    const states = new StateCheck(header.width, header.columns, step);
    const sums = header.moduli.map(() => 0);
    const legal = atBoundary ? header.moduli.map(() => 0) : undefined;
    let records = 0;
    let complete = true;
    sections.forEach((section, g) => {
      const read = this.checkSection(
        header,
        g,
        section,
        chunks.slice(section.firstChunk, section.firstChunk + section.chunks),
        states,
        legal,
      );
      complete &&= read.complete;
      records += read.records;
      read.sums.forEach((sum, r) => (sums[r] = (sums[r] + sum) % header.moduli[r]));
    });
    if (!complete) return result(header, records, sums, legal, footer.crc);
    if (footer.records !== records) this.report(`the footer says ${counted(footer.records, 'record')}, the sections hold ${records}`);
    footer.sums.forEach((sum, r) => {
      if (sum !== sums[r]) this.report(`the footer's residue sum ${r} is ${sum}, the sections give ${sums[r]}`);
    });
    return result(header, records, sums, legal, footer.crc);
  }

  private headerAsExpected(header: SplitHeader): boolean {
    const { expect } = this;
    const { usable, problems } = headerProblems(header, expect);
    if (usable && expect && header.owners !== expect.owners)
      problems.push(`header gives ${counted(header.owners, 'owner')}, not the count's ${expect.owners}`);
    for (const problem of problems) this.report(problem);
    return usable;
  }

  /** The checksum of every byte before the footer's own. */
  private fileChecksum(version: number): FileChecksum {
    const checksum = splitChecksum(version);
    checksumFileBytes(this.fd, this.size - 4, this.buf, checksum);
    return checksum;
  }

  /** Whether the index is whole: sections that take the chunks in turn, chunks under their owners that tile the records' bytes. */
  private indexHolds(header: SplitHeader, indexOffset: number, sections: SectionEntry[], chunks: ChunkEntry[]): boolean {
    const before = this.problems.length;
    let next = 0;
    sections.forEach((section, g) => {
      if (section.firstChunk !== next || section.firstChunk + section.chunks > chunks.length)
        this.report(`the index's section of worker ${g} does not take the chunks after the section before it`);
      else {
        for (let c = next; c < next + section.chunks; c++)
          if (chunks[c].owner !== g)
            this.report(`the index lists chunk ${c + 1} under worker ${g}, but gives it to worker ${chunks[c].owner}`);
        if (section.chunks === 0 && (section.records !== 0 || section.crc !== 0 || section.sums.some((sum) => sum !== 0)))
          this.report(`the index's section of worker ${g} has no chunks but records, sums or a checksum`);
      }
      next = section.firstChunk + section.chunks;
    });
    if (this.problems.length === before && next !== chunks.length)
      this.report(`the index's sections take ${next} chunks of its ${chunks.length}`);
    let at = splitHeaderBytes(header.moduli.length, header.version);
    for (const chunk of [...chunks].sort((a, b) => a.offset - b.offset)) {
      if (chunk.offset !== at || chunk.bytes === 0 || chunk.records === 0) {
        this.report(`the index's chunks do not fill the bytes between the header and the index (at byte ${at})`);
        return false;
      }
      at += chunk.bytes;
    }
    if (at !== indexOffset) this.report(`the index's chunks end at byte ${at}, not where the index begins (${indexOffset})`);
    return this.problems.length === before;
  }

  /**
   * Decodes and checks owner g's section, chunk by chunk, up to the first bad record: after a
   * damaged byte its varint stream is out of step, and every later record would be reported for the
   * same reason.
   */
  private checkSection(
    header: SplitHeader,
    g: number,
    section: SectionEntry,
    chunks: ChunkEntry[],
    states: StateCheck,
    legal: number[] | undefined,
  ): { records: number; sums: number[]; complete: boolean } {
    const { moduli, owners, width } = header;
    const { window } = header;
    // Version 2: the owner of the key's bucket for the window the file names (lib/border/window-key.ts).
    const ownerProblem = (hi: number, lo: number) => {
      const owner = window ? window.owners[bucketOf(windowKeyOf(states.decoded, window))] : ownerOf(hi, lo, owners, width);
      return owner !== g ? `state is worker ${owner}'s` : undefined;
    };
    const stream = new RecordStream(moduli, states, legal, ownerProblem);
    const checksum = splitChecksum(header.version);
    let damaged = false;
    const report = (problem: string) => {
      if (!damaged)
        this.report(`worker ${g}'s section, record ${stream.records + 1}: ${problem}; later records of the section not checked`);
      damaged = true;
    };
    for (let c = 0; c < chunks.length && !damaged; c++) {
      const bytes = this.read(chunks[c].offset, chunks[c].bytes);
      checksum.update(bytes);
      const before = stream.records;
      for (let pos = 0; pos < bytes.length && !damaged;) {
        const end = stream.next(bytes, pos, report);
        if (end === DAMAGED_VARINT) report(`damaged varint, or a record that runs past the end of chunk ${c + 1}`);
        else if (end === CUT_SHORT) report(`record runs past the end of chunk ${c + 1}`);
        else pos = end;
      }
      const inChunk = stream.records - before;
      if (!damaged && inChunk !== chunks[c].records)
        report(`chunk ${c + 1} of the section holds ${counted(inChunk, 'record')}, the index says ${chunks[c].records}`);
    }
    const { records, sums } = stream;
    if (damaged) return { records, sums, complete: false };
    const where = `worker ${g}'s section`;
    const mismatch = checksumProblem(checksum, section.crc, 'the index says', 'its bytes give');
    if (mismatch) this.report(`${where}: ${mismatch}`);
    if (records !== section.records)
      this.report(`${where}: the index says ${counted(section.records, 'record')}, the section holds ${records}`);
    section.sums.forEach((sum, r) => {
      if (sum !== sums[r]) this.report(`${where}: the index's residue sum ${r} is ${sum}, the records give ${sums[r]}`);
    });
    return { records, sums, complete: true };
  }
}

/** The key a split run's window gives a decoded state. */
function windowKeyOf(border: { kind: Uint8Array; colour: Uint8Array; group: Uint8Array }, window: SplitRule): bigint {
  const { r, rows, lastColumn } = window;
  return window.strings
    ? stringKeyOfBorder(border.kind, border.colour, border.group, r, rows, lastColumn)
    : keyOfBorder(border.kind, border.colour, r, rows, lastColumn);
}
