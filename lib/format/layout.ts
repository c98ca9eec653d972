/**
 * The run file format, version 3. All integers little-endian.
 *
 *   header   "GOCNTRUN" · u16 version · u16 header bytes · u8 width · u8 K (residues a record: those
 *            the step's counts need, for the leading K moduli of the count)
 *            · u16 columns · u32 step (points placed) · u32 run number · K × u32 moduli
 *   records  sorted by state, strictly increasing. Each record is a varint A, then a varint D if
 *            A is odd, then K × u32 residues. A = 2·(lo − previous lo) when the high word is
 *            unchanged; A = 2·lo + 1 when it changed (always for the first record), and then
 *            D = hi − previous hi (previous hi = 0 before the first record).
 *   trailer  "GOCNTEND" · u32 record count low · u32 high · K × u32 residue sums (each mod its
 *            modulus) · u32 run sum of every byte before it (run-sum.ts; version 2 has the
 *            CRC-32 there, and is read still).
 *
 * Every value fits 32 bits, so the `varint` package can decode the records independently.
 */

import { counted } from '../shared/plural.js';
import { Crc32, type FileChecksum, RunSum } from './run-sum.js';

/**
 * 2: K is the residues this step's counts need (residues/growth.ts), no longer the whole pass's.
 * 3: the run sum in place of the CRC-32.
 */
export const FORMAT_VERSION = 3;
export const HEADER_MAGIC = 'GOCNTRUN';
export const TRAILER_MAGIC = 'GOCNTEND';

export interface RunHeader {
  readonly version: number;
  readonly width: number;
  readonly columns: number;
  /** Points placed: the states are at column ⌊step / width⌋, y = step mod width. */
  readonly step: number;
  readonly run: number;
  readonly moduli: readonly number[];
}

export interface RunTrailer {
  readonly records: number;
  readonly sums: readonly number[];
  readonly crc: number;
}

/** What is wrong with a run's header for the step a reader expects, or undefined: the engine's one check. */
export function runHeaderProblem(
  header: RunHeader,
  expected: { width: number; columns: number; step: number; moduli: readonly number[] },
): string | undefined {
  if (header.width !== expected.width || header.columns !== expected.columns) {
    return `holds a ${header.width}-wide sweep of ${counted(header.columns, 'column')}, not ${expected.width} of ${expected.columns}`;
  }
  if (header.step !== expected.step) return `holds step ${header.step}, expected ${expected.step}`;
  if (header.moduli.join() !== expected.moduli.join()) return 'holds residues for other moduli';
  return undefined;
}

export const headerBytes = (residueCount: number): number => headerBytesOf(RUN_FILE, residueCount);
export const trailerBytes = (residueCount: number): number => 20 + 4 * residueCount;
/** The most bytes one record takes: two varints and the residues. */
export const maxRecordBytes = (residueCount: number): number => 10 + 4 * residueCount;

/**
 * A kind of file that opens with a run file's header fields: its magic, its name in messages, the
 * version this gocount reads, and the u32 words it adds after the run number (the split run file's
 * owners and writer), before the moduli.
 */
export interface HeaderKind {
  readonly magic: string;
  readonly name: string;
  readonly version: number;
  /** Older versions it reads as well. */
  readonly older?: readonly number[];
  readonly extraWords: number;
}

export const RUN_FILE: HeaderKind = { magic: HEADER_MAGIC, name: 'run file', version: FORMAT_VERSION, older: [2], extraWords: 0 };

/** The checksum that ends a run file of this version (its header's u16 at byte 8). */
export const runFileChecksum = (version: number): FileChecksum => (version === 2 ? new Crc32() : new RunSum());

/**
 * The checksum that ends the file whose first bytes are `head`: a run file's by its version, any
 * other file's the CRC-32 (a file that is no run file fails its header check anyway; a split run's:
 * checksumOfAnyRun, split-layout.ts).
 */
export function checksumOfFile(head: Uint8Array): FileChecksum {
  const isRunFile = head.length >= 10 && Buffer.from(head.buffer, head.byteOffset, 8).toString('latin1') === HEADER_MAGIC;
  return isRunFile ? runFileChecksum(head[8] | (head[9] << 8)) : new Crc32();
}

export const headerBytesOf = (kind: HeaderKind, residueCount: number): number => 24 + 4 * kind.extraWords + 4 * residueCount;

