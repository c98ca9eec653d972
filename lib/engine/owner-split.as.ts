/**
 * AssemblyScript: splits a partitioned worker's sorted run by owner as it encodes it (lib/engine/
 * owner-split.ts drives it), compiled to WebAssembly by `npm run build` (asc). Each owner has a
 * chunk buffer in this module's memory; a record goes to its owner's chunk (the owner of its
 * window key's bucket, lib/border/window-key.ts: routeByWindow) in the run file's record encoding,
 * its delta taken from the owner's previous record, so that the chunks of one owner, in order, are one record stream. When a
 * chunk has no room for another record, split() stops and the caller writes the chunk out.
 *
 * The caller lays out the fixed arrays above heapBase() and passes their addresses to init(): the
 * moduli, each owner's state (below) and the chunks. From `staging` on, the records to split are
 * staged, their states as (hi, lo) words, then their residues, k words a record; that region grows
 * with memory.grow, which detaches the caller's views: it renews them after stage().
 */

import { bucketOf, setStringKeys, setWindow, windowKeyAt } from '../border/window-key.as';
import { putKey } from './record-codec.as';
import { copyResiduesAndSum } from '../residues/residue-words.as';
// The run sum's loop, so that the split run's checksums read the chunks where they are (lib/format/run-sum.ts).
export { sumBlocks } from '../format/run-sum.as';

const PAGE_BYTES: u64 = 65536;

// An owner's state, at state + owner · stateBytes.
const FILL = 0; // u32: bytes in its chunk
const CHUNK_RECORDS = 4; // u32: records in its chunk
const PREV_HI = 8; // u32: its last record's state, which the next one's delta is taken from
const PREV_LO = 12;
const STARTED = 16; // u32: 1 once it has a record in this file
const SUMS = 24; // u64 × k: each residue's sum over its records in this file

let moduli: usize = 0;
let state: usize = 0;
let stateBytes: usize = 0;
let chunks: usize = 0;
let chunkBytes: u32 = 0;
let owners: i32 = 0;
let staging: usize = 0;
let stagingBytes: usize = 0;
let k: u32 = 0;
/** The most bytes a record takes: two varints and k residues. */
let recordBytes: u32 = 0;
let full: i32 = -1;
/** The owner table (u16 per key bucket), and the step whose slots the records' fields lie in. */
let ownerTable: usize = 0;
let layoutStep: i32 = 0;
/** Every record to this owner (−1: each to its own), inside a window whose parents were all this owner's. */
let everyTo: i32 = -1;

export function heapBase(): usize {
  return __heap_base;
}

/**
 * Takes the fixed arrays' addresses: the moduli (u32, at most `mostResidues`), the owners' states
 * (stateStride bytes each) and their chunks (`bytesPerChunk` each); staging starts at stagingAt.
 */
export function init(
  moduliAt: usize,
  stateAt: usize,
  stateStride: usize,
  chunksAt: usize,
  ownerCount: i32,
  bytesPerChunk: u32,
  stagingAt: usize,
): void {
  moduli = moduliAt;
  state = stateAt;
  stateBytes = stateStride;
  chunks = chunksAt;
  owners = ownerCount;
  chunkBytes = bytesPerChunk;
  staging = (stagingAt + 7) & ~7;
  stagingBytes = 0;
}

/**
 * From now on each record goes to the owner of its key's bucket in the table at `tableAt`, for the
 * window of `rows` rows from row r (lib/border/window-key.ts), the records' fields in the slots of
 * step y; `strings`: by string keys (window-key.as.ts). With `all` ≥ 0 every record goes to owner
 * `all`: the successors, inside a window, of parents that owner held, whose keys are theirs.
 */
export function routeByWindow(tableAt: usize, r: i32, rows: i32, width: i32, lastColumn: bool, y: i32, all: i32, strings: bool): void {
  ownerTable = tableAt;
  layoutStep = y;
  everyTo = all;
  setWindow(r, rows, width, lastColumn);
  setStringKeys(strings);
}

/** A new file of records of `residues` residues (the moduli are at moduliAt): every owner empty. */
export function begin(residues: u32): void {
  k = residues;
  recordBytes = 10 + 4 * residues;
  memory.fill(state, 0, <usize>owners * stateBytes);
  full = -1;
}

