/**
 * A transposition table for the no-cycle history search that knows what each result owes to the
 * history before its node (the graph-history interaction): a bound found after one history is
 * reused after another only where its proof still stands.
 *
 * Superko only takes moves away. A lower bound on a node's value is proved by one move of its
 * player and an upper bound on the child it leads to; an upper bound by every move allowed, each
 * child bounded from below. So a lower bound needs the moves of its proof to stay allowed, an upper
 * bound needs the moves the history barred to stay barred. Each bound carries, for its proof,
 * - `blocked`: the situations of the earlier history that barred a move; each must be in the new
 *   history too (at most BLOCKED of them, else the bound is not kept);
 * - `reached`: a filter of the situations its stone moves reached; none may be in the new history;
 * - per parity, the lowest threshold and the latest entry of the forced bounds used: the new
 *   history may hold no position that breaks them (lib/solve/no-cycle/history-path.ts).
 * Situations and parities are stored relative to the node's parity, so a bound serves the node with
 * either player to move.
 *
 * The table also keeps, for each state, the move that last proved a lower bound there, whatever the
 * history: the search tries it first. It only orders moves, so it owes the history nothing. With it,
 * the databases of 1×9 to 1×11 and 4×4 take a third fewer search nodes (docs/solve.md).
 */

import { groupShiftOf, grown, HistoryPath, SituationBits, swapParities } from './history-path.js';

/** The most earlier-history situations a bound may depend on being there. */
const BLOCKED = 16;
/**
 * Entries per bucket: bounds of one state after different histories, or of states sharing it. A
 * table with room for more entries per state than the least gives each bucket more of them, up to
 * the most: on 1×8, from the empty board, searched at full depth (no depth limits), 64 found the
 * value in 2.2·10^6 search nodes (5 s) where 8 and 32 had not in minutes.
 */
const LEAST_WAYS = 8;
const MOST_WAYS = 64;
/** The most entries a table holds per state: twice the most ways, a bucket for every other state. */
export const MOST_ENTRIES_PER_STATE = 2 * MOST_WAYS;
/** No forced bound used: every threshold and entry passes. */
const NO_THRESHOLD = 127;

/**
 * Non-zero words a record lists, at most: most proofs reach a few situations (98.5% of the bounds
 * stored in 1×10's first 20 s had reached 32 or fewer), and a record's filter can be 4,096 words long.
 */
const LISTED_WORDS = 16;
/** A record's word count once its non-zero words are more than it lists: its groups say where they are. */
export const UNLISTED = 255;

/** What a bound owes to the history: a set of records, each as described above. */
export class Dependencies {
  reached: Uint32Array;
  /** Per record, which groups of `reached` words may be non-zero: the rest are never read. */
  groups: Uint32Array;
  /**
   * Per record, its non-zero words of `reached` while they are few (`listed` of them, at `list`),
   * so that clearing, merging and testing it touch those alone; UNLISTED beyond, and its groups serve.
   */
  list: Uint16Array;
  listed: Uint8Array;
  blocked: Int32Array;
  blockedAt: Int32Array;
  blockedCount: Uint8Array;
  /** The least depth of a situation that barred a move but did not fit in `blocked`. */
  droppedAt: Int32Array;
  threshold: Int8Array;
  entered: Uint32Array;
  readonly words: number;
  /** Words per group, as a shift (groupShiftOf). */
  private readonly groupShift: number;

  constructor(words: number, records: number) {
    this.words = words;
    this.groupShift = groupShiftOf(words);
    this.reached = new Uint32Array(records * words);
    this.groups = new Uint32Array(records);
    this.list = new Uint16Array(records * LISTED_WORDS);
    this.listed = new Uint8Array(records);
    this.blocked = new Int32Array(records * BLOCKED);
    this.blockedAt = new Int32Array(records * BLOCKED);
    this.blockedCount = new Uint8Array(records);
    this.droppedAt = new Int32Array(records);
    this.threshold = new Int8Array(records * 2);
    this.entered = new Uint32Array(records * 2);
  }

  get records(): number {
    return this.blockedCount.length;
  }

  /** Every array of the records, in a fixed order (HistoryTable.arrays). */
  arrays(): ArrayBufferView[] {
    const { reached, groups, list, listed, blocked, blockedAt, blockedCount, droppedAt, threshold, entered } = this;
    return [reached, groups, list, listed, blocked, blockedAt, blockedCount, droppedAt, threshold, entered];
  }

  /** The first word of the lowest group in the group set g. */
  private firstWord(g: number): number {
    return (31 - Math.clz32(g & -g)) << this.groupShift;
  }

