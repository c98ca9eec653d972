/**
 * A no-cycle solve's table of earlier results on disk, beside its checkpoint
 * (lib/solve/files/search-checkpoint.ts). The values alone resume a solve, but its next searches then
 * prove again what the table held: 1×11, stopped after 2 minutes and resumed without it, had
 * searched more again than its whole solve takes (docs/solve.md). A bound in the table holds for
 * any later search of the same board, rule and scoring, so a table saved at any time serves any
 * later checkpoint.
 *
 * The file: a header line of JSON (format gocount-solve-table, version, the board and state space
 * as a database's header gives them, the table's shape: its filters' words and whether they are
 * exact, its buckets and ways, and the byte length of each of its arrays), then per array a bitmap
 * of its blocks of 4 KiB (a memory page) that hold a byte other than zero, one bit a block, the
 * lowest bit first, followed by those blocks; then the CRC-32 of everything before it, 4 bytes
 * little-endian. Most of a large table is never written to: its blocks are left out, and a table
 * taken back touches no more pages than the one saved. Written under a temporary name and renamed,
 * so a file with this name is whole.
 */

import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { syncDirectory } from '../../format/atomic.js';
import type { Problem } from '../../verify/problems.js';
import type { HistoryTable } from '../no-cycle/history-table.js';
import { headerLine } from '../../format/framed-file.js';
import { differingField, solveHeader, type SolveFileHeader } from './solve-file.js';
import type { StateSpace } from '../rules/state-space.js';
import { counted } from '../../shared/plural.js';

export const TABLE_FORMAT = 'gocount-solve-table';
export const TABLE_VERSION = 1;
const BLOCK = 4096;
const ZERO = Buffer.alloc(BLOCK);
/** The most blocks one read or write moves: 64 MiB. */
const SPAN = 16384;
/** The most bytes a header line may take. */
const HEADER_BYTES = 65536;

/** What must match for a table to take another's arrays. */
export interface TableShape {
  readonly words: number;
  readonly exact: boolean;
  readonly buckets: number;
  readonly ways: number;
}

export interface TableHeader extends SolveFileHeader, TableShape {
  readonly lengths: number[];
  readonly hits: number;
}

/** Blocks first to end of an array, as bytes: an array can be longer than a Buffer may be (4 GiB). */
const blocksOf = (view: ArrayBufferView, first: number, end: number): Buffer =>
  Buffer.from(view.buffer, view.byteOffset + first * BLOCK, Math.min(end * BLOCK, view.byteLength) - first * BLOCK);
const blockOf = (view: ArrayBufferView, b: number): Buffer => blocksOf(view, b, b + 1);
const isZero = (block: Buffer): boolean => block.equals(ZERO.subarray(0, block.length));
const bitmapBytes = (length: number): number => Math.ceil(Math.ceil(length / BLOCK) / 8);
const isSet = (map: Buffer, b: number): boolean => (map[b >> 3] & (1 << (b & 7))) !== 0;

/** The runs of blocks the bitmap sets, as [first, end) pairs of at most SPAN blocks, of an array of this length. */
function* spans(map: Buffer, length: number): Generator<[number, number]> {
  const blocks = Math.ceil(length / BLOCK);
  for (let b = 0; b < blocks; b++) {
    if (!isSet(map, b)) continue;
    const first = b;
    while (b + 1 < blocks && b + 1 - first < SPAN && isSet(map, b + 1)) b++;
    yield [first, b + 1];
  }
}

function tableHeader(space: StateSpace, table: HistoryTable): TableHeader {
  const { buckets, ways, bits } = table;
  const shape = { words: bits.words, exact: bits.exact, buckets, ways };
  return {
    ...solveHeader(TABLE_FORMAT, TABLE_VERSION, space),
    ...shape,
    lengths: table.arrays().map((a) => a.byteLength),
    hits: table.hits,
  };
}

export function writeTableFile(file: string, space: StateSpace, table: HistoryTable): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  let position = 0;
  let crc = 0;
  const put = (bytes: Uint8Array, counted = true) => {
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
    position += bytes.length;
    if (counted) crc = crc32(bytes, crc);
  };
  try {
    put(Buffer.from(`${JSON.stringify(tableHeader(space, table))}\n`));
    for (const view of table.arrays()) {
      const map = Buffer.alloc(bitmapBytes(view.byteLength));
      for (let b = 0; b * BLOCK < view.byteLength; b++) if (!isZero(blockOf(view, b))) map[b >> 3] |= 1 << (b & 7);
      put(map);
      for (const [first, end] of spans(map, view.byteLength)) put(blocksOf(view, first, end));
    }
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32LE(crc);
    put(trailer, false);
    fsyncSync(fd);
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  renameSync(temp, file);
  syncDirectory(dirname(file));
}

