/**
 * AssemblyScript: the k-way merge of sorted run files (lib/engine/run-merge.ts drives it), compiled
 * to WebAssembly by `npm run build` (asc). Each run's reader keeps its file buffer in this module's
 * memory; this module decodes the records in those buffers (delta varints, residue words), checks
 * them as lib/format/run-reader.ts does, keeps each run's record count and residue sums for its
 * trailer, and merges the runs in a tree of losers, adding the residues of equal states.
 *
 * The caller fills the buffers. When a run's undecoded bytes are fewer than a record may take and
 * its file has more, fill() stops with NEED_BYTES and names the run in needRun(); the caller reads
 * more into that buffer (setWindow) and calls fill() again, which goes on where it stopped.
 *
 * A state is one 64-bit integer here, hi · 2^30 + lo: the order of the runs.
 */

import { readVarint, varintEnd } from './record-codec.as';
import { addResidues, copyResidues } from '../residues/residue-words.as';
// The run sum reads the buffers here, in place (lib/format/run-sum.ts).
export { sumBlocks } from '../format/run-sum.as';

const LOW_BITS: u64 = 30;
const HIGH_UNIT: u64 = 1 << LOW_BITS;
/** Every varint of the format fits 32 bits. */
const MAX_U32: u64 = 0xffffffff;
/** The key of a spent run: above every state (each below 2^60), so it loses every match. */
const SPENT: u64 = u64.MAX_VALUE;
/** A node of the tree no run has reached yet, while the first records enter it. */
const EMPTY: i32 = -1;

/** fill()'s answers. */
const DONE: i32 = 0;
const NEED_BYTES: i32 = 1;
const DAMAGED: i32 = 2;

/** advance()'s answers. */
const RECORD: i32 = 0;
const END: i32 = 1;
const WAIT: i32 = 2;
const BAD: i32 = 3;

/** What a damaged record broke: the keys of RECORD_PROBLEMS in lib/format/run-reader.ts, and one more. */
const BAD_VARINT: i32 = 1;
const NOT_ABOVE: i32 = 2;
const OUT_OF_RANGE: i32 = 3;
const PAST_END: i32 = 4;
const RESIDUE_TOO_LARGE: i32 = 5;

// Per run (arrays of `most` entries, addresses set by init).
let bufAt: usize = 0; // u32: the address of its buffer
let pos: usize = 0; // u32: the next undecoded byte, from the buffer's start
let end: usize = 0; // u32: the end of the record bytes in the buffer
let more: usize = 0; // u32: 1 while its file has record bytes not yet in the buffer
let key: usize = 0; // u64: the current state, SPENT once the run has no more
let records: usize = 0; // f64: records decoded
let current: usize = 0; // u32 × k: the current record's residues
let sums: usize = 0; // u64 × k: residue sums of the records decoded, reduced by fold(); f64 after reducedSums()
let moduli: usize = 0; // u32 × k
// i32 × runs: the tree of losers. Node j < runs (j ≥ 1) holds the run that lost the match there,
// node 0 the run of the smallest state; run i's leaf is node runs + i, whose parent is (runs + i) >> 1.
let tree: usize = 0;
// The batch being filled: states as (hi, lo) words, residues k a record.
let outStates: usize = 0;
let outResidues: usize = 0;

let k: i32 = 0;
let runs: i32 = 0;
let started: i32 = 0; // runs whose first record is in the tree (or that have none)
let topPending: bool = false; // the winner's record was taken: advance its run before anything else
let combining: bool = false; // the last record out may still meet equal states
let lastKey: u64 = 0;
let filled: i32 = 0;
let waiting: i32 = -1;
let problem: i32 = 0;
let problemRun: i32 = -1;
let problemValue: u32 = 0;
let problemResidue: i32 = 0;
/** What each run's sums may have grown by since fold() last reduced them, in units of 2^32. */
let unfolded: u64 = 0;
/** fold() once the sums may have grown by this many times 2^32: they stay below 2^62 + 2^32. */
const FOLD_AFTER: u64 = 1 << 30;

export function heapBase(): usize {
  return __heap_base;
}

/** Takes the arrays' addresses (each sized by the caller for its most runs and residues). */
export function init(
  bufAtAt: usize,
  posAt: usize,
  endAt: usize,
  moreAt: usize,
  keyAt: usize,
  recordsAt: usize,
  currentAt: usize,
  sumsAt: usize,
  moduliAt: usize,
  treeAt: usize,
  outStatesAt: usize,
  outResiduesAt: usize,
): void {
  bufAt = bufAtAt;
  pos = posAt;
  end = endAt;
  more = moreAt;
  key = keyAt;
  records = recordsAt;
  current = currentAt;
  sums = sumsAt;
  moduli = moduliAt;
  tree = treeAt;
  outStates = outStatesAt;
  outResidues = outResiduesAt;
}