  /** Nothing owed. */
  clear(r: number): void {
    const count = this.listed[r];
    if (count !== UNLISTED) {
      for (let i = 0; i < count; i++) this.reached[r * this.words + this.list[r * LISTED_WORDS + i]] = 0;
    } else {
      const size = 1 << this.groupShift;
      for (let g = this.groups[r]; g !== 0; g &= g - 1) {
        const at = r * this.words + this.firstWord(g);
        this.reached.fill(0, at, at + size);
      }
    }
    this.listed[r] = 0;
    this.groups[r] = 0;
    this.blockedCount[r] = 0;
    this.droppedAt[r] = 0x7fffffff;
    this.threshold[2 * r] = this.threshold[2 * r + 1] = NO_THRESHOLD;
    this.entered[2 * r] = this.entered[2 * r + 1] = 0;
  }

  /** A stone move of the proof reached the situation with this filter bit. */
  reach(r: number, bit: number): void {
    this.orWord(r, bit >>> 5, 1 << (bit & 31));
  }

  /** ORs bits into word w of record r's filter, listing the word if it was zero. */
  private orWord(r: number, w: number, bits: number): void {
    const at = r * this.words + w;
    const count = this.listed[r];
    if (this.reached[at] === 0 && count !== UNLISTED) {
      if (count === LISTED_WORDS) this.listed[r] = UNLISTED;
      else {
        this.list[r * LISTED_WORDS + count] = w;
        this.listed[r] = count + 1;
      }
    }
    this.reached[at] |= bits;
    this.groups[r] |= 1 << (w >>> this.groupShift);
  }

  /** ORs record f of `from` (its parities swapped if `swap`) into record r's filter. */
  orReached(r: number, from: Dependencies, f: number, swap: number): void {
    const { words } = this;
    const count = from.listed[f];
    if (count !== UNLISTED) {
      for (let i = 0; i < count; i++) {
        const w = from.list[f * LISTED_WORDS + i];
        const word = from.reached[f * words + w];
        this.orWord(r, w, swap ? swapParities(word) : word);
      }
      return;
    }
    const size = 1 << this.groupShift;
    for (let g = from.groups[f]; g !== 0; g &= g - 1) {
      const first = this.firstWord(g);
      for (let w = first; w < first + size; w++) {
        const word = from.reached[f * words + w];
        this.reached[r * words + w] |= swap ? swapParities(word) : word;
      }
    }
    this.groups[r] |= from.groups[f];
    this.listed[r] = UNLISTED;
  }

  /**
   * Whether record r's filter (its parities swapped if `swap`) holds a situation of the path: word
   * by word against the path's filter where r lists no more words than the path is long, else
   * situation by situation along the path (a large record spans hundreds of words, a path some tens
   * of situations).
   */
  meets(r: number, path: HistoryPath, swap: number): boolean {
    const { words } = this;
    const count = this.listed[r];
    if (count !== UNLISTED && count <= path.length) {
      const { filter } = path;
      for (let i = 0; i < count; i++) {
        const w = this.list[r * LISTED_WORDS + i];
        const word = this.reached[r * words + w];
        if ((swap ? swapParities(word) : word) & filter[w]) return true;
      }
      return false;
    }
    const { situations, bits } = path;
    // Swapping parities moves a situation's bit to its neighbour: the parity is the lowest bit.
    for (let i = 0; i < path.length; i++) {
      const bit = bits.bitOf(situations[i]) ^ swap;
      if (this.reached[r * words + (bit >>> 5)] & (1 << (bit & 31))) return true;
    }
    return false;
  }

  /** A move was barred by the situation at depth `at` of the path. */
  block(r: number, situation: number, at: number): void {
    const count = this.blockedCount[r];
    for (let i = 0; i < count; i++) if (this.blocked[r * BLOCKED + i] === situation) return;
    if (count === BLOCKED) {
      if (at < this.droppedAt[r]) this.droppedAt[r] = at;
      return;
    }
    this.blocked[r * BLOCKED + count] = situation;
    this.blockedAt[r * BLOCKED + count] = at;
    this.blockedCount[r] = count + 1;
  }

  /** A forced bound was used, safe from the path's positions of this parity. */
  bound(r: number, parity: number, t: number, entered: number): void {
    const i = 2 * r + parity;
    if (t < this.threshold[i]) this.threshold[i] = t;
    if (entered > this.entered[i]) this.entered[i] = entered;
  }

  /** Whether record r lists every situation before depth d it needs barred. */
  complete(r: number, d: number): boolean {
    return this.droppedAt[r] >= d;
  }

