/**
 * Reads one run file record by record, checking as it goes: header, varints, strictly increasing
 * states, residues below their moduli, and, at the end, the trailer's record count, residue sums
 * and checksum. Any failure is a RunFileError naming the file and record. The decoding is shared
 * (RecordReader) with the reader of a split run's sections (section-reader.ts).
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { RunFileError } from '../shared/errors.js';
import { readVarint } from './varint.js';
import { checksumOfFile, decodeHeader, decodeTrailer, maxRecordBytes, RunHeader, trailerBytes } from './layout.js';
import { checksumProblem, type FileChecksum } from './run-sum.js';
import { addModulo } from '../residues/sums.js';
import { HIGH_UNIT } from '../border/layout.js';
import { counted } from '../shared/plural.js';

/**
 * What a broken record breaks, in the words of the error: the same whichever decoder found it
 * (next() here, or the engine's WebAssembly merge, whose codes are these keys).
 */
export const RECORD_PROBLEMS = {
  1: 'damaged varint',
  2: 'state not above the one before',
  3: 'state out of range',
  4: 'record runs past the end of the records',
} as const;

export const residueProblem = (value: number, modulus: number): string => `residue ${value} is not below its modulus ${modulus}`;

/** The undecoded record bytes of a reader's buffer: [start, end), and whether the file has more. */
export interface RecordWindow {
  readonly start: number;
  readonly end: number;
  readonly more: boolean;
}

/**
 * Decodes a stream of records (a run file's, or an owner's section of a split run file) as it reads
 * it into a lent buffer, checking every record; where the bytes come from and how the stream's end is
 * checked is the subclass's (RunReader here, SectionReader in section-reader.ts).
 */
export abstract class RecordReader {
  readonly path: string;
  abstract readonly header: RunHeader;
  /** The current record, valid after next() returned true. */
  hi = 0;
  lo = 0;
  residues = new Uint32Array(0);
  /** Records read so far. */
  records = 0;
  /** Per residue: the sum of the records read so far (the stream's, once next() returned false). */
  sums = new Float64Array(0);

  protected fd: number;
  protected readonly buf: Buffer;
  protected moduli = new Float64Array(0);
  protected readonly cursor = { pos: 0 };
  /** Stream offset of buf[0], and the valid bytes in buf. */
  protected bufStart = 0;
  protected bufEnd = 0;
  /** Stream offset where the records end. */
  protected recordsEnd = 0;
  private done = false;

  /** Opens `path`; `buf` is scratch the caller lends: at least 4 KiB. */
  protected constructor(path: string, buf: Buffer) {
    this.path = path;
    this.buf = buf;
    this.fd = openSync(path, 'r');
  }

  /** The subclass's constructor, once it knows the moduli: the records start at stream offset `start`. */
  protected startRecords(moduli: readonly number[], start: number, end: number): void {
    const k = moduli.length;
    this.residues = new Uint32Array(k);
    this.moduli = Float64Array.from(moduli);
    this.sums = new Float64Array(k);
    this.cursor.pos = start - this.bufStart;
    this.recordsEnd = end;
  }

  /** Reads more of the stream after bufEnd into the buffer. */
  protected abstract fill(): void;

  /** The records are spent at recordsEnd: checks the stream's end (trailer, index entry) against the tallies. */
  protected abstract checkEnd(): void;

  /** Where a problem is, after the path: "record 3" of a run file, more of a section. */
  protected where(record: number): string {
    return `record ${record}`;
  }

  /** Advances to the next record; false at the end, after the end checked out. */
  next(): boolean {
    if (this.done) return false;
    const { buf, cursor, residues, moduli, sums } = this;
    if (this.bufStart + cursor.pos >= this.recordsEnd) {
      this.finish();
      return false;
    }
    if (this.bufEnd - cursor.pos < maxRecordBytes(residues.length)) this.refill();
    const end = this.recordsEndInBuffer();
    const a = readVarint(buf, cursor, end);
    if (a < 0) this.fail(RECORD_PROBLEMS[1]);
    if (a % 2 === 1) {
      const d = readVarint(buf, cursor, end);
      if (d < 0) this.fail(RECORD_PROBLEMS[1]);
      const lo = (a - 1) / 2;
      if (this.records > 0 && d === 0) this.fail(RECORD_PROBLEMS[2]);
      this.hi += d;
      this.lo = lo;
    } else {
      if (this.records === 0 || a === 0) this.fail(RECORD_PROBLEMS[2]);
      this.lo += a / 2;
    }
    if (this.lo >= HIGH_UNIT || this.hi >= HIGH_UNIT) this.fail(RECORD_PROBLEMS[3]);
    let pos = cursor.pos;
    if (pos + 4 * residues.length > end) this.fail(RECORD_PROBLEMS[4]);
    for (let r = 0; r < residues.length; r++) {
      const v = (buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16) | (buf[pos + 3] << 24)) >>> 0;
      pos += 4;
      if (v >= moduli[r]) this.fail(residueProblem(v, moduli[r]));
      residues[r] = v;
      sums[r] = addModulo(sums[r], v, moduli[r]);
    }
    cursor.pos = pos;
    this.records++;
    return true;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  /** Where the record bytes in the buffer end: at the buffer's end, or the records' end. */
  private recordsEndInBuffer(): number {
    return Math.min(this.bufEnd, this.recordsEnd - this.bufStart);
  }

