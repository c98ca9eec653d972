/**
 * The split run file, version 3: one file per worker and round of a partitioned count, holding the
 * run's records for every owner. All integers little-endian.
 *
 *   header   "GOCNTSPL" · u16 version · u16 header bytes · u8 width · u8 K · u16 columns
 *            · u32 step · u32 run · u32 owners · u32 writer · u32 window (u8 first row r · u8 rows
 *            · u8 bit 0: in the board's last column, bit 1: string keys) · 4,096 × u16 owner of each
 *            key bucket · K × u32 moduli
 *            (version 1, which this gocount still reads, has neither window nor owner table, and
 *            its records are owned by ownerOf, lib/border/ownership.ts; version 2 is laid out as
 *            version 3)
 *   chunks   from the header's end to the index: each a slice of one owner's records, whole
 *            records in the run file encoding (layout.ts). An owner's chunks, in file order, are
 *            its section: one record stream, each delta taken from the record before it in the
 *            section (from state 0 before its first), so a section reads as a run file's records.
 *   index    per owner, in order, its section: u32 first chunk · u32 chunks · u32 records low
 *            · u32 high · u32 checksum of the section's bytes in order · K × u32 residue sums;
 *            then per chunk, by owner and within an owner in file order: u32 owner · u32 offset
 *            low · u32 high · u32 bytes · u32 records
 *   footer   "GOCNTIDX" · u32 index offset low · u32 high · u32 chunks · u32 records low · u32 high
 *            · K × u32 residue sums · u32 checksum of every byte before it
 *
 * The checksums are run sums (run-sum.ts) from version 3, CRC-32s before; an empty section's is 0.
 *
 * A record belongs to the owner of its window key's bucket (lib/border/window-key.ts: the key for
 * the window of the step that made it, which holds the step before the header's), so the file says
 * who owns what without its count folder.
 *
 * A reader of one owner's records reads the header, the footer, its section's entry and its chunk
 * entries, then its chunks: a few small reads and its own bytes, whatever the owners.
 */

import { counted } from '../shared/plural.js';
import { Crc32, type FileChecksum, RunSum } from './run-sum.js';
import { BUCKETS } from '../border/window-key.js';
import { checksumOfFile, decodeHeaderOf, encodeHeaderOf, headerBytesOf, type HeaderKind, type RunHeader } from './layout.js';

export const SPLIT_VERSION = 3;
export const SPLIT_MAGIC = 'GOCNTSPL';
export const INDEX_MAGIC = 'GOCNTIDX';

/** A split run's header: a run's, and the owners its index covers and the worker that wrote it. */
export interface SplitHeader extends RunHeader {
  readonly owners: number;
  readonly writer: number;
  /** From version 2: the window its records were split by, and each key bucket's owner. */
  readonly window?: SplitRule;
}

/** The window a split run's records were split by: its first row, rows and column, and the owner of each key bucket. */
export interface SplitRule {
  readonly r: number;
  readonly rows: number;
  readonly lastColumn: boolean;
  readonly owners: Uint16Array;
  /** Keyed by strings too (lib/border/window-key.ts, stringKeyOfBorder). */
  readonly strings?: boolean;
}

/** One owner's section, as the index lists it. */
export interface SectionEntry {
  readonly firstChunk: number;
  readonly chunks: number;
  readonly records: number;
  /** The checksum of its bytes (splitChecksum): 0 when it has none. */
  readonly crc: number;
  readonly sums: number[];
}

/** One chunk, as the index lists it. */
export interface ChunkEntry {
  readonly owner: number;
  readonly offset: number;
  readonly bytes: number;
  readonly records: number;
}

export interface SplitFooter {
  readonly indexOffset: number;
  readonly chunks: number;
  readonly records: number;
  readonly sums: number[];
  readonly crc: number;
}

