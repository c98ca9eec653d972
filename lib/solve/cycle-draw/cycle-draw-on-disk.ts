/**
 * cycle-draw with the states on disk, for a board whose states do not fit --memory: the same
 * threshold games as lib/solve/cycle-draw/cycle-draw.ts (values identical), with nothing held per state in
 * memory but its value. Memory holds the positions' keys and first states (8 bytes a position),
 * the values (1 byte a state) and one allocation of what the budget leaves (lib/solve/cycle-draw/arena.ts),
 * which each step below carves up anew; the rest goes through scratch files whose names are
 * removed as soon as they are open.
 *
 * 1. The moves: every state's moves are generated in state order; each move goes out as a pair
 *    (child, parent) to a bucket of children, and each state's ending and number of moves to the
 *    sets file.
 * 2. The parents: each bucket, sorted by child in passes that fit the budget, is written as the
 *    parents file: per state its number of parents, then the parents, with an index of where
 *    every block of BLOCK states starts.
 * 3. The threshold games, for t from the board's size down to 1, in rounds: the states gained in a
 *    round (the frontier, a file in state order) send a message to each of their parents, bucketed
 *    by the slice of states the parent is in; then each slice that has messages is read from the
 *    sets file (W, L, moves left, ending: 4 bytes a state), takes them as lib/solve/cycle-draw/threshold-sets.ts
 *    does, writes back, and gives its states gained, in order, to the next frontier.
 */

import { Arena } from './arena.js';
import { BucketFiles } from './bucket-files.js';
import { ForcedBounds, passAdmitted } from './forced-bounds.js';
import { forEachMoveOfRank, NO_ENDING } from '../moves/move-graph.js';
import { ScratchFile } from '../moves/scratch-file.js';
import { AFTER_PASS, type PhaseProgress, type StateSpace } from '../rules/state-space.js';
import { NONE, ThresholdSets, type PassAdmitted } from './threshold-sets.js';

/** States per block of the parents file's index. */
const BLOCK = 1024;
/** The fewest bytes the work may have beside the keys, first states and values. */
const MIN_WORK_BYTES = 64 * 1024;
/** Per position (keys, first states) and per state (values), what memory holds whatever the budget. */
const DISK_POSITION_BYTES = 8;
const DISK_STATE_BYTES = 1;
/** Per state of a slice: W, L, moves left, ending, and the mark of a state gained. */
const SLICE_STATE_BYTES = 5;
/** The most buckets of moves. */
const MAX_BUCKETS = 256;

export interface OnDiskResult {
  readonly values: Int8Array;
  readonly edges: number;
  /** Rounds of the threshold games, over every threshold. */
  readonly rounds: number;
  /** Slices of states the sets were read in. */
  readonly slices: number;
  /** The most bytes the work's files held at once. */
  readonly bytesOnDisk: number;
}

export interface OnDiskProgress {
  readonly moves: PhaseProgress;
  readonly retrograde: PhaseProgress;
}

/**
 * The work's least bytes (what noCycleAidsOnDisk takes at least): with fewer, the slices of the rounds would be too many for each to have
 * a buffer of messages (16 words at least, in an eighth of the work, the slices holding a tenth).
 */
export function minWork(states: number): number {
  return Math.max(MIN_WORK_BYTES, Math.ceil(Math.sqrt(16 * 4 * 8 * 10 * states)));
}

/** The memory a solve with its states on disk needs at least. */
export function onDiskFloor(space: StateSpace): number {
  return DISK_POSITION_BYTES * space.positions + DISK_STATE_BYTES * space.states + minWork(space.states);
}

/** Every state's value under cycle-draw; `memory` bounds what is held (at least onDiskFloor). */
export function solveCycleDrawOnDisk(space: StateSpace, memory: number, folder: string, progress: OnDiskProgress): OnDiskResult {
  const values = new Int8Array(space.states);
  const work = memory - DISK_POSITION_BYTES * space.positions - DISK_STATE_BYTES * space.states;
  return playedOnDisk(space, work, folder, progress, (games) => {
    games.playDown(1, progress.retrograde);
    games.values(values);
    return values;
  });
}

/**
 * no-cycle's guide and bounds with the states on disk: the values of the threshold games down to
 * 1, which order the history search's moves as the cycle-draw values do in memory, then the forced
 * bounds (lib/solve/cycle-draw/forced-bounds.ts), the games played again down to 1 - size with the pass rule.
 * `work`: the bytes the work may take beside what the caller holds.
 */
