/**
 * Checks one split run file (lib/format/split-layout.ts) on its own, sharing no decoding with the
 * engine's readers: varints are decoded with the `varint` package. The header; the CRC-32 of the
 * whole file; the index: chunks that tile the bytes between header and index exactly, each listed
 * once under its owner, and each owner's section entry; each section, decoded across its chunks:
 * whole records in each chunk as many as the index says, strictly increasing states, each a valid
 * border state for the step and owned (ownerOf) by the section's worker, residues below their
 * moduli, and the section's record count, residue sums and CRC-32; the footer's totals.
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import varint from 'varint';
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
  splitHeaderBytes,
  SplitHeader,
} from '../format/split-layout.js';
import { isLegalFinal } from '../border/border.js';
import { HIGH_UNIT, MAX_WIDTH } from '../border/layout.js';
import { ownerOf } from '../border/ownership.js';
import type { Problem } from './problems.js';
import type { RunCheck, RunExpectation } from './run-check.js';
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
    const header = decodeSplitHeader(this.read(0, Math.min(size, splitHeaderBytes(255))));
    if (typeof header === 'string') {
      this.report(header);
      return result();
    }
    if (!this.headerAsExpected(header)) return result(header);
    const k = header.moduli.length;
    if (size < splitHeaderBytes(k) + splitFooterBytes(k)) {
      this.report(`file is cut short (${counted(size, 'byte')})`);
      return result(header);
    }
    const footer = decodeFooter(this.read(size - splitFooterBytes(k), splitFooterBytes(k)), k);
    const crc = this.fileCrc();
    if (typeof footer === 'string') {
      this.report(footer);
      return result(header);
    }
    if (footer.crc !== crc) this.report(`CRC-32 mismatch: the footer says ${hex(footer.crc)}, content gives ${hex(crc)}`);
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
    if (header.width < 1 || header.width > MAX_WIDTH || header.columns < 1) {
      this.report(`header gives an impossible board: ${header.width} wide, ${counted(header.columns, 'column')}`);
      return false;
    }
    if (header.step > header.width * header.columns) {
      this.report(`header gives step ${header.step}, past the board's ${header.width * header.columns} points`);
      return false;
    }
    if (!expect) return true;
    const wrong: string[] = [];
    if (header.width !== expect.width || header.columns !== expect.columns)
      wrong.push(`a ${header.width}-wide sweep of ${counted(header.columns, 'column')}, not ${expect.width} of ${expect.columns}`);
    if (header.step !== expect.step) wrong.push(`step ${header.step}, not ${expect.step}`);
    if (header.moduli.join() !== expect.moduli.join()) wrong.push(`moduli ${header.moduli.join(', ')}, not ${expect.moduli.join(', ')}`);
    if (header.owners !== expect.owners) wrong.push(`${counted(header.owners, 'owner')}, not the count's ${expect.owners}`);
    for (const what of wrong) this.report(`header gives ${what}`);
    return true;
  }

  /** The CRC-32 of every byte before the footer's own. */
  private fileCrc(): number {
    let crc = 0;
    for (let at = 0; at < this.size - 4;) {
      const n = readSync(this.fd, this.buf, 0, Math.min(READ_BYTES, this.size - 4 - at), at);
      if (n === 0) break;
      crc = crc32(this.buf.subarray(0, n), crc);
      at += n;
    }
    return crc;
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
          this.report(`the index's section of worker ${g} has no chunks but records, sums or a CRC`);
      }
      next = section.firstChunk + section.chunks;
    });
    if (this.problems.length === before && next !== chunks.length)
      this.report(`the index's sections take ${next} chunks of its ${chunks.length}`);
    let at = splitHeaderBytes(header.moduli.length);
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
    const k = moduli.length;
    const sums = moduli.map(() => 0);
    let records = 0;
    let hi = 0;
    let lo = 0;
    let crc = 0;
    let damaged = false;
    const report = (problem: string) => {
      if (!damaged) this.report(`worker ${g}'s section, record ${records + 1}: ${problem}; later records of the section not checked`);
      damaged = true;
    };
    for (let c = 0; c < chunks.length && !damaged; c++) {
      const bytes = this.read(chunks[c].offset, chunks[c].bytes);
      crc = crc32(bytes, crc);
      let pos = 0;
      let inChunk = 0;
      while (pos < bytes.length && !damaged) {
        let a: number;
        let d = 0;
        let at = pos;
        try {
          a = varint.decode(bytes, at);
          at += varint.decode.bytes!;
          if (a % 2 === 1) {
            d = varint.decode(bytes, at);
            at += varint.decode.bytes!;
          }
        } catch {
          report(`damaged varint, or a record that runs past the end of chunk ${c + 1}`);
          break;
        }
        if (at + 4 * k > bytes.length) {
          report(`record runs past the end of chunk ${c + 1}`);
          break;
        }
        const nextHi = a % 2 === 1 ? hi + d : hi;
        const nextLo = a % 2 === 1 ? (a - 1) / 2 : lo + a / 2;
        if (records > 0 && !(nextHi > hi || (nextHi === hi && nextLo > lo))) report('state is not above the one before');
        hi = nextHi;
        lo = nextLo;
        if (hi >= HIGH_UNIT || lo >= HIGH_UNIT) report('state is out of range');
        else {
          const problem =
            states.problem(hi, lo) ??
            (ownerOf(hi, lo, owners, width) !== g ? `state is worker ${ownerOf(hi, lo, owners, width)}'s` : undefined);
          if (problem) report(problem);
        }
        const isLegal = legal !== undefined && isLegalFinal(hi, lo);
        for (let r = 0; r < k; r++) {
          const residue = bytes.readUInt32LE(at + 4 * r);
          if (residue >= moduli[r]) report(`residue ${residue} is not below its modulus ${moduli[r]}`);
          sums[r] = (sums[r] + residue) % moduli[r];
          if (isLegal) legal[r] = (legal[r] + residue) % moduli[r];
        }
        pos = at + 4 * k;
        records++;
        inChunk++;
      }
      if (!damaged && inChunk !== chunks[c].records)
        report(`chunk ${c + 1} of the section holds ${counted(inChunk, 'record')}, the index says ${chunks[c].records}`);
    }
    if (damaged) return { records, sums, complete: false };
    const where = `worker ${g}'s section`;
    if (crc !== section.crc) this.report(`${where}: CRC-32 mismatch: the index says ${hex(section.crc)}, its bytes give ${hex(crc)}`);
    if (records !== section.records)
      this.report(`${where}: the index says ${counted(section.records, 'record')}, the section holds ${records}`);
    section.sums.forEach((sum, r) => {
      if (sum !== sums[r]) this.report(`${where}: the index's residue sum ${r} is ${sum}, the records give ${sums[r]}`);
    });
    return { records, sums, complete: true };
  }
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;