/** A new merge of `n` runs of `residues` residues (their moduli, buffers and windows set). */
export function begin(n: i32, residues: i32): void {
  runs = n;
  k = residues;
  started = 0;
  topPending = false;
  combining = false;
  problem = 0;
  waiting = -1;
  unfolded = 0;
  for (let i = 0; i < n; i++) {
    store<u64>(key + 8 * i, 0);
    store<f64>(records + 8 * i, 0);
    store<i32>(tree + 4 * i, EMPTY);
    for (let r = 0; r < k; r++) store<u64>(sums + 8 * (i * k + r), 0);
  }
}

/** Empties the batch: fill() writes from its start. */
export function beginBatch(): void {
  filled = 0;
}

export function filledRecords(): i32 {
  return filled;
}

export function needRun(): i32 {
  return waiting;
}

export function problemCode(): i32 {
  return problem;
}

export function problemInRun(): i32 {
  return problemRun;
}

export function problemNumber(): u32 {
  return problemValue;
}

export function problemResidueIndex(): i32 {
  return problemResidue;
}

/**
 * Fills the batch up to `capacity` distinct states, in order, equal states' residues added.
 * DONE: the batch is full or every run is spent (filledRecords() tells); NEED_BYTES: run needRun()
 * wants more bytes; DAMAGED: a record broke a rule (problemCode() and the rest tell).
 */
export function fill(capacity: i32): i32 {
  unfolded += <u64>capacity + 1;
  if (unfolded > FOLD_AFTER) {
    fold();
    unfolded = <u64>capacity + 1;
  }
  if (runs == 0) return DONE;
  while (started < runs) {
    const answer = advance(started);
    if (answer == WAIT) return stop(started);
    if (answer == BAD) return DAMAGED;
    if (answer == END) store<u64>(key + 8 * started, SPENT);
    enter(started);
    started++;
  }
  while (true) {
    if (topPending) {
      const top = load<i32>(tree);
      const answer = inline.always(advance(top)); // once a record: called, it took a tenth more
      if (answer == WAIT) return stop(top);
      if (answer == BAD) return DAMAGED;
      topPending = false;
      if (answer == END) store<u64>(key + 8 * top, SPENT);
      replay(top);
    }
    const top = load<i32>(tree);
    const topKey = load<u64>(key + 8 * top);
    if (combining) {
      if (topKey == lastKey) {
        addInto(filled - 1, top);
        topPending = true;
        continue;
      }
      combining = false;
    }
    if (filled >= capacity || topKey == SPENT) return DONE;
    lastKey = topKey;
    store<u32>(outStates + 8 * filled, <u32>(lastKey >> LOW_BITS));
    store<u32>(outStates + 8 * filled + 4, <u32>(lastKey & (HIGH_UNIT - 1)));
    copyResidues(outResidues + 4 * filled * k, current + 4 * top * k, k);
    filled++;
    combining = true;
    topPending = true;
  }
}

/**
 * Reduces every run's sums below their moduli. fill() does it when the sums may near 2^64: a run
 * holds each state once, so one call advances it at most capacity + 1 times, each adding less than
 * 2^32. Unreduced sums spare advance() a compare and a subtraction per residue, which in f64 took
 * about a third of the merge; reduced at every call, they would take runs × k remainders of 64 bits
 * each 1,024 records (189 at 21 runs of 9 residues).
 */
function fold(): void {
  for (let i = 0; i < runs; i++) {
    for (let r = 0; r < k; r++) {
      const at = sums + 8 * (i * k + r);
      store<u64>(at, load<u64>(at) % <u64>load<u32>(moduli + 4 * r));
    }
  }
}

/** Every run is spent: its sums, reduced, as f64 in the same words (the trailer checks read them so). */
export function reducedSums(): void {
  fold();
  for (let j = 0; j < runs * k; j++) store<f64>(sums + 8 * j, <f64>load<u64>(sums + 8 * j));
}

function stop(run: i32): i32 {
  waiting = run;
  return NEED_BYTES;
}

/** Adds run i's current residues into the batch's record `at`. */
function addInto(at: i32, i: i32): void {
  addResidues(outResidues + 4 * at * k, current + 4 * i * k, moduli, k);
}

