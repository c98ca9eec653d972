/**
 * The engine's innermost loop: successor expansion working on the packed field codes directly.
 *
 * BorderStates.expandReference decodes a state into kinds, colours and string labels and encodes each
 * successor from scratch. That is simple and is the reference, but most fields of a successor are
 * the fields of its parent. Here the parent's codes are copied and only what the new point changes
 * is edited: field y, the fields of strings it frees, and the connection flags of at most the strings
 * it joins or leaves. Then the class normalisation may flip every colour, and the fields are packed.
 * The colours of libertyless stones and each one's string neighbours (the nearest stone of its string
 * above and below) are decoded once per parent.
 *
 * Most parents have neither a libertyless stone above the new point nor one to its left. Then no
 * string is freed, joined or left, and the successors are the parent with field y replaced: they
 * are built from the packed words alone, with no decoding (expandQuick).
 *
 * The board's last column forgets fields and drops dead states. That touches every field, so it goes
 * through the reference path. It is 1/n of the work.
 */

import { BorderStates, DOWN, EMPTY_CODE, LIBERTYLESS_CODE, STONE_CODE, UP, WHITE } from './border.js';
import { FieldLayout, HIGH_MASK, LOW_MASK } from './layout.js';

const NONE = -1;

/** Bit 0 of every field slot in a word: for the colour-flip mask and the stone mask. */
const FIELD_ONES = 0o1111111111;

export class Expander {
  readonly width: number;
  private readonly layout: FieldLayout;
  private readonly reference: BorderStates;

  // The parent: its codes, each stone's colour, each libertyless stone's string label and neighbours.
  private readonly fields: Uint8Array;
  private readonly colour: Uint8Array;
  private readonly group: Int8Array;
  private readonly above: Int8Array;
  private readonly below: Int8Array;
  private readonly stack: Int8Array;
  /** Bit offset of field i in the parent's 60-bit layout: 3 × slot (slots 0–9 in lo, 10– in hi). */
  private readonly offset: Uint8Array;
  private y = 0;
  // The successor being built, as the parent's two words with edits (parent layout).
  private hi = 0;
  private lo = 0;

  constructor(width: number) {
    this.width = width;
    this.layout = new FieldLayout(width);
    this.reference = new BorderStates(width);
    this.fields = new Uint8Array(width);
    this.colour = new Uint8Array(width);
    this.group = new Int8Array(width);
    this.above = new Int8Array(width);
    this.below = new Int8Array(width);
    this.stack = new Int8Array(width);
    this.offset = new Uint8Array(width);
  }

  /**
   * Writes the successors of the valid state (hi, lo) at step y to out[at..] as (hi, lo) pairs for
   * step (y + 1) mod width, and returns how many there are (2 or 3; 0 to 3 in the last column).
   */
  expand(hi: number, lo: number, y: number, out: Uint32Array, at: number, lastColumn = false): number {
    if (lastColumn) return this.reference.expandReference(hi, lo, y, out, at, true);
    const left = lo & 7; // field y is in slot 0, field y − 1 in slot 1
    const up = y > 0 ? (lo >>> 3) & 7 : 0;
    if (left < LIBERTYLESS_CODE && up < LIBERTYLESS_CODE) return this.expandQuick(hi, lo, y, left, up, out, at);
    this.readParent(hi, lo, y);
    const { fields, colour } = this;
    const upCode = y > 0 ? fields[y - 1] : 0; // the top edge acts like EDGE: no stone, no liberty
    const leftCode = fields[y];
    let count = 0;

    // Empty: frees the strings above and to the left.
    this.hi = hi;
    this.lo = lo;
    if (upCode >= LIBERTYLESS_CODE) this.liberate(y - 1);
    if (leftCode >= LIBERTYLESS_CODE) this.liberate(y);
    this.setField(y, EMPTY_CODE);
    this.finish(out, at + 2 * count++, 0, this.hi, this.lo, NONE);

    for (let c = 0; c <= WHITE; c++) {
      const upSame = upCode >= STONE_CODE && colour[y - 1] === c;
      const leftSame = leftCode >= STONE_CODE && colour[y] === c;
      const leftLeaves = leftCode >= LIBERTYLESS_CODE && !leftSame;
      if (leftLeaves && this.above[y] === NONE && this.below[y] === NONE) continue; // its last liberty
      this.hi = hi;
      this.lo = lo;
      if (leftLeaves) this.dropFromString(y);
      const liberty =
        upCode === EMPTY_CODE ||
        leftCode === EMPTY_CODE ||
        (upSame && upCode < LIBERTYLESS_CODE) ||
        (leftSame && leftCode < LIBERTYLESS_CODE);
      if (liberty) {
        if (upSame && upCode >= LIBERTYLESS_CODE) this.liberate(y - 1);
        if (leftSame && leftCode >= LIBERTYLESS_CODE) this.liberate(y);
        this.setField(y, STONE_CODE | c);
      } else if (leftSame) {
        // Continues the left stone's string in its place: same flags, same colour.
        if (upSame && this.group[y - 1] !== this.group[y]) this.joinStrings(this.group[y - 1], this.group[y]);
      } else if (upSame) {
        // Hangs below the stone above: after it in its string, before whatever followed it.
        this.setField(y, LIBERTYLESS_CODE | UP | (fields[y - 1] & DOWN));
        this.setField(y - 1, fields[y - 1] | DOWN);
      } else {
        this.setField(y, y === 0 ? LIBERTYLESS_CODE | c : LIBERTYLESS_CODE);
      }
      this.finish(out, at + 2 * count++, c, this.hi, this.lo, NONE);
    }
    return count;
  }