/**
 * Reads a table file into `table` when its header matches the table's own (else returns what
 * differs, the table untouched), or with no table only checks it; returns the one thing wrong
 * with a damaged file.
 */
export function readTableFile(
  file: string,
  space?: StateSpace,
  table?: HistoryTable,
): { header: TableHeader } | { differs: string } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return { problem: `cannot be read (${(error as Error).message})` };
  }
  try {
    return readOpen(fd, statSync(file).size, space, table);
  } finally {
    closeSync(fd);
  }
}

function readOpen(
  fd: number,
  size: number,
  space: StateSpace | undefined,
  table: HistoryTable | undefined,
): { header: TableHeader } | { differs: string } | { problem: string } {
  let position = 0;
  let crc = 0;
  const take = (into: Uint8Array): boolean => {
    for (let done = 0; done < into.length;) {
      const read = readSync(fd, into, done, into.length - done, position + done);
      if (read === 0) return false;
      done += read;
    }
    position += into.length;
    crc = crc32(into, crc);
    return true;
  };
  const start = Buffer.alloc(Math.min(size, HEADER_BYTES));
  readSync(fd, start, 0, start.length, 0);
  const line = headerLine<TableHeader>(start, TABLE_FORMAT);
  if (typeof line === 'string') return { problem: line };
  const { header, newline } = line;
  if (header.version !== TABLE_VERSION) return { problem: `version ${header.version}; this gocount reads version ${TABLE_VERSION}` };
  if (space && table) {
    const fields = ['m', 'n', 'rule', 'scoring', 'positions', 'states', 'words', 'exact', 'buckets', 'ways'] as const;
    const own = tableHeader(space, table);
    const differs = differingField(header, own, [...fields]) ?? differingLengths(header.lengths, own.lengths);
    if (differs !== undefined) return { differs };
  }
  if (!Array.isArray(header.lengths) || !header.lengths.every((length) => Number.isSafeInteger(length) && length >= 0))
    return { problem: 'its header gives no byte lengths of its arrays' };
  take(start.subarray(0, newline + 1));
  // Checked without a table, each block is read into one scratch block.
  const own = table?.arrays();
  const scratch = own ? undefined : Buffer.alloc(SPAN * BLOCK);
  for (const [i, length] of header.lengths.entries()) {
    const map = Buffer.alloc(bitmapBytes(length));
    if (!take(map)) return { problem: `cut short at byte ${position}` };
    for (const [first, end] of spans(map, length)) {
      const bytes = Math.min(end * BLOCK, length) - first * BLOCK;
      if (!take(own ? blocksOf(own[i], first, end) : scratch!.subarray(0, bytes))) return { problem: `cut short at byte ${position}` };
    }
    // A fresh table holds zeros, but for its entries' states (-1): a block saved as zeros is made so.
    if (own) for (let b = 0; b * BLOCK < length; b++) if (!isSet(map, b) && !isZero(blockOf(own[i], b))) blockOf(own[i], b).fill(0);
  }
  const trailer = Buffer.alloc(4);
  if (readSync(fd, trailer, 0, 4, position) !== 4 || position + 4 !== size)
    return { problem: `${counted(size, 'byte')} where its blocks and CRC take ${position + 4}` };
  if (trailer.readUInt32LE() !== crc) return { problem: 'CRC-32 mismatch: the file is damaged' };
  if (table) table.hits = header.hits;
  return { header };
}

/** Where two lists of array lengths differ, said briefly: a table's lists run to 15 numbers of up to 11 digits. */
function differingLengths(theirs: unknown, own: number[]): string | undefined {
  if (!Array.isArray(theirs) || theirs.length !== own.length)
    return `it holds ${Array.isArray(theirs) ? theirs.length : 'no list of'} arrays, this solve's table ${own.length}`;
  const i = own.findIndex((length, k) => theirs[k] !== length);
  return i < 0 ? undefined : `its array ${i + 1} is ${theirs[i]} bytes, this solve's ${own[i]}`;
}

/** Checks a table file offline: readable and whole, its CRC-32 right. */
export function checkTableFile(file: string): { states: number; problems: Problem[] } {
  const read = readTableFile(file);
  if ('problem' in read) return { states: 0, problems: [{ file, problem: read.problem }] };
  return { states: 'header' in read ? read.header.states : 0, problems: [] };
}
