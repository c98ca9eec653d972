/**
 * Where each 3-bit border field lives inside a packed state.
 *
 * A state of width m is m fields of 3 bits: up to 57 bits at width 19, more than a JS number holds
 * exactly and more than 32-bit bitwise operators reach. So a packed state is two unsigned 32-bit
 * words: `lo` holds the 10 lowest slots (30 bits), `hi` the rest (up to 27 bits). Its numeric value,
 * which is the sort order, is hi * 2^30 + lo.
 *
 * The slot of a field depends on the step y (the number of points of the current column already
 * placed): field y, the one the next step replaces, goes to the lowest slot, then y−1, y−2, … (the
 * current column upwards), then wrapping round to the previous column from the bottom, so field y+1
 * is the most significant. The predecessors of a state differ mostly in field y and in the strings
 * just above it, so this order keeps them near each other in a sorted stream (paper §5.5,
 * "redundancy"): measured on 10×10 with --memory 8M, redundancy 1.41 against 1.60 for the
 * opposite rotation. From one step to the next every field moves one slot up and field y+1 wraps
 * from the top slot to slot 0.
 */

export const FIELD_BITS = 3;
export const FIELD_MASK = 7;
/** Fields held by the low word. */
export const LOW_FIELDS = 10;
/**
 * A state is two words: lo holds fields 0–9 (30 bits), hi the rest (27 bits at width 19).
 * hi * HIGH_UNIT + lo is the state's numeric value.
 */
export const LOW_BITS = 30;
export const HIGH_UNIT = 2 ** LOW_BITS;
export const LOW_MASK = HIGH_UNIT - 1;
export const HIGH_MASK = 2 ** 27 - 1;
export const MAX_WIDTH = 19;
/** Widest state whose numeric value is an exact JS number (3 * 17 = 51 bits < 53). */
export const MAX_EXACT_NUMBER_WIDTH = 17;

export class FieldLayout {
  readonly width: number;

  constructor(width: number) {
    if (!Number.isInteger(width) || width < 1 || width > MAX_WIDTH) {
      throw new RangeError(`state width must be an integer from 1 to ${MAX_WIDTH}, got ${width}`);
    }
    this.width = width;
  }

  /** Fills fields[0..width) from the packed state (hi, lo) at step y. */
  unpack(hi: number, lo: number, y: number, fields: Uint8Array): void {
    const { width } = this;
    let word = lo;
    let i = y; // the field in slot s is (y − s) mod width
    for (let s = 0; s < width; s++) {
      if (s === LOW_FIELDS) word = hi;
      fields[i] = word & FIELD_MASK;
      word >>>= FIELD_BITS;
      if (--i < 0) i = width - 1;
    }
  }

  /** Packs fields[0..width) for step y and writes hi to out[at], lo to out[at + 1]. */
  pack(fields: Uint8Array, y: number, out: Uint32Array, at: number): void {
    const { width } = this;
    let lo = 0;
    let hi = 0;
    let i = y;
    for (let s = 0; s < width; s++) {
      if (s < LOW_FIELDS) lo |= fields[i] << (FIELD_BITS * s);
      else hi |= fields[i] << (FIELD_BITS * (s - LOW_FIELDS));
      if (--i < 0) i = width - 1;
    }
    out[at] = hi;
    out[at + 1] = lo;
  }
}

/** Bit 2 of every field: set exactly in the fields of libertyless stones, whatever the slot order. */
export const LIBERTYLESS_BITS = 0o4444444444;
