/**
 * Checks one run file on its own, sharing no decoding with the engine's reader: its records are
 * decoded by record-stream.ts, with the `varint` package. Header, strictly increasing states, each a valid border state
 * for its board and step, residues below their moduli, and the trailer's record count, residue sums
 * and checksum (run-sum.ts). The file is read in chunks, so any size can be checked in bounded memory.
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { checksumOfFile, decodeHeader, decodeTrailer, headerBytes, RunHeader, trailerBytes } from '../format/layout.js';
import { checksumProblem, type FileChecksum, summedBuffer } from '../format/run-sum.js';
import type { Problem } from './problems.js';
import { CUT_SHORT, DAMAGED_VARINT, headerProblems, RecordStream, type RunExpectation } from './record-stream.js';
import { StateCheck } from './state-check.js';
import { counted } from '../shared/plural.js';

export type { RunExpectation } from './record-stream.js';

export interface RunCheck {
  readonly file: string;
  readonly header?: RunHeader;
  readonly records: number;
  readonly sums: number[];
  /** At a column boundary: the residues of the legal final states, L(width, step / width). */
  readonly legal?: number[];
  readonly bytes: number;
  readonly crc?: number;
  readonly problems: Problem[];
}

const CHUNK_BYTES = 1 << 20;
/** The chunk every check reads into, one file at a time (checkRunFile runs to the end before it returns). */
let shared: Buffer | undefined;

export function checkRunFile(file: string, expect?: RunExpectation): RunCheck {
  const problems: Problem[] = [];
  const fd = openSync(file, 'r');
  try {
    return new RunChecker(file, fd, problems, expect).check();
  } finally {
    closeSync(fd);
  }
}

class RunChecker {
  private readonly size: number;
  private readonly chunk = (shared ??= summedBuffer(CHUNK_BYTES));
  private start = 0; // file offset of chunk[0]
  private length = 0; // valid bytes in chunk
  /** By the version in the file's first bytes, chosen when they are loaded. */
  private checksum?: FileChecksum;
  private summedUpTo = 0;

  constructor(
    private readonly file: string,
    private readonly fd: number,
    private readonly problems: Problem[],
    private readonly expect?: RunExpectation,
  ) {
    this.size = fstatSync(fd).size;
  }

  check(): RunCheck {
    const { file, size, problems } = this;
    const result = (header?: RunHeader, records = 0, sums: number[] = [], legal?: number[], crc?: number): RunCheck => ({
      file,
      header,
      records,
      sums,
      legal,
      bytes: size,
      crc,
      problems,
    });
    this.load(0);
    const header = decodeHeader(this.chunk.subarray(0, this.length));
    if (typeof header === 'string') {
      problems.push({ file, problem: header });
      return result();
    }
    if (!this.headerAsExpected(header)) return result(header);
    const k = header.moduli.length;
    const recordsEnd = size - trailerBytes(k);
    if (recordsEnd < headerBytes(k)) {
      problems.push({ file, problem: `file is cut short (${counted(size, 'byte')})` });
      return result(header);
    }
    const { records, sums, legal, complete } = this.checkRecords(header, recordsEnd);
    while (this.summedUpTo < size - 4) this.load(this.summedUpTo); // the records may have stopped short
    this.load(recordsEnd);
    const trailer = decodeTrailer(this.chunk.subarray(0, trailerBytes(k)), k);
    if (typeof trailer === 'string') {
      problems.push({ file, problem: trailer });
      return result(header, records, sums, legal);
    }
    const problem = checksumProblem(this.checksum!, trailer.crc); // the checksum chosen by load(0)
    if (problem) problems.push({ file, problem });
    if (!complete) return result(header, records, sums, legal, trailer.crc);
    if (trailer.records !== records)
      problems.push({ file, problem: `trailer says ${counted(trailer.records, 'record')}, the file holds ${records}` });
    trailer.sums.forEach((sum, r) => {
      if (sum !== sums[r]) problems.push({ file, problem: `trailer's residue sum ${r} is ${sum}, the records give ${sums[r]}` });
    });
    return result(header, records, sums, legal, trailer.crc);
  }

  private headerAsExpected(header: RunHeader): boolean {
    const { usable, problems } = headerProblems(header, this.expect);
    for (const problem of problems) this.problems.push({ file: this.file, problem });
    return usable;
  }

  /**
   * Decodes and checks the records up to the first bad one: after a damaged byte the varint stream
   * is out of step, and every later record would be reported wrong for the same reason.
   */
  private checkRecords(header: RunHeader, recordsEnd: number): { records: number; sums: number[]; legal?: number[]; complete: boolean } {
    const { file, problems } = this;
    const { width, columns, step, moduli } = header;
    const atBoundary = step > 0 && step % width === 0;
    const legal = atBoundary ? moduli.map(() => 0) : undefined;
    const stream = new RecordStream(moduli, new StateCheck(width, columns, step), legal);
    let damaged = false;
    const report = (problem: string) => {
      if (!damaged) problems.push({ file, record: stream.records + 1, problem: `${problem}; later records not checked` });
      damaged = true;
    };
    for (let pos = headerBytes(moduli.length); pos < recordsEnd && !damaged;) {
      const end = stream.next(this.window(pos, recordsEnd), 0, report);
      if (end === DAMAGED_VARINT) report('damaged varint, or the record runs into the trailer');
      else if (end === CUT_SHORT) report('record runs into the trailer');
      else pos += end;
    }
    return { records: stream.records, sums: stream.sums, legal, complete: !damaged };
  }

  /** The bytes from file offset `pos` up to `end`, or at least a record's worth of them. */
  private window(pos: number, end: number): Buffer {
    const wanted = Math.min(end - pos, 64);
    if (pos < this.start || pos + wanted > this.start + this.length) this.load(pos);
    return this.chunk.subarray(pos - this.start, Math.min(this.length, end - this.start));
  }

  /** Loads the chunk from file offset `pos`, feeding the checksum every byte on first sight. */
  private load(pos: number): void {
    this.start = pos;
    this.length = readSync(this.fd, this.chunk, 0, CHUNK_BYTES, pos);
    this.checksum ??= checksumOfFile(this.chunk.subarray(0, this.length));
    const sumEnd = Math.min(pos + this.length, this.size - 4);
    if (sumEnd > this.summedUpTo && pos <= this.summedUpTo) {
      this.checksum.update(this.chunk.subarray(this.summedUpTo - pos, sumEnd - pos));
      this.summedUpTo = sumEnd;
    }
  }
}