  // A decoder outside this class (the engine's WebAssembly merge, lib/engine/run-merge.ts) decodes
  // the records in the lent buffer itself, with the same checks, instead of calling next(); the
  // reading, the checksum and the end's checks stay here.

  /** Where the undecoded record bytes are in the buffer, and whether the stream has more. */
  recordWindow(): RecordWindow {
    const end = this.recordsEndInBuffer();
    return { start: this.cursor.pos, end, more: this.bufStart + this.bufEnd < this.recordsEnd };
  }

  /** The outside decoder has used the buffer up to `at`: reads more behind what is left. */
  readOn(at: number): RecordWindow {
    this.cursor.pos = at;
    this.refill();
    return this.recordWindow();
  }

  /** The outside decoder reached `at`, the end of the records: checks the end against its tallies. */
  endAt(at: number, records: number, sums: ArrayLike<number>): void {
    this.cursor.pos = at;
    this.records = records;
    for (let r = 0; r < this.sums.length; r++) this.sums[r] = sums[r];
    this.finish();
  }

  /** The outside decoder found record `records + 1` broken. */
  damaged(records: number, problem: string): never {
    this.records = records;
    this.fail(problem);
  }

  protected fail(problem: string): never {
    this.close();
    throw new RunFileError(this.path, `${this.where(this.records + 1)}: ${problem}`);
  }

  private finish(): void {
    if (this.bufStart + this.cursor.pos !== this.recordsEnd) this.fail('records run into the trailer');
    this.checkEnd();
    this.done = true;
  }

  /** Moves the unread bytes to the front of the buffer and reads more after them. */
  protected refill(): void {
    const keep = this.bufEnd - this.cursor.pos;
    this.buf.copy(this.buf, 0, this.cursor.pos, this.bufEnd);
    this.bufStart += this.cursor.pos;
    this.bufEnd = keep;
    this.cursor.pos = 0;
    this.fill();
  }
}

/** Reads one run file: its header, records and trailer, with the checksum of the whole file. */
export class RunReader extends RecordReader {
  readonly header: RunHeader;
  private readonly fileSize: number;
  /** By the version in the file's first bytes, chosen at the first fill. */
  private checksum?: FileChecksum;
  private summedUpTo = 0; // file offset the checksum covers so far

  /** Opens and checks the header. `buf` is scratch the caller lends: at least 4 KiB. */
  constructor(path: string, buf: Buffer) {
    super(path, buf);
    try {
      this.fileSize = fstatSync(this.fd).size;
      this.fill();
      const header = decodeHeader(buf.subarray(0, this.bufEnd));
      if (typeof header === 'string') throw new RunFileError(path, header);
      this.header = header;
      const recordsEnd = this.fileSize - trailerBytes(header.moduli.length);
      if (recordsEnd < buf.readUInt16LE(10)) throw new RunFileError(path, `file is cut short (${counted(this.fileSize, 'byte')})`);
      this.startRecords(header.moduli, buf.readUInt16LE(10), recordsEnd);
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  protected checkEnd(): void {
    while (this.bufStart + this.bufEnd < this.fileSize) this.refill();
    const k = this.residues.length;
    const at = this.recordsEnd - this.bufStart;
    const trailer = decodeTrailer(this.buf.subarray(at, at + trailerBytes(k)), k);
    this.close();
    if (typeof trailer === 'string') throw new RunFileError(this.path, trailer);
    const problem = checksumProblem(this.checksum!, trailer.crc); // the checksum chosen by the first fill
    if (problem) throw new RunFileError(this.path, problem);
    if (trailer.records !== this.records)
      throw new RunFileError(this.path, `trailer says ${counted(trailer.records, 'record')}, file holds ${this.records}`);
    for (let r = 0; r < this.sums.length; r++) {
      if (trailer.sums[r] !== this.sums[r])
        throw new RunFileError(this.path, `residue sum ${r} is ${this.sums[r]}, trailer says ${trailer.sums[r]}`);
    }
  }

  protected fill(): void {
    const offset = this.bufStart + this.bufEnd;
    const n = readSync(this.fd, this.buf, this.bufEnd, this.buf.length - this.bufEnd, offset);
    this.checksum ??= checksumOfFile(this.buf.subarray(0, this.bufEnd + n));
    const sumEnd = Math.min(offset + n, this.fileSize - 4);
    if (sumEnd > this.summedUpTo) {
      this.checksum.update(this.buf.subarray(this.summedUpTo - this.bufStart, sumEnd - this.bufStart));
      this.summedUpTo = sumEnd;
    }
    this.bufEnd += n;
  }
}
