/**
 * The in-memory buffer of one step's successors: an open-addressing hash table from state to its
 * residues, so equal states are combined as they arrive. It starts small and doubles as it fills, up
 * to the capacity the memory budget allows, so a count touches only the memory its steps need. When
 * it holds maxLoad states at full capacity it is drained
 * in state order into a run file, or, at the end of a step that fit, into a MemoryRun.
 */

import { MemoryRun } from './memory-run.js';

/** Linear probing stays short at this load. */
export const MAX_LOAD_FACTOR = 0.7;

/** Bytes per slot, and per stored state for the sort keys, for budget planning. */
export const tableSlotBytes = (residueCount: number): number => 4 * (2 + residueCount);
export const sortKeyBytes = 8;

/** Slots a table starts with (it doubles from there). */
const INITIAL_CAPACITY = 1 << 16;

/** How far ahead addBatch reads home slots. */
const PREFETCH = 8;
const HOME_MASK = 15;

const LOW_WORD = 0x3fffffff;

/** Set in a slot's first word when the slot holds a state (hi uses at most 27 bits). */
const OCCUPIED = 2 ** 31;

export interface RecordSink {
  append(hi: number, lo: number, residues: Uint32Array, at: number): void;
}

export class StateTable {
  /** Slots now, and the most the budget allows. */
  capacity: number;
  readonly maxCapacity: number;
  /** States held before the table grows, or at full capacity is full. */
  maxLoad: number;
  readonly residueCount: number;
  size = 0;

  /**
   * Slot i is slots[i·S .. i·S + S) with S = 2 + K: hi + OCCUPIED, lo, then K residues. One array,
   * so an insert touches one place in memory.
   */
  private slots: Uint32Array;
  private readonly stride: number;
  /** Maps a 31-bit hash onto [0, capacity) by multiplication, cheaper than a division. */
  private scale: number;
  private readonly moduli: Float64Array;
  /**
   * Sort keys as 64-bit integers written through a 32-bit view: the state's 3·width bits on top and,
   * when they leave room for it, the slot number below (indexBits > 0), so a sorted key leads
   * straight to its slot; otherwise just the state, and the slot is found by probing again.
   */
  private keys = new BigUint64Array(0);
  private keyWords = new Uint32Array(0);
  private indexBits = 0;
  private readonly width: number;
  /** Home slots of the inserts in flight in addBatch, and a sink for the early reads. */
  private readonly homes = new Int32Array(HOME_MASK + 1);
  touched = 0;

  constructor(maxCapacity: number, moduli: readonly number[], width: number, initialCapacity = INITIAL_CAPACITY) {
    this.maxCapacity = maxCapacity;
    this.residueCount = moduli.length;
    this.moduli = Float64Array.from(moduli);
    this.stride = 2 + moduli.length;
    this.width = width;
    this.capacity = 0;
    this.maxLoad = 0;
    this.scale = 0;
    this.slots = new Uint32Array(0);
    this.resize(Math.min(maxCapacity, initialCapacity));
  }

  /** Holding all it may: time to drain it into a run. */
  get full(): boolean {
    return this.size >= this.maxLoad && this.capacity === this.maxCapacity;
  }

  /** Doubles the table (up to maxCapacity), moving every state; false when it cannot grow. */
  private grow(): boolean {
    if (this.capacity === this.maxCapacity) return false;
    const old = this.slots;
    this.resize(Math.min(this.maxCapacity, 2 * this.capacity));
    const { stride, slots } = this;
    const end = this.capacity * stride;
    for (let from = 0; from < old.length; from += stride) {
      if (old[from] === 0) continue;
      let b = ((slotHash(old[from] - OCCUPIED, old[from + 1]) * this.scale) | 0) * stride;
      while (slots[b] !== 0) {
        b += stride;
        if (b === end) b = 0;
      }
      for (let w = 0; w < stride; w++) slots[b + w] = old[from + w];
    }
    return true;
  }

  private resize(capacity: number): void {
    this.capacity = capacity;
    this.maxLoad = Math.max(1, Math.floor(capacity * MAX_LOAD_FACTOR));
    this.scale = capacity / 2 ** 31;
    this.slots = new Uint32Array(capacity * this.stride);
    const room = Math.min(32, 64 - 3 * this.width);
    this.indexBits = capacity <= 2 ** room ? room : 0;
  }

  /** Adds residues src[at..at+K) to state (hi, lo). */
  add(hi: number, lo: number, src: Uint32Array, at: number): void {
    if (this.size >= this.maxLoad && !this.grow()) throw new RangeError('state table full');
    this.insertAt(((slotHash(hi, lo) * this.scale) | 0) * this.stride, hi, lo, src, at);
  }

  /** add(), starting the probe at slot offset b. */
  private insertAt(b: number, hi: number, lo: number, src: Uint32Array, at: number): void {
    const { slots, stride, moduli } = this;
    const k = moduli.length;
    const tag = hi + OCCUPIED;
    const end = this.capacity * stride;
    for (;;) {
      const first = slots[b];
      if (first === 0) break;
      if (first === tag && slots[b + 1] === lo) {
        for (let r = 0; r < k; r++) {
          const s = slots[b + 2 + r] + src[at + r];
          slots[b + 2 + r] = s >= moduli[r] ? s - moduli[r] : s;
        }
        return;
      }
      b += stride;
      if (b === end) b = 0;
    }
    slots[b] = tag;
    slots[b + 1] = lo;
    for (let r = 0; r < k; r++) slots[b + 2 + r] = src[at + r];
    this.size++;
  }

