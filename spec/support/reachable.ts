/**
 * Which state classes occur, without counts: after each full column, how many distinct 0-state
 * classes the sweep has reached. This settles at the number of constructible classes of the width
 * (paper §5.2), a property of the board that pins the encoding's canonical form.
 * Sets are kept as Float64Arrays of exact state values (width ≤ 17), in no particular order.
 */

import { MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { Expander } from '../../lib/border/expander.js';
import { MAX_EXACT_NUMBER_WIDTH } from '../../lib/border/layout.js';
import { numberWords, stateNumber } from './state-key.js';

export function distinctStatesByColumn(width: number, columns: number): number[] {
  if (width > MAX_EXACT_NUMBER_WIDTH) throw new RangeError(`distinct state counting handles widths up to ${MAX_EXACT_NUMBER_WIDTH}`);
  const expander = new Expander(width);
  const successors = new Uint32Array(2 * MAX_SUCCESSORS);
  let current: Float64Array = new Float64Array([stateNumber(START_HI, START_LO)]);
  const perColumn: number[] = [];
  for (let column = 0; column < columns; column++) {
    for (let y = 0; y < width; y++) {
      const next = new DistinctValues(current.length);
      for (const value of current) {
        const [hi, lo] = numberWords(value);
        const made = expander.expand(hi, lo, y, successors, 0);
        for (let s = 0; s < made; s++) next.add(stateNumber(successors[2 * s], successors[2 * s + 1]));
      }
      current = next.values();
    }
    perColumn.push(current.length);
  }
  return perColumn;
}

/**
 * A set of integers from 0 below 2^53, by open addressing, at most half full; its values in the
 * order they came. Width 9's 180 steps take about half the time they took sorted.
 */
class DistinctValues {
  private slots: Float64Array;
  private kept: Float64Array;
  private count = 0;

  constructor(expected: number) {
    this.slots = DistinctValues.emptySlots(4 * expected);
    this.kept = new Float64Array(Math.max(expected, 16));
  }

  add(value: number): void {
    if (!this.insert(value)) return;
    if (this.count === this.kept.length) {
      const kept = new Float64Array(2 * this.kept.length);
      kept.set(this.kept);
      this.kept = kept;
    }
    this.kept[this.count++] = value;
    if (2 * this.count > this.slots.length) {
      this.slots = DistinctValues.emptySlots(2 * this.slots.length);
      for (let i = 0; i < this.count; i++) this.insert(this.kept[i]);
    }
  }

  values(): Float64Array {
    return this.kept.slice(0, this.count);
  }

  /** Puts the value in its slot; false if it was there already. */
  private insert(value: number): boolean {
    const { slots } = this;
    const mask = slots.length - 1;
    const high = Math.floor(value / 2 ** 32);
    let slot = Math.imul((value >>> 0) ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> Math.clz32(mask);
    while (slots[slot] !== -1) {
      if (slots[slot] === value) return false;
      slot = (slot + 1) & mask;
    }
    slots[slot] = value;
    return true;
  }

  private static emptySlots(least: number): Float64Array {
    let size = 16;
    while (size < least) size *= 2;
    return new Float64Array(size).fill(-1);
  }
}