export function noCycleAidsOnDisk(
  space: StateSpace,
  work: number,
  folder: string,
  progress: OnDiskProgress,
): OnDiskResult & { readonly bounds: ForcedBounds } {
  const { states } = space;
  const guide = new Int8Array(states);
  const enteredW = new Uint32Array(states);
  const enteredL = new Uint32Array(states);
  const highestW = new Int8Array(states);
  const highestL = new Int8Array(states);
  const result = playedOnDisk(space, work, folder, progress, (games) => {
    games.playDown(1, progress.retrograde);
    games.values(guide);
    games.reset({ enteredW, enteredL });
    games.playDown(1 - space.board.points, progress.retrograde);
    games.highest(highestW, highestL);
    return guide;
  });
  return { ...result, bounds: new ForcedBounds(space, highestW, highestL, enteredW, enteredL) };
}

/** Writes the moves and their parents, then lets `play` play the threshold games. */
function playedOnDisk(
  space: StateSpace,
  work: number,
  folder: string,
  progress: OnDiskProgress,
  play: (games: ThresholdRounds) => Int8Array,
): OnDiskResult {
  const { states } = space;
  const arena = new Arena(Math.max(minWork(states), work));
  const sets = ScratchFile.open(folder);
  let parents: ParentsFile | undefined;
  try {
    const moves = writeMoves(space, sets, folder, arena, progress.moves);
    let bytesOnDisk = sets.bytes + moves.buckets.bytes;
    try {
      parents = ParentsFile.build(moves, folder, arena);
      progress.moves(states, states);
      bytesOnDisk = Math.max(bytesOnDisk, sets.bytes + moves.buckets.bytes + parents.file.bytes);
    } finally {
      moves.buckets.close();
    }
    const games = new ThresholdRounds(space, sets, parents, folder, arena);
    try {
      const values = play(games);
      bytesOnDisk = Math.max(bytesOnDisk, sets.bytes + parents.file.bytes + games.peakBytes);
      return { values, edges: moves.edges, rounds: games.rounds, slices: games.slices, bytesOnDisk };
    } finally {
      games.close();
    }
  } finally {
    parents?.file.close();
    sets.close();
  }
}

/** The moves written out: pairs (child, parent) bucketed by child, and the parents each block of children has. */
interface WrittenMoves {
  readonly buckets: BucketFiles;
  /** States per bucket, a multiple of BLOCK. */
  readonly bucketStates: number;
  readonly blockParents: Float64Array;
  readonly states: number;
  readonly edges: number;
}

/**
 * Generates every state's moves in state order: the pairs to their buckets, and to the sets file
 * its four sections (W and L empty, moves left, ending).
 */
function writeMoves(space: StateSpace, sets: ScratchFile, folder: string, arena: Arena, progress: PhaseProgress): WrittenMoves {
  const { states, base } = space;
  const blocks = Math.ceil(states / BLOCK);
  // Buckets small enough for a pass each in step 2, at a guess of points / 2 moves a state.
  const wanted = Math.ceil((states * space.board.points) / 2 / pairsPerPass(arena));
  const count = Math.max(1, Math.min(MAX_BUCKETS, blocks, wanted));
  const bucketStates = Math.ceil(blocks / count) * BLOCK;
  arena.reset();
  // A quarter of the arena buffers the buckets, half holds the sections.
  const buckets = new BucketFiles(folder, Math.ceil(states / bucketStates), arena.u32(Math.floor(arena.bytes / 16)));
  try {
    const blockParents = new Float64Array(blocks);
    const sectionStates = Math.min(states, Math.floor(arena.bytes / 6));
    const left = arena.u8(sectionStates);
    const ending = arena.i8(sectionStates);
    const empty = arena.i8(sectionStates).fill(NONE);
    let edges = 0;
    let parent = 0;
    let moves = 0;
    const visit = (_p: number, child: number) => {
      buckets.push(Math.floor(child / bucketStates), child);
      buckets.push(Math.floor(child / bucketStates), parent);
      blockParents[Math.floor(child / BLOCK)]++;
      moves++;
    };
    let r = 0;
    for (let first = 0; first < states; first += left.length) {
      const last = Math.min(states, first + left.length);
      for (parent = first; parent < last; parent++) {
        if ((parent & 0xffff) === 0) progress(parent, states);
        while (base[r + 1] <= parent) r++;
        moves = 0;
        const end = forEachMoveOfRank(space, r, parent - base[r], visit);
        edges += moves;
        ending[parent - first] = end;
        left[parent - first] = moves + (end === NO_ENDING ? 0 : 1);
      }
      const count = last - first;
      sets.writeAt(empty.subarray(0, count), SECTION.W * states + first);
      sets.writeAt(empty.subarray(0, count), SECTION.L * states + first);
      sets.writeAt(left.subarray(0, count), SECTION.LEFT * states + first);
      sets.writeAt(left.subarray(0, count), SECTION.MOVES * states + first);
      sets.writeAt(ending.subarray(0, count), SECTION.ENDING * states + first);
    }
    buckets.seal();
    return { buckets, bucketStates, blockParents, states, edges };
  } catch (error) {
    buckets.close();
    throw error;
  }
}