const SPLIT_FILE: HeaderKind = {
  magic: SPLIT_MAGIC,
  name: 'split run file',
  version: SPLIT_VERSION,
  older: [1, 2],
  extraWords: 3 + BUCKETS / 2,
};
const SPLIT_FILE_1: HeaderKind = { ...SPLIT_FILE, version: 1, extraWords: 2 };
const kindOf = (version: number) => (version === 1 ? SPLIT_FILE_1 : SPLIT_FILE);

/**
 * The checksum of a split run of `version`, or of one of its sections: the run sum from version 3,
 * the CRC-32 before. Of no bytes it is 0, as an empty section's entry gives it.
 */
export function splitChecksum(version: number): FileChecksum {
  if (version < 3) return new Crc32();
  const sum = new RunSum();
  let bytes = 0;
  return {
    name: sum.name,
    update: (more: Uint8Array) => {
      bytes += more.length;
      sum.update(more);
    },
    value: () => (bytes === 0 ? 0 : sum.value()),
  };
}

/** The checksum that ends the file whose first bytes are `head`: a split run's or a run file's, by its version. */
export function checksumOfAnyRun(head: Uint8Array): FileChecksum {
  const isSplit = head.length >= 10 && Buffer.from(head.buffer, head.byteOffset, 8).toString('latin1') === SPLIT_MAGIC;
  return isSplit ? splitChecksum(head[8] | (head[9] << 8)) : checksumOfFile(head);
}

/** Bytes of a split run's header of k residues, of the version this gocount writes or of `version`. */
export const splitHeaderBytes = (k: number, version = SPLIT_VERSION): number => headerBytesOf(kindOf(version), k);
/** Bytes to read to be sure of a whole header, of any version and residues. */
export const MOST_SPLIT_HEADER_BYTES = splitHeaderBytes(255);
export const sectionEntryBytes = (k: number): number => 20 + 4 * k;
export const CHUNK_ENTRY_BYTES = 20;
export const splitFooterBytes = (k: number): number => 32 + 4 * k;
/** Bytes of the index of `owners` sections and `chunks` chunks. */
export const indexBytes = (owners: number, chunks: number, k: number): number => owners * sectionEntryBytes(k) + chunks * CHUNK_ENTRY_BYTES;

const writeU64 = (buf: Buffer, value: number, at: number) => {
  buf.writeUInt32LE(value % 2 ** 32, at);
  buf.writeUInt32LE(Math.floor(value / 2 ** 32), at + 4);
};
const readU64 = (buf: Buffer, at: number) => buf.readUInt32LE(at) + buf.readUInt32LE(at + 4) * 2 ** 32;

export function encodeSplitHeader(header: SplitHeader): Buffer {
  const { window } = header;
  if (!window) throw new RangeError('a split run of this version names its window');
  const table = new Uint32Array(window.owners.buffer.slice(window.owners.byteOffset, window.owners.byteOffset + 2 * BUCKETS));
  const rule = window.r | (window.rows << 8) | ((window.lastColumn ? 1 : 0) << 16) | ((window.strings ? 1 : 0) << 17);
  return encodeHeaderOf(SPLIT_FILE, header, [header.owners, header.writer, rule, ...table]);
}

/** Decodes a split run's header from the file's first bytes, or returns a sentence saying why they are not one. */
export function decodeSplitHeader(buf: Buffer): SplitHeader | string {
  const version = buf.length >= 10 ? buf.readUInt16LE(8) : SPLIT_VERSION;
  const decoded = decodeHeaderOf(kindOf(version), buf);
  if (typeof decoded === 'string') return decoded;
  const [owners, writer, rule] = decoded.extra;
  if (owners < 1) return 'header gives no owners';
  const { width, columns, step, run, moduli } = decoded.header;
  const header = { version, width, columns, step, run, owners, writer, moduli };
  if (version === 1) return header;
  const r = rule & 0xff;
  const rows = (rule >>> 8) & 0xff;
  if (rows < 1 || r >= width || rule >>> 18 !== 0) return `header gives no window of a board ${width} wide`;
  const table = Uint32Array.from(decoded.extra.slice(3));
  const bucketOwners = new Uint16Array(table.buffer);
  if (bucketOwners.some((owner) => owner >= owners)) return `header's owner table names owners past its ${owners}`;
  return {
    ...header,
    window: { r, rows, lastColumn: ((rule >>> 16) & 1) === 1, strings: ((rule >>> 17) & 1) === 1, owners: bucketOwners },
  };
}