  /**
   * expand() when the fields above (up) and to the left of (left) the new point hold no libertyless
   * stone: each successor is the parent with field y, in slot 0, replaced.
   */
  private expandQuick(hi: number, lo: number, y: number, left: number, up: number, out: Uint32Array, at: number): number {
    this.y = y;
    const rest = lo & ~7;
    this.finish(out, at, 0, hi, rest | EMPTY_CODE, left);
    const open = up === EMPTY_CODE || left === EMPTY_CODE;
    for (let c = 0; c <= WHITE; c++) {
      // A neighbour of the same colour here has a liberty, and passes it on.
      const liberty = open || (up >= STONE_CODE && (up & 1) === c) || (left >= STONE_CODE && (left & 1) === c);
      const code = liberty ? STONE_CODE | c : y === 0 ? LIBERTYLESS_CODE | c : LIBERTYLESS_CODE;
      this.finish(out, at + 2 + 2 * c, c, hi, rest | code, left);
    }
    return 3;
  }

  /** Unpacks the parent and decodes the colour, string label and string neighbours of its stones. */
  private readParent(hi: number, lo: number, y: number): void {
    const { width, fields, colour, group, above, below, stack, offset } = this;
    this.y = y;
    this.layout.unpack(hi, lo, y, fields);
    let depth = 0;
    for (let i = 0, slot = y; i < width; i++, slot = slot === 0 ? width - 1 : slot - 1) {
      offset[i] = 3 * slot;
      const code = fields[i];
      if (code < LIBERTYLESS_CODE) {
        colour[i] = code & 1;
        continue;
      }
      const linkedUp = i > 0 && (code & UP) !== 0;
      if (i === 0) colour[i] = code & UP;
      else if (i === y) colour[i] = WHITE;
      else if (fields[i - 1] < LIBERTYLESS_CODE) colour[i] = colour[i - 1] ^ 1;
      else colour[i] = linkedUp && stack[depth - 1] === i - 1 ? colour[i - 1] : colour[i - 1] ^ 1;
      if (linkedUp) {
        const mate = stack[--depth];
        above[i] = mate;
        below[mate] = i;
        group[i] = group[mate];
      } else {
        above[i] = NONE;
        group[i] = i;
      }
      below[i] = NONE;
      if ((code & DOWN) !== 0) stack[depth++] = i;
    }
  }

  /** Sets field i of the successor being built to `code`. */
  private setField(i: number, code: number): void {
    const bit = this.offset[i];
    if (bit < 30) this.lo = (this.lo & ~(7 << bit)) | (code << bit);
    else this.hi = (this.hi & ~(7 << (bit - 30))) | (code << (bit - 30));
  }

  private fieldOf(i: number): number {
    const bit = this.offset[i];
    return bit < 30 ? (this.lo >>> bit) & 7 : (this.hi >>> (bit - 30)) & 7;
  }

  /** Gives a liberty to every stone of the string through field i. */
  private liberate(i: number): void {
    const { colour, above, below } = this;
    for (let j = i; j !== NONE; j = above[j]) this.setField(j, STONE_CODE | colour[j]);
    for (let j = below[i]; j !== NONE; j = below[j]) this.setField(j, STONE_CODE | colour[j]);
  }