/** The sets file's sections, each one byte a state: the last keeps the moves for a reset. */
const SECTION = { W: 0, L: 1, LEFT: 2, ENDING: 3, MOVES: 4 } as const;

/**
 * The most moves a pass of step 2 sorts: an eighth of the arena reads the bucket, the rest holds
 * six words a move (ParentsSort).
 */
function pairsPerPass(arena: Arena): number {
  return Math.floor((arena.bytes - Math.floor(arena.bytes / 8) - 64) / 24);
}

/** Per state, its parents; an index says where each block of BLOCK states starts (in words). */
class ParentsFile {
  buffer = new Uint32Array(0);
  private block = -1;
  private cursor = 0;
  private cursorState = 0;

  private constructor(
    readonly file: ScratchFile,
    private readonly index: Float64Array,
  ) {}

  /** Sorts each bucket by child, in passes over ranges of blocks whose pairs fit the budget. */
  static build(moves: WrittenMoves, folder: string, arena: Arena): ParentsFile {
    const { buckets, bucketStates, blockParents, states } = moves;
    const blocks = blockParents.length;
    const index = new Float64Array(blocks + 1);
    const file = ScratchFile.open(folder);
    try {
      const fit = pairsPerPass(arena);
      arena.reset();
      const chunk = arena.u32(Math.floor(arena.bytes / 32));
      const sort = new ParentsSort(arena, fit);
      let words = 0;
      for (let b = 0; b < buckets.count; b++) {
        const lastBlock = Math.min(blocks, ((b + 1) * bucketStates) / BLOCK);
        for (let lo = (b * bucketStates) / BLOCK; lo < lastBlock;) {
          let hi = lo + 1;
          let pairs = blockParents[lo];
          // Bounded by states too: a state without parents still takes a word of the output.
          while (hi < lastBlock && pairs + blockParents[hi] <= fit && (hi + 1 - lo) * BLOCK <= fit) pairs += blockParents[hi++];
          const first = lo * BLOCK;
          const last = Math.min(states, hi * BLOCK);
          const out = sort.records(buckets.chunks(b, chunk), first, last, pairs);
          for (let k = lo; k < hi; k++) index[k] = words + out.startOf[(k - lo) * BLOCK];
          file.append(out.records);
          words += out.records.length;
          lo = hi;
        }
      }
      index[blocks] = words;
      return new ParentsFile(file, index);
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /**
   * Finds the parents of state u: returns how many, at buffer[at ..]; valid until the next call.
   * Calls come in increasing order of u within a round; rewind() starts a round.
   */
  at = 0;
  locate(u: number): number {
    const block = Math.floor(u / BLOCK);
    if (block !== this.block) {
      const words = this.index[block + 1] - this.index[block];
      if (this.buffer.length < words) this.buffer = new Uint32Array(words);
      this.file.readAt(this.buffer.subarray(0, words), this.index[block] * 4);
      this.block = block;
      this.cursor = 0;
      this.cursorState = block * BLOCK;
    }
    for (; this.cursorState < u; this.cursorState++) this.cursor += 1 + this.buffer[this.cursor];
    this.at = this.cursor + 1;
    return this.buffer[this.cursor];
  }

  rewind(): void {
    this.block = -1;
  }
}

/**
 * Sorts the moves of a range of children into parents records, in arrays of the arena sized for
 * `fit` moves and as many states (a single block with more gets arrays of its own).
 */
class ParentsSort {
  private readonly children: Uint32Array;
  private readonly from: Uint32Array;
  private readonly out: Uint32Array;
  private readonly starts: Uint32Array;
  private readonly fill: Uint32Array;

  constructor(
    arena: Arena,
    private readonly fit: number,
  ) {
    this.children = arena.u32(fit);
    this.from = arena.u32(fit);
    this.out = arena.u32(2 * fit);
    this.starts = arena.u32(fit + 1);
    this.fill = arena.u32(fit);
  }

  /** The records (count, parents) of states first .. last - 1 from the pairs, and where each starts. */
  records(chunks: Iterable<Uint32Array>, first: number, last: number, pairs: number): { records: Uint32Array; startOf: Uint32Array } {
    const span = last - first;
    const roomy = pairs <= this.fit && span <= this.fit;
    const children = roomy ? this.children : new Uint32Array(pairs);
    const from = roomy ? this.from : new Uint32Array(pairs);
    const startOf = roomy ? this.starts.fill(0, 0, span + 1) : new Uint32Array(span + 1);
    const fill = roomy ? this.fill : new Uint32Array(span);
    let taken = 0;
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i += 2) {
        const c = chunk[i];
        if (c < first || c >= last) continue;
        children[taken] = c - first;
        from[taken++] = chunk[i + 1];
      }
    }
    if (taken !== pairs) throw new Error(`parents of states ${first}..${last - 1}: ${taken} moves found, ${pairs} written`);
    for (let i = 0; i < taken; i++) startOf[children[i] + 1]++;
    // startOf[u]: where u's record starts, its count and then its parents.
    for (let u = 0; u < span; u++) startOf[u + 1] += startOf[u] + 1;
    const records = roomy ? this.out.subarray(0, startOf[span]) : new Uint32Array(startOf[span]);
    for (let u = 0; u < span; u++) fill[u] = startOf[u] + 1;
    for (let i = 0; i < taken; i++) records[fill[children[i]]++] = from[i];
    for (let u = 0; u < span; u++) records[startOf[u]] = fill[u] - startOf[u] - 1;
    return { records, startOf };
  }
}