  /** Adds record `from` (of this set or another) to r, keeping of its barring situations those before depth d. */
  add(r: number, from: Dependencies, f: number, d: number): void {
    this.orReached(r, from, f, 0);
    for (let i = 0; i < from.blockedCount[f]; i++) {
      const at = from.blockedAt[f * BLOCKED + i];
      if (at < d) this.block(r, from.blocked[f * BLOCKED + i], at);
    }
    if (from.droppedAt[f] < this.droppedAt[r]) this.droppedAt[r] = from.droppedAt[f];
    for (let parity = 0; parity < 2; parity++) {
      const t = from.threshold[2 * f + parity];
      if (t !== NO_THRESHOLD) this.bound(r, parity, t, from.entered[2 * f + parity]);
    }
  }

  /** Record r becomes a copy of `from`'s record f, its barring situations before depth d. */
  copy(r: number, from: Dependencies, f: number, d: number): void {
    this.clear(r);
    this.add(r, from, f, d);
  }

  /** Room for records below `records`. */
  ensure(records: number): void {
    if (records <= this.records) return;
    let size = this.records;
    while (size < records) size *= 2;
    this.reached = grown(this.reached, size * this.words);
    this.groups = grown(this.groups, size);
    this.list = grown(this.list, size * LISTED_WORDS);
    this.listed = grown(this.listed, size);
    this.blocked = grown(this.blocked, size * BLOCKED);
    this.blockedAt = grown(this.blockedAt, size * BLOCKED);
    this.droppedAt = grown(this.droppedAt, size);
    this.threshold = grown(this.threshold, size * 2);
    this.entered = grown(this.entered, size * 2);
    this.blockedCount = grown(this.blockedCount, size);
  }
}

/**
 * Bounds of states, each with its dependencies: entry i's lower bound has record 2i, its upper
 * bound 2i + 1, their situations relative to the parity of the node that found them.
 */
export class HistoryTable {
  /** Search nodes its bounds narrowed or settled (counted by the search: not every probe is of a node entered). */
  hits = 0;
  readonly buckets: number;
  readonly ways: number;
  /** Per bucket, the way the next entry goes to. */
  private readonly next: Uint8Array;
  private readonly state: Int32Array;
  private readonly lower: Int8Array;
  private readonly upper: Int8Array;
  private readonly deps: Dependencies;
  /** Per state, 1 + the place of the move to try first among its moves as listed, or 0 for none. */
  private readonly firstMoves: Uint8Array;
  /** After probe: the entries giving the highest lower bound and the lowest upper bound that hold, or -1. */
  lowerEntry = -1;
  upperEntry = -1;

  /**
   * `entries`: at most this many, in whole buckets, for `states` states: a bucket for every other
   * state where there is room, each of as many ways as that allows (a power of two from LEAST_WAYS
   * to MOST_WAYS).
   */
  constructor(
    readonly bits: SituationBits,
    entries: number,
    states: number,
  ) {
    const perTwoStates = Math.floor(entries / Math.max(1, states / 2));
    this.ways = Math.min(MOST_WAYS, Math.max(LEAST_WAYS, 2 ** Math.floor(Math.log2(Math.max(1, perTwoStates)))));
    this.buckets = Math.max(1, Math.floor(entries / this.ways));
    const capacity = this.buckets * this.ways;
    this.next = new Uint8Array(this.buckets);
    this.state = new Int32Array(capacity).fill(-1);
    this.lower = new Int8Array(capacity);
    this.upper = new Int8Array(capacity);
    this.deps = new Dependencies(bits.words, 2 * capacity);
    this.firstMoves = new Uint8Array(states);
  }

  /**
   * Every array the table is made of, in a fixed order: a table of the same bits, buckets and ways
   * filled with a copy of them holds the same bounds (lib/solve/files/table-file.ts keeps them on disk).
   */
  arrays(): ArrayBufferView[] {
    return [this.next, this.state, this.lower, this.upper, ...this.deps.arrays(), this.firstMoves];
  }

  /** The entries the table holds at most. */
  get entries(): number {
    return this.buckets * this.ways;
  }

  /** The bytes its arrays take. */
  get bytes(): number {
    return this.arrays().reduce((sum, array) => sum + array.byteLength, 0);
  }

  /** Bytes per entry, for sizing the table. */
  static entryBytes(bits: SituationBits): number {
    return 6 + 2 * (bits.words * 4 + BLOCKED * 8 + 20 + LISTED_WORDS * 2 + 1);
  }

  /** Bytes per state, whatever the entries: the move to try first. */
  static readonly stateBytes = 1;

  /** The place among state s's moves, as listed, of the move to try first, or -1 for none. */
  firstMoveOf(s: number): number {
    return this.firstMoves[s] - 1;
  }

  /** Move i of state s, as listed, is the one to try first from now on. */
  setFirstMove(s: number, i: number): void {
    this.firstMoves[s] = i + 1;
  }

