/**
 * Checks one run file on its own, sharing no decoding with the engine's reader: varints are
 * decoded with the `varint` package. Header, strictly increasing states, each a valid border state
 * for its board and step, residues below their moduli, and the trailer's record count, residue sums
 * and CRC-32. The file is read in chunks, so any size can be checked in bounded memory.
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import varint from 'varint';
import { decodeHeader, decodeTrailer, headerBytes, RunHeader, trailerBytes } from '../format/layout.js';
import { isLegalFinal } from '../border/border.js';
import { HIGH_UNIT, MAX_WIDTH } from '../border/layout.js';
import type { Problem } from './problems.js';
import { StateCheck } from './state-check.js';
import { counted } from '../shared/plural.js';

/** What the run should be, when its step folder says so. */
export interface RunExpectation {
  readonly width: number;
  readonly columns: number;
  readonly step: number;
  readonly moduli: readonly number[];
}

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
  private readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private start = 0; // file offset of chunk[0]
  private length = 0; // valid bytes in chunk
  private crc = 0;
  private crcUpTo = 0;

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
    while (this.crcUpTo < size - 4) this.load(this.crcUpTo); // the records may have stopped short
    this.load(recordsEnd);
    const trailer = decodeTrailer(this.chunk.subarray(0, trailerBytes(k)), k);
    if (typeof trailer === 'string') {
      problems.push({ file, problem: trailer });
      return result(header, records, sums, legal);
    }
    if (trailer.crc !== this.crc)
      problems.push({ file, problem: `CRC-32 mismatch: trailer says ${hex(trailer.crc)}, content gives ${hex(this.crc)}` });
    if (!complete) return result(header, records, sums, legal, trailer.crc);
    if (trailer.records !== records)
      problems.push({ file, problem: `trailer says ${counted(trailer.records, 'record')}, the file holds ${records}` });
    trailer.sums.forEach((sum, r) => {
      if (sum !== sums[r]) problems.push({ file, problem: `trailer's residue sum ${r} is ${sum}, the records give ${sums[r]}` });
    });
    return result(header, records, sums, legal, trailer.crc);
  }

  private headerAsExpected(header: RunHeader): boolean {
    const { expect, file, problems } = this;
    if (header.width < 1 || header.width > MAX_WIDTH || header.columns < 1) {
      problems.push({ file, problem: `header gives an impossible board: ${header.width} wide, ${counted(header.columns, 'column')}` });
      return false;
    }
    if (header.step > header.width * header.columns) {
      problems.push({ file, problem: `header gives step ${header.step}, past the board's ${header.width * header.columns} points` });
      return false;
    }
    if (!expect) return true;
    const wrong: string[] = [];
    if (header.width !== expect.width || header.columns !== expect.columns)
      wrong.push(`a ${header.width}-wide sweep of ${counted(header.columns, 'column')}, not ${expect.width} of ${expect.columns}`);
    if (header.step !== expect.step) wrong.push(`step ${header.step}, not ${expect.step}`);
    if (header.moduli.join() !== expect.moduli.join()) wrong.push(`moduli ${header.moduli.join(', ')}, not ${expect.moduli.join(', ')}`);
    for (const what of wrong) problems.push({ file, problem: `header gives ${what}` });
    return true;
  }

  /**
   * Decodes and checks the records up to the first bad one: after a damaged byte the varint stream
   * is out of step, and every later record would be reported wrong for the same reason.
   */
  private checkRecords(header: RunHeader, recordsEnd: number): { records: number; sums: number[]; legal?: number[]; complete: boolean } {
    const { file, problems } = this;
    const { width, columns, step, moduli } = header;
    const k = moduli.length;
    const states = new StateCheck(width, columns, step);
    const atBoundary = step > 0 && step % width === 0;
    const sums = moduli.map(() => 0);
    const legal = atBoundary ? moduli.map(() => 0) : undefined;
    let records = 0;
    let damaged = false;
    let hi = 0;
    let lo = 0;
    let pos = headerBytes(k);
    const report = (problem: string) => {
      if (!damaged) problems.push({ file, record: records + 1, problem: `${problem}; later records not checked` });
      damaged = true;
    };
    while (pos < recordsEnd && !damaged) {
      const view = this.window(pos, recordsEnd);
      let at = 0;
      let a: number;
      let d = 0;
      try {
        a = varint.decode(view, at);
        at += varint.decode.bytes!;
        if (a % 2 === 1) {
          d = varint.decode(view, at);
          at += varint.decode.bytes!;
        }
      } catch {
        report('damaged varint, or the record runs into the trailer');
        break;
      }
      if (at + 4 * k > view.length) {
        report('record runs into the trailer');
        break;
      }
      const nextHi = a % 2 === 1 ? hi + d : hi;
      const nextLo = a % 2 === 1 ? (a - 1) / 2 : lo + a / 2;
      if (records > 0 && !(nextHi > hi || (nextHi === hi && nextLo > lo))) report('state is not above the one before');
      hi = nextHi;
      lo = nextLo;
      if (hi >= HIGH_UNIT || lo >= HIGH_UNIT) report('state is out of range');
      else {
        const problem = states.problem(hi, lo);
        if (problem) report(problem);
      }
      const isLegal = legal !== undefined && isLegalFinal(hi, lo);
      for (let r = 0; r < k; r++) {
        const residue = view.readUInt32LE(at + 4 * r);
        if (residue >= moduli[r]) report(`residue ${residue} is not below its modulus ${moduli[r]}`);
        sums[r] = (sums[r] + residue) % moduli[r];
        if (isLegal) legal[r] = (legal[r] + residue) % moduli[r];
      }
      pos += at + 4 * k;
      records++;
    }
    return { records, sums, legal, complete: !damaged };
  }

  /** The bytes from file offset `pos` up to `end`, or at least a record's worth of them. */
  private window(pos: number, end: number): Buffer {
    const wanted = Math.min(end - pos, 64);
    if (pos < this.start || pos + wanted > this.start + this.length) this.load(pos);
    return this.chunk.subarray(pos - this.start, Math.min(this.length, end - this.start));
  }

  /** Loads the chunk from file offset `pos`, feeding the CRC every byte on first sight. */
  private load(pos: number): void {
    this.start = pos;
    this.length = readSync(this.fd, this.chunk, 0, CHUNK_BYTES, pos);
    const crcEnd = Math.min(pos + this.length, this.size - 4);
    if (crcEnd > this.crcUpTo && pos <= this.crcUpTo) {
      this.crc = crc32(this.chunk.subarray(this.crcUpTo - pos, crcEnd - pos), this.crc);
      this.crcUpTo = crcEnd;
    }
  }
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;