/** What the forced bounds keep of the games: when each state entered W and L. */
interface Entries {
  readonly enteredW: Uint32Array;
  readonly enteredL: Uint32Array;
}

/** The threshold games, round by round, the sets read a slice at a time. */
class ThresholdRounds {
  rounds = 0;
  peakBytes = 0;
  readonly slices: number;
  private readonly states: number;
  private entries?: Entries;
  /** With entries recorded, the pass rule of the forced bounds. */
  private admitted?: PassAdmitted;
  private entered = 0;
  /** The first state of the slice loaded. */
  private first = 0;
  private readonly sliceStates: number;
  private readonly highestW: Int8Array;
  private readonly highestL: Int8Array;
  private readonly left: Uint8Array;
  private readonly ending: Int8Array;
  private readonly gained: Uint8Array;
  private readonly messages: BucketFiles;
  private frontier: BucketFiles;
  private next: BucketFiles;
  private readonly chunk: Uint32Array;

  constructor(
    private readonly space: StateSpace,
    private readonly sets: ScratchFile,
    private readonly parents: ParentsFile,
    folder: string,
    arena: Arena,
  ) {
    const states = (this.states = space.states);
    // Half the arena for the slice, an eighth for the messages, a sixteenth each for the frontier
    // and the next one together and for reading.
    this.sliceStates = Math.min(states, Math.floor(arena.bytes / 2 / SLICE_STATE_BYTES));
    this.slices = Math.ceil(states / this.sliceStates);
    arena.reset();
    this.highestW = arena.i8(this.sliceStates);
    this.highestL = arena.i8(this.sliceStates);
    this.left = arena.u8(this.sliceStates);
    this.ending = arena.i8(this.sliceStates);
    this.gained = arena.u8(this.sliceStates);
    this.chunk = arena.u32(Math.floor(arena.bytes / 64));
    this.messages = new BucketFiles(folder, this.slices, arena.u32(Math.floor(arena.bytes / 32)));
    this.frontier = new BucketFiles(folder, 1, arena.u32(Math.floor(arena.bytes / 128)));
    this.next = new BucketFiles(folder, 1, arena.u32(Math.floor(arena.bytes / 128)));
  }

  /** The thresholds from the board's size down to `lowest`. */
  playDown(lowest: number, progress: PhaseProgress): void {
    const { points } = this.space.board;
    for (let t = points; t >= lowest; t--) {
      progress(points - t, points - lowest + 1);
      this.play(t);
    }
  }