  /** The first entry of state s's bucket. */
  private bucket(s: number): number {
    // ⌊hash · buckets / 2^32⌋ in two 16-bit halves, each product below 2^53 and so exact.
    const hash = Math.imul(s, 0x9e3779b1) >>> 0;
    const low = Math.floor(((hash & 0xffff) * this.buckets) / 0x10000);
    return Math.floor(((hash >>> 16) * this.buckets + low) / 0x10000) * this.ways;
  }

  /**
   * Keeps bounds of state s at depth d of the path (of this parity): `lower` owing what record
   * `lowerOwes` of `deps` says, `upper` what `upperOwes` says. A bound whose record is incomplete
   * is widened to the whole range.
   */
  store(
    s: number,
    parity: number,
    lower: number,
    upper: number,
    points: number,
    from: Dependencies,
    lowerOwes: number,
    upperOwes: number,
    d: number,
  ): void {
    const lowerKept = lower > -points && from.complete(lowerOwes, d);
    const upperKept = upper < points && from.complete(upperOwes, d);
    if (!lowerKept && !upperKept) return;
    const b = this.bucket(s);
    const { ways } = this;
    const i = b + this.next[b / ways];
    this.next[b / ways] = (this.next[b / ways] + 1) % ways;
    this.state[i] = s;
    this.lower[i] = lowerKept ? lower : -points;
    this.upper[i] = upperKept ? upper : points;
    this.turned(2 * i, from, lowerKept ? lowerOwes : -1, parity);
    this.turned(2 * i + 1, from, upperKept ? upperOwes : -1, parity);
  }

  /** Copies record f of `from` (none when -1) into record r, relative to the parity. */
  private turned(r: number, from: Dependencies, f: number, parity: number): void {
    const { deps } = this;
    deps.clear(r);
    if (f < 0) return;
    deps.orReached(r, from, f, parity);
    const count = from.blockedCount[f];
    for (let k = 0; k < count; k++) deps.blocked[r * BLOCKED + k] = from.blocked[f * BLOCKED + k] ^ parity;
    deps.blockedCount[r] = count;
    for (let q = 0; q < 2; q++) {
      deps.threshold[2 * r + q] = from.threshold[2 * f + (q ^ parity)];
      deps.entered[2 * r + q] = from.entered[2 * f + (q ^ parity)];
    }
  }

  /**
   * Finds the entries of state s whose bounds hold after the path (s at its end, with this parity):
   * the highest lower bound above `floor` and the lowest upper bound below `ceiling`.
   */
  probe(s: number, parity: number, path: HistoryPath, floor: number, ceiling: number): void {
    this.lowerEntry = this.upperEntry = -1;
    const b = this.bucket(s);
    let lower = floor;
    let upper = ceiling;
    for (let i = b; i < b + this.ways; i++) {
      if (this.state[i] !== s) continue;
      if (this.lower[i] > lower && this.holds(2 * i, parity, path)) {
        this.lowerEntry = i;
        lower = this.lower[i];
      }
      if (this.upper[i] < upper && this.holds(2 * i + 1, parity, path)) {
        this.upperEntry = i;
        upper = this.upper[i];
      }
    }
  }

  lowerOf(i: number): number {
    return this.lower[i];
  }

  upperOf(i: number): number {
    return this.upper[i];
  }

  private holds(r: number, parity: number, path: HistoryPath): boolean {
    const { deps } = this;
    const at = r * BLOCKED;
    for (let k = 0; k < deps.blockedCount[r]; k++) if (path.depthOf[deps.blocked[at + k] ^ parity] < 0) return false;
    for (let q = 0; q < 2; q++) {
      const t = deps.threshold[2 * r + q];
      if (t !== NO_THRESHOLD && path.breaks(q ^ parity, t, deps.entered[2 * r + q])) return false;
    }
    return !deps.meets(r, path, parity);
  }

  /** Record `into` of `to` becomes what entry i's lower (upper) bound owes, at depth d of the path. */
  owed(i: number, upper: boolean, parity: number, to: Dependencies, into: number, d: number, path: HistoryPath): void {
    const { deps } = this;
    const r = 2 * i + (upper ? 1 : 0);
    to.clear(into);
    to.orReached(into, deps, r, parity);
    for (let k = 0; k < deps.blockedCount[r]; k++) {
      const situation = deps.blocked[r * BLOCKED + k] ^ parity;
      const at = path.depthOf[situation];
      if (at < d) to.block(into, situation, at);
    }
    for (let q = 0; q < 2; q++) {
      const t = deps.threshold[2 * r + q];
      if (t !== NO_THRESHOLD) to.bound(into, q ^ parity, t, deps.entered[2 * r + q]);
    }
  }
}