/** Decodes run i's next record into its key and residues, checking it. */
function advance(i: i32): i32 {
  const at = load<u32>(pos + 4 * i);
  const limit = load<u32>(end + 4 * i);
  const k4 = <u32>(4 * k);
  // Fewer bytes than the longest record (two varints and the residues) while the file has more.
  if (limit - at < 10 + k4 && load<u32>(more + 4 * i) != 0) return WAIT;
  if (at >= limit) return END;
  const buf = <usize>load<u32>(bufAt + 4 * i);
  const count = load<f64>(records + 8 * i);
  // The first varint: 2·lo + 1 starts a new high word (its delta follows), 2·Δlo keeps it.
  const a = readVarint(buf, at, limit);
  if (a > MAX_U32) return bad(i, BAD_VARINT);
  let p = varintEnd;
  const previous = load<u64>(key + 8 * i);
  let hi = previous >> LOW_BITS;
  let lo = previous & (HIGH_UNIT - 1);
  if (a & 1) {
    const d = readVarint(buf, p, limit);
    if (d > MAX_U32) return bad(i, BAD_VARINT);
    p = varintEnd;
    if (count > 0 && d == 0) return bad(i, NOT_ABOVE);
    hi += d;
    lo = (a - 1) >> 1;
  } else {
    if (count == 0 || a == 0) return bad(i, NOT_ABOVE);
    lo += a >> 1;
  }
  if (lo >= HIGH_UNIT || hi >= HIGH_UNIT) return bad(i, OUT_OF_RANGE);
  if (p + k4 > limit) return bad(i, PAST_END);
  // Four residues at a time: checked below their moduli, kept, and added to the run's sums.
  const from = buf + p;
  const residues = current + 4 * i * k;
  const sum = sums + 8 * i * k;
  let r = 0;
  for (; r + 4 <= k; r += 4) {
    const v = v128.load(from + 4 * r);
    if (v128.any_true(i32x4.ge_u(v, v128.load(moduli + 4 * r)))) return residueTooLarge(i, from, r);
    v128.store(residues + 4 * r, v);
    const s = sum + 8 * r;
    v128.store(s, i64x2.add(v128.load(s), i64x2.extend_low_i32x4_u(v)));
    v128.store(s + 16, i64x2.add(v128.load(s + 16), i64x2.extend_high_i32x4_u(v)));
  }
  for (; r < k; r++) {
    const v = load<u32>(from + 4 * r);
    if (v >= load<u32>(moduli + 4 * r)) return residueTooLarge(i, from, r);
    store<u32>(residues + 4 * r, v);
    store<u64>(sum + 8 * r, load<u64>(sum + 8 * r) + <u64>v);
  }
  store<u32>(pos + 4 * i, p + k4);
  store<u64>(key + 8 * i, (hi << LOW_BITS) | lo);
  store<f64>(records + 8 * i, count + 1);
  return RECORD;
}

/** Names the first residue from index `r` on of the record at `from` that is not below its modulus. */
function residueTooLarge(i: i32, from: usize, r: i32): i32 {
  for (; load<u32>(from + 4 * r) < load<u32>(moduli + 4 * r); r++);
  problemValue = load<u32>(from + 4 * r);
  problemResidue = r;
  return bad(i, RESIDUE_TOO_LARGE);
}

function bad(i: i32, what: i32): i32 {
  problem = what;
  problemRun = i;
  return BAD;
}

/**
 * Run i's first record (or SPENT) enters the tree: going up from its leaf, it waits at the first
 * node no run has reached, or plays the run waiting there, and the winner goes on. Once every run
 * has entered, each node below the root holds a loser and node 0 the winner.
 */
function enter(i: i32): void {
  let w = i;
  for (let node = (runs + i) >> 1; node > 0; node >>= 1) {
    const at = tree + 4 * node;
    const other = load<i32>(at);
    if (other == EMPTY) {
      store<i32>(at, w);
      return;
    }
    if (load<u64>(key + 8 * other) < load<u64>(key + 8 * w)) {
      store<i32>(at, w);
      w = other;
    }
  }
  store<i32>(tree, w);
}

/**
 * The winner, run i, has a new key: it replays the matches on its way from its leaf to the root,
 * one per level and without a branch (which run wins is as good as random), where a binary heap
 * takes two comparisons a level.
 */
function replay(i: i32): void {
  let w = i;
  let wKey = load<u64>(key + 8 * i);
  for (let node = (runs + i) >> 1; node > 0; node >>= 1) {
    const at = tree + 4 * node;
    const other = load<i32>(at);
    const otherKey = load<u64>(key + 8 * other);
    const otherWins = otherKey < wKey;
    store<i32>(at, select<i32>(w, other, otherWins));
    w = select<i32>(other, w, otherWins);
    wKey = select<u64>(otherKey, wKey, otherWins);
  }
  store<i32>(tree, w);
}