/** The header of a file of `kind`, with its extra words. */
export function encodeHeaderOf(kind: HeaderKind, header: RunHeader, extra: readonly number[] = []): Buffer {
  const k = header.moduli.length;
  const buf = Buffer.alloc(headerBytesOf(kind, k));
  buf.write(kind.magic, 0, 'latin1');
  buf.writeUInt16LE(header.version, 8);
  buf.writeUInt16LE(buf.length, 10);
  buf.writeUInt8(header.width, 12);
  buf.writeUInt8(k, 13);
  buf.writeUInt16LE(header.columns, 14);
  buf.writeUInt32LE(header.step, 16);
  buf.writeUInt32LE(header.run, 20);
  extra.forEach((word, i) => buf.writeUInt32LE(word, 24 + 4 * i));
  header.moduli.forEach((p, i) => buf.writeUInt32LE(p, 24 + 4 * kind.extraWords + 4 * i));
  return buf;
}

/** Decodes the header of a file of `kind` and its extra words, or returns a sentence saying why the bytes are not one. */
export function decodeHeaderOf(kind: HeaderKind, buf: Buffer): { header: RunHeader; extra: number[] } | string {
  const fixed = headerBytesOf(kind, 0);
  if (buf.length < fixed) return `too short for a ${kind.name} header (${counted(buf.length, 'byte')})`;
  if (buf.toString('latin1', 0, 8) !== kind.magic) return `not a gocount ${kind.name} (bad magic)`;
  const version = buf.readUInt16LE(8);
  if (version !== kind.version && !kind.older?.includes(version)) {
    const older = kind.older ?? [];
    return `${kind.name} format version ${version}, this gocount reads ${older.length > 0 ? `versions ${older.join(', ')} and ${kind.version}` : `version ${kind.version}`}`;
  }
  const k = buf.readUInt8(13);
  const length = buf.readUInt16LE(10);
  if (k < 1 || length !== headerBytesOf(kind, k)) return `header length ${length} does not match ${k} residues`;
  if (buf.length < length) return 'header is cut short';
  const extra: number[] = [];
  for (let i = 0; i < kind.extraWords; i++) extra.push(buf.readUInt32LE(24 + 4 * i));
  const moduli: number[] = [];
  for (let i = 0; i < k; i++) moduli.push(buf.readUInt32LE(fixed + 4 * i));
  const header = {
    version,
    width: buf.readUInt8(12),
    columns: buf.readUInt16LE(14),
    step: buf.readUInt32LE(16),
    run: buf.readUInt32LE(20),
    moduli,
  };
  return { header, extra };
}

export const encodeHeader = (header: RunHeader): Buffer => encodeHeaderOf(RUN_FILE, header);

/** Decodes a header, or returns a sentence saying why the bytes are not one. */
export function decodeHeader(buf: Buffer): RunHeader | string {
  const decoded = decodeHeaderOf(RUN_FILE, buf);
  return typeof decoded === 'string' ? decoded : decoded.header;
}

/** The trailer less its CRC; the writer appends the CRC of everything before it. */
export function encodeTrailerBody(records: number, sums: ArrayLike<number>): Buffer {
  const buf = Buffer.alloc(trailerBytes(sums.length) - 4);
  buf.write(TRAILER_MAGIC, 0, 'latin1');
  buf.writeUInt32LE(records % 2 ** 32, 8);
  buf.writeUInt32LE(Math.floor(records / 2 ** 32), 12);
  for (let i = 0; i < sums.length; i++) buf.writeUInt32LE(sums[i], 16 + 4 * i);
  return buf;
}

export function decodeTrailer(buf: Buffer, residueCount: number): RunTrailer | string {
  if (buf.length !== trailerBytes(residueCount)) return 'trailer is cut short';
  if (buf.toString('latin1', 0, 8) !== TRAILER_MAGIC) return 'no trailer (bad trailer magic): the file is cut short or damaged';
  const sums: number[] = [];
  for (let i = 0; i < residueCount; i++) sums.push(buf.readUInt32LE(16 + 4 * i));
  return {
    records: buf.readUInt32LE(8) + buf.readUInt32LE(12) * 2 ** 32,
    sums,
    crc: buf.readUInt32LE(16 + 4 * residueCount),
  };
}