  /** Field i leaves the border while its string stays on it: its string neighbours lose that link. */
  private dropFromString(i: number): void {
    const up = this.above[i];
    const down = this.below[i];
    if (up === NONE)
      this.setField(down, this.fields[down] & ~UP); // down > i ≥ 0: a flag, not a colour
    else if (down === NONE) this.setField(up, this.fields[up] & ~DOWN);
  }

  /** Makes the strings labelled a and b one: every member but the first links up, all but the last down. */
  private joinStrings(a: number, b: number): void {
    const { width, fields, group } = this;
    let last = NONE;
    for (let i = 0; i < width; i++) {
      if (fields[i] < LIBERTYLESS_CODE || (group[i] !== a && group[i] !== b)) continue;
      if (last === NONE) this.setField(i, i === 0 ? fields[i] & ~DOWN : LIBERTYLESS_CODE);
      else {
        this.setField(i, LIBERTYLESS_CODE | UP);
        this.setField(last, this.fieldOf(last) | DOWN);
      }
      last = i;
    }
  }

  /**
   * Normalises the successor (hi, lo) (the first stone from field y+1 on, wrapping, is white), moves
   * it to the next step's layout and writes it. `placed` is the colour of the stone at y. `left` is
   * the parent's field y when it was expanded by expandQuick (colours not decoded), else NONE.
   */
  private finish(out: Uint32Array, at: number, placed: number, hi: number, lo: number, left: number): void {
    const { width, y } = this;
    // The first stone from field y + 1 on, wrapping, is in the highest slot holding a stone (field
    // y + 1 is in the top slot, field y in slot 0): codes 2–7 have bit 1 or 2 set.
    const stonesLo = ((lo >>> 1) | (lo >>> 2)) & FIELD_ONES;
    const stonesHi = ((hi >>> 1) | (hi >>> 2)) & FIELD_ONES;
    const bit = stonesHi !== 0 ? 30 + 31 - Math.clz32(stonesHi) : stonesLo !== 0 ? 31 - Math.clz32(stonesLo) : -1;
    if (bit >= 0) {
      const code = bit < 30 ? (lo >>> bit) & 7 : (hi >>> (bit - 30)) & 7;
      let field = y - bit / 3;
      if (field < 0) field += width;
      const reference =
        code < LIBERTYLESS_CODE ? code & 1 : field === y ? placed : left === NONE ? this.colour[field] : quickColour(field, code, left);
      if (reference !== WHITE) {
        // Codes 2 and 3 (bit 2 clear, bit 1 set) swap; field 0 keeps its colour in its UP bit.
        lo ^= (~lo >>> 2) & (lo >>> 1) & FIELD_ONES;
        hi ^= (~hi >>> 2) & (hi >>> 1) & FIELD_ONES;
        const zero = 3 * y; // field 0 is in slot y
        if (zero < 30) {
          if (((lo >>> zero) & LIBERTYLESS_CODE) !== 0) lo ^= 1 << zero;
        } else if (((hi >>> (zero - 30)) & LIBERTYLESS_CODE) !== 0) hi ^= 1 << (zero - 30);
      }
    }
    // Next layout: every field one slot up, field y + 1 from the top slot to slot 0.
    const top = 3 * (width - 1);
    const moved = top < 30 ? (lo >>> top) & 7 : (hi >>> (top - 30)) & 7;
    hi = ((hi << 3) | (lo >>> 27)) & HIGH_MASK;
    lo = ((lo << 3) & LOW_MASK) | moved;
    const past = top + 3; // where the top field was shifted to: clear it
    if (past < 30) lo &= ~(7 << past);
    else hi &= ~(7 << (past - 30));
    out[at] = hi;
    out[at + 1] = lo;
  }
}

/**
 * The colour of a libertyless stone at `field` (code `code`), the first stone from field y + 1 on,
 * without decoding: at field 0 it is kept in the UP bit; otherwise the stone is field y + 1, since
 * a libertyless stone after an empty point or an edge cannot come first, and its colour is the
 * other colour of the stone with a liberty at field y, `left`.
 */
function quickColour(field: number, code: number, left: number): number {
  return field === 0 ? code & UP : (left & 1) ^ 1;
}