  /**
   * Adds records [from, to) of a batch and returns the index where it stopped: `to`, or earlier when
   * the table reached its load. JS has no prefetch instruction, so each insert first reads the home
   * slot of the insert PREFETCH places ahead: the cache misses of the two overlap.
   */
  addBatch(states: Uint32Array, src: Uint32Array, from: number, to: number): number {
    for (;;) {
      from = this.addRange(states, src, from, to);
      if (from === to || !this.grow()) return from;
    }
  }

  /** addBatch without growing: stops at maxLoad. */
  private addRange(states: Uint32Array, src: Uint32Array, from: number, to: number): number {
    const { slots, stride, scale, homes } = this;
    const k = this.residueCount;
    const ahead = Math.min(to, from + PREFETCH);
    let touched = 0;
    for (let i = from; i < ahead; i++) {
      const home = ((slotHash(states[2 * i], states[2 * i + 1]) * scale) | 0) * stride;
      homes[i & HOME_MASK] = home;
      touched ^= slots[home];
    }
    let i = from;
    for (; i < to && this.size < this.maxLoad; i++) {
      const j = i + PREFETCH;
      if (j < to) {
        const home = ((slotHash(states[2 * j], states[2 * j + 1]) * scale) | 0) * stride;
        homes[j & HOME_MASK] = home;
        touched ^= slots[home];
      }
      this.insertAt(homes[i & HOME_MASK], states[2 * i], states[2 * i + 1], src, i * k);
    }
    this.touched = touched;
    return i;
  }

  /** Sends every state to `sink` in increasing order, then empties the table. */
  drainSorted(sink: RecordSink): void {
    const n = this.sortedKeys();
    const { keyWords, slots, stride, indexBits: b } = this; // after sortedKeys: it may renew keyWords
    for (let j = 0; j < n; j++) {
      const low = keyWords[2 * j];
      const high = keyWords[2 * j + 1];
      if (b === 32) sink.append(0, high, slots, low * stride + 2);
      else if (b > 0) {
        const lo = ((low >>> b) | (high << (32 - b))) & LOW_WORD;
        sink.append(high >>> (b - 2), lo, slots, (low & ((1 << b) - 1)) * stride + 2);
      } else {
        const hi = (high << 2) | (low >>> 30);
        const lo = low & LOW_WORD;
        sink.append(hi, lo, slots, this.find(hi, lo) + 2);
      }
    }
    this.clear();
  }

  /** Copies every state into `run` (sorted when asked), then empties the table. */
  drainTo(run: MemoryRun, sorted: boolean): void {
    run.reset();
    if (sorted) this.drainSorted(run);
    else {
      const { slots, stride } = this;
      for (let b = 0; b < slots.length; b += stride) {
        if (slots[b] !== 0) run.append(slots[b] - OCCUPIED, slots[b + 1], slots, b + 2);
      }
      this.clear();
    }
  }

  clear(): void {
    if (this.size > 0) this.slots.fill(0);
    this.size = 0;
  }

  /** Fills keys[0..size) with the stored states (and slots) and sorts them; returns size. */
  private sortedKeys(): number {
    if (this.keys.length < this.size) {
      this.keys = new BigUint64Array(this.maxLoad);
      this.keyWords = new Uint32Array(this.keys.buffer);
    }
    const { keyWords, slots, stride, indexBits: b } = this;
    let n = 0;
    for (let i = 0, at = 0; at < slots.length; i++, at += stride) {
      if (slots[at] === 0) continue;
      const hi = slots[at] - OCCUPIED;
      const lo = slots[at + 1];
      if (b === 32) {
        keyWords[2 * n] = i; // widths up to 10: the state is lo alone
        keyWords[2 * n + 1] = lo;
      } else if (b > 0) {
        keyWords[2 * n] = ((lo << b) | i) >>> 0;
        keyWords[2 * n + 1] = ((lo >>> (32 - b)) | (hi << (b - 2))) >>> 0;
      } else {
        keyWords[2 * n] = ((hi << 30) | lo) >>> 0;
        keyWords[2 * n + 1] = hi >>> 2;
      }
      n++;
    }
    this.keys.subarray(0, n).sort();
    return n;
  }

  /** The offset of state (hi, lo)'s slot; the state must be present. */
  private find(hi: number, lo: number): number {
    const { slots, stride } = this;
    const tag = hi + OCCUPIED;
    const end = this.capacity * stride;
    let b = ((slotHash(hi, lo) * this.scale) | 0) * stride;
    while (slots[b] !== tag || slots[b + 1] !== lo) {
      b += stride;
      if (b === end) b = 0;
    }
    return b;
  }
}

/**
 * A 31-bit mix of both words, leaving out the lowest field: field y, the one the next step
 * replaces. States that differ only there, often predecessors of the same successors, then share a
 * home slot and sit side by side; the in-memory run keeps the table's order, so the next step
 * expands them one after another and their common successors hit table lines still in cache.
 */
function slotHash(hi: number, lo: number): number {
  let h = Math.imul((lo >>> 3) ^ Math.imul(hi, 0x9e3779b1), 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae3d);
  h ^= h >>> 13;
  return h >>> 1;
}