export function encodeSectionEntry(entry: SectionEntry, buf: Buffer, at: number): void {
  buf.writeUInt32LE(entry.firstChunk, at);
  buf.writeUInt32LE(entry.chunks, at + 4);
  writeU64(buf, entry.records, at + 8);
  buf.writeUInt32LE(entry.crc, at + 16);
  entry.sums.forEach((sum, r) => buf.writeUInt32LE(sum, at + 20 + 4 * r));
}

export function decodeSectionEntry(buf: Buffer, at: number, k: number): SectionEntry {
  const sums: number[] = [];
  for (let r = 0; r < k; r++) sums.push(buf.readUInt32LE(at + 20 + 4 * r));
  return {
    firstChunk: buf.readUInt32LE(at),
    chunks: buf.readUInt32LE(at + 4),
    records: readU64(buf, at + 8),
    crc: buf.readUInt32LE(at + 16),
    sums,
  };
}

export function encodeChunkEntry(entry: ChunkEntry, buf: Buffer, at: number): void {
  buf.writeUInt32LE(entry.owner, at);
  writeU64(buf, entry.offset, at + 4);
  buf.writeUInt32LE(entry.bytes, at + 12);
  buf.writeUInt32LE(entry.records, at + 16);
}

export function decodeChunkEntry(buf: Buffer, at: number): ChunkEntry {
  return {
    owner: buf.readUInt32LE(at),
    offset: readU64(buf, at + 4),
    bytes: buf.readUInt32LE(at + 12),
    records: buf.readUInt32LE(at + 16),
  };
}

/** The footer less its CRC; the writer appends the CRC of everything before it. */
export function encodeFooterBody(footer: Omit<SplitFooter, 'crc'>): Buffer {
  const buf = Buffer.alloc(splitFooterBytes(footer.sums.length) - 4);
  buf.write(INDEX_MAGIC, 0, 'latin1');
  writeU64(buf, footer.indexOffset, 8);
  buf.writeUInt32LE(footer.chunks, 16);
  writeU64(buf, footer.records, 20);
  footer.sums.forEach((sum, r) => buf.writeUInt32LE(sum, 28 + 4 * r));
  return buf;
}

export function decodeFooter(buf: Buffer, k: number): SplitFooter | string {
  if (buf.length !== splitFooterBytes(k)) return 'footer is cut short';
  if (buf.toString('latin1', 0, 8) !== INDEX_MAGIC) return 'no footer (bad footer magic): the file is cut short or damaged';
  const sums: number[] = [];
  for (let r = 0; r < k; r++) sums.push(buf.readUInt32LE(28 + 4 * r));
  return { indexOffset: readU64(buf, 8), chunks: buf.readUInt32LE(16), records: readU64(buf, 20), sums, crc: buf.readUInt32LE(28 + 4 * k) };
}

/**
 * What is wrong with a footer's index offset and chunk count for a file of `size` bytes, or
 * undefined: the index must fill the bytes between the chunks and the footer exactly.
 */
export function indexPlaceProblem(header: SplitHeader, footer: SplitFooter, size: number): string | undefined {
  const k = header.moduli.length;
  if (footer.indexOffset < splitHeaderBytes(k, header.version))
    return `footer places the index at byte ${footer.indexOffset}, inside the header`;
  if (footer.indexOffset + indexBytes(header.owners, footer.chunks, k) + splitFooterBytes(k) !== size)
    return `footer's index (at byte ${footer.indexOffset}, ${counted(header.owners, 'owner')}, ${counted(footer.chunks, 'chunk')}) does not end where the footer begins`;
  return undefined;
}