  /** Threshold t: its seeds, then rounds until a round gains nothing. */
  private play(t: number): void {
    this.next.clear();
    for (let k = 0; k < this.slices; k++) {
      const sets = this.load(k);
      sets.seed(t, this.mark);
      this.store(k);
    }
    for (this.swap(); this.frontier.words(0) > 0; this.swap()) {
      this.rounds++;
      this.messages.clear();
      this.parents.rewind();
      for (const chunk of this.frontier.chunks(0, this.chunk)) {
        for (let i = 0; i < chunk.length; i++) {
          const u = Math.floor(chunk[i] / 2);
          const inL = chunk[i] & 1;
          // A state after a pass is reached by a pass only: where the pass rule bars it, its passer is not won.
          if (inL && this.admitted && this.space.statusOfState(u) === AFTER_PASS && !this.admitted(u)) continue;
          const { parents } = this;
          const count = parents.locate(u);
          for (let e = parents.at; e < parents.at + count; e++) {
            const p = parents.buffer[e];
            this.messages.push(Math.floor(p / this.sliceStates), p * 2 + inL);
          }
        }
      }
      this.peakBytes = Math.max(this.peakBytes, this.messages.bytes + this.frontier.bytes);
      this.next.clear();
      for (let k = 0; k < this.slices; k++) {
        if (this.messages.words(k) === 0) continue;
        const sets = this.load(k);
        const first = k * this.sliceStates;
        for (const chunk of this.messages.chunks(k, this.chunk)) {
          for (let i = 0; i < chunk.length; i++) {
            sets.reach(Math.floor(chunk[i] / 2) - first, -1, (chunk[i] & 1) === 1, t, this.mark);
          }
        }
        this.store(k);
      }
    }
  }

  /** Every state's value, after the last threshold. */
  values(into: Int8Array): void {
    for (let k = 0; k < this.slices; k++) {
      const sets = this.load(k);
      const first = k * this.sliceStates;
      for (let i = 0; i < this.span(k); i++) into[first + i] = sets.value(i);
    }
  }

  /** W and L after the last threshold. */
  highest(highestW: Int8Array, highestL: Int8Array): void {
    this.sets.readAt(highestW, SECTION.W * this.states);
    this.sets.readAt(highestL, SECTION.L * this.states);
  }

  /** Empties W and L and gives every state its moves back, for games played again (recording `entries`). */
  reset(entries: Entries): void {
    this.entries = entries;
    this.admitted = passAdmitted(this.space, entries.enteredL);
    for (let k = 0; k < this.slices; k++) {
      const first = k * this.sliceStates;
      const span = this.span(k);
      this.sets.readAt(this.left.subarray(0, span), SECTION.MOVES * this.states + first);
      this.sets.writeAt(this.left.subarray(0, span), SECTION.LEFT * this.states + first);
      this.highestW.fill(NONE, 0, span);
      this.sets.writeAt(this.highestW.subarray(0, span), SECTION.W * this.states + first);
      this.sets.writeAt(this.highestW.subarray(0, span), SECTION.L * this.states + first);
    }
  }

  /** A state of the slice gained for W (1) or L (2); at thresholds of 0 and below it may gain both. */
  private readonly mark = (s: number, inL: boolean): void => {
    this.gained[s] |= inL ? 2 : 1;
    if (this.entries) (inL ? this.entries.enteredL : this.entries.enteredW)[this.first + s] = ++this.entered;
  };

  /** The slice's arrays, each with its section of the sets file. */
  private sections(): Array<[number, Int8Array | Uint8Array]> {
    return [
      [SECTION.W, this.highestW],
      [SECTION.L, this.highestL],
      [SECTION.LEFT, this.left],
      [SECTION.ENDING, this.ending],
    ];
  }

  private span(k: number): number {
    return Math.min(this.sliceStates, this.states - k * this.sliceStates);
  }

  private load(k: number): ThresholdSets {
    const first = (this.first = k * this.sliceStates);
    const span = this.span(k);
    for (const [section, array] of this.sections()) this.sets.readAt(array.subarray(0, span), section * this.states + first);
    this.gained.fill(0, 0, span);
    const view = <T extends Int8Array | Uint8Array>(a: T): T => a.subarray(0, span) as T;
    return new ThresholdSets(view(this.highestW), view(this.highestL), view(this.left), view(this.ending));
  }

  /** Writes slice k back and gives its states gained, in order, to the next frontier. */
  private store(k: number): void {
    const first = k * this.sliceStates;
    const span = this.span(k);
    // The endings never change: not written back.
    for (const [section, array] of this.sections()) {
      if (section !== SECTION.ENDING) this.sets.writeAt(array.subarray(0, span), section * this.states + first);
    }
    for (let i = 0; i < span; i++) {
      if (this.gained[i] & 1) this.next.push(0, (first + i) * 2);
      if (this.gained[i] & 2) this.next.push(0, (first + i) * 2 + 1);
    }
  }

  private swap(): void {
    [this.frontier, this.next] = [this.next, this.frontier];
  }

  close(): void {
    this.messages.close();
    this.frontier.close();
    this.next.close();
  }
}