/** Room to stage n records; returns the staging address (states, then residues from n · 8 on). */
export function stage(n: i32): usize {
  const bytes = <u64>n * ((<u64>k + 2) << 2);
  if (bytes > <u64>stagingBytes) {
    const end = <u64>staging + bytes;
    const have = <u64>memory.size() * PAGE_BYTES;
    if (end > have && (end > (<u64>1) << 32 || memory.grow(<i32>((end - have + PAGE_BYTES - 1) / PAGE_BYTES)) < 0)) abort();
    stagingBytes = <usize>bytes;
  }
  return staging;
}

/**
 * Encodes staged records [from, n) of stage(n), in increasing order of state, each into its
 * owner's chunk. Returns n, or i + 1 when record i left its owner's chunk without room for another:
 * fullOwner() names it (else it is −1), and the caller writes that chunk out, calls taken(), and
 * goes on from i + 1.
 */
export function split(n: i32, from: i32): i32 {
  const states = staging;
  const residues = staging + ((<usize>n) << 3);
  const residueBytes = (<usize>k) << 2;
  full = -1;
  for (let i = from; i < n; i++) {
    const at = states + ((<usize>i) << 3);
    const hi = load<u32>(at);
    const lo = load<u32>(at, 4);
    const d = owners == 1 ? 0 : everyTo >= 0 ? everyTo : windowOwner(hi, lo);
    const s = state + <usize>d * stateBytes;
    const fill = load<u32>(s, FILL);
    let pos = chunks + <usize>d * <usize>chunkBytes + <usize>fill;
    const start = pos;
    const prevHi = load<u32>(s, PREV_HI);
    pos = putKey(pos, hi, lo, prevHi, load<u32>(s, PREV_LO), load<u32>(s, STARTED) == 0);
    store<u32>(s, 1, STARTED);
    copyResiduesAndSum(pos, residues + <usize>i * residueBytes, s + SUMS, <i32>k);
    pos += residueBytes;
    store<u32>(s, hi, PREV_HI);
    store<u32>(s, lo, PREV_LO);
    const filled = fill + <u32>(pos - start);
    store<u32>(s, filled, FILL);
    store<u32>(s, load<u32>(s, CHUNK_RECORDS) + 1, CHUNK_RECORDS);
    if (chunkBytes - filled < recordBytes) {
      full = d;
      return i + 1;
    }
  }
  return n;
}

function windowOwner(hi: u32, lo: u32): i32 {
  const key = windowKeyAt(((<u64>hi) << 30) | (<u64>lo), layoutStep); // lo holds 30 bits (lib/border/layout.ts)
  return <i32>load<u16>(ownerTable + ((<usize>bucketOf(key)) << 1));
}

/** The owner whose chunk split() found full. */
export function fullOwner(): i32 {
  return full;
}

/** Where owner d's chunk is, and its bytes and records so far. */
export function chunkAt(d: i32): usize {
  return chunks + <usize>d * <usize>chunkBytes;
}

export function chunkFill(d: i32): u32 {
  return load<u32>(state + <usize>d * stateBytes, FILL);
}

export function chunkRecords(d: i32): u32 {
  return load<u32>(state + <usize>d * stateBytes, CHUNK_RECORDS);
}

/** Owner d's chunk was written out: it is empty again; its residue sums are reduced meanwhile. */
export function taken(d: i32): void {
  const s = state + <usize>d * stateBytes;
  store<u32>(s, 0, FILL);
  store<u32>(s, 0, CHUNK_RECORDS);
  reduce(s);
}

/** Owner d's residue sums over the file so far, each reduced by its modulus: k u64 at the returned address. */
export function sumsAt(d: i32): usize {
  const s = state + <usize>d * stateBytes;
  reduce(s);
  return s + SUMS;
}

/** A chunk's bytes, records and sums fit 32 bits; the sums are reduced at every chunk so they never overflow. */
function reduce(s: usize): void {
  for (let r: usize = 0; r < <usize>k; r++) {
    const sum = s + SUMS + (r << 3);
    store<u64>(sum, load<u64>(sum) % <u64>load<u32>(moduli + (r << 2)));
  }
}

/** Exported for the tests: the owner of (hi, lo) by the window routeByWindow set. */
export function windowOwnerOfState(hi: u32, lo: u32): i32 {
  return windowOwner(hi, lo);
}
