/**
 * Border state classes (paper §5.2, §5.3, §5.5): decoding, successor expansion, encoding.
 *
 * A partial board up to (x, y) has a border of m points: fields 0..y-1 are points (x, 0..y-1) of the
 * column being filled, fields y..m-1 are points (x-1, y..m-1) of the previous column. Consecutive
 * fields are neighbours on the board, except fields y-1 and y (the "bump"), which are diagonal.
 * In the first column the previous column is off the board: those fields are EDGE ("edge states").
 *
 * Each field is 3 bits:
 *   0 EDGE · 1 EMPTY · 2 black stone with a liberty · 3 white stone with a liberty
 *   4 + UP + DOWN  a stone without liberties ("libertyless"); UP (1) when a stone of its string lies above
 *                  it on the border, DOWN (2) when one lies below. Strings cannot cross (planarity),
 *                  so these two flags pin the connections like balanced parentheses.
 * A libertyless stone's colour is not stored: it follows from the field above, since neighbouring libertyless
 * stones share a colour exactly when they are connected, and a stone next to a libertyless stone with a
 * liberty must be of the other colour. Some fields have no usable field above: field 0 and a field
 * below an EDGE, whose UP flag is free and holds the colour (1 = white), and the bump field y, which
 * the class normalisation makes white. A class (a state up to colour reversal) is stored as its member in which the first stone
 * met scanning the fields from y downwards, wrapping to 0, is white. So each class has one code.
 *
 * In the board's last column a point that no future point touches is forgotten (made EDGE), and a
 * state holding a libertyless string with no stone next to a future point is dropped: it can never
 * become legal. This is exact for the final count and keeps a last column that is also the first
 * (a 19×1 board swept 19 wide) from growing like 2.7^y.
 *
 * The class works on scratch typed arrays it owns: no allocation per call.
 */

import { FieldLayout, LIBERTYLESS_BITS } from './layout.js';

// Field codes.
export const EDGE_CODE = 0;
export const EMPTY_CODE = 1;
export const STONE_CODE = 2; // + colour
export const LIBERTYLESS_CODE = 4; // + UP + DOWN
export const UP = 1;
export const DOWN = 2;

// Decoded point kinds.
export const EDGE = 0;
export const EMPTY = 1;
export const STONE = 2; // a stone with a liberty
export const LIBERTYLESS = 3; // a stone without liberties, on the border

export const BLACK = 0;
export const WHITE = 1;

/** The most successors a state has: empty, black, white. */
export const MAX_SUCCESSORS = 3;

export class BorderStates {
  readonly width: number;
  readonly layout: FieldLayout;

  /** The decoded state of the last decode(): kind, colour (stones only), string label (libertyless only). */
  readonly kind: Uint8Array;
  readonly colour: Uint8Array;
  readonly group: Uint8Array;

  // Scratch: the successor being built, raw fields, the connection stack, flag bookkeeping.
  private readonly nextKind: Uint8Array;
  private readonly nextColour: Uint8Array;
  private readonly nextGroup: Uint8Array;
  private readonly fields: Uint8Array;
  private readonly stack: Uint8Array;
  private readonly seen: Uint8Array;
  private readonly hasUp: Uint8Array;

  constructor(width: number) {
    this.layout = new FieldLayout(width);
    this.width = width;
    this.kind = new Uint8Array(width);
    this.colour = new Uint8Array(width);
    this.group = new Uint8Array(width);
    this.nextKind = new Uint8Array(width);
    this.nextColour = new Uint8Array(width);
    this.nextGroup = new Uint8Array(width);
    this.fields = new Uint8Array(width);
    this.stack = new Uint8Array(width);
    this.seen = new Uint8Array(width + 1);
    this.hasUp = new Uint8Array(width);
  }

  /**
   * Decodes (hi, lo) at step y into kind / colour / group. Returns false when the code is not a
   * well-formed border state (unbalanced connections, a libertyless stone whose colour cannot follow,
   * connected stones of different colours). Canonical form is checked by isCanonical().
   */
  decode(hi: number, lo: number, y: number): boolean {
    const { width, kind, colour, group, fields, stack } = this;
    this.layout.unpack(hi, lo, y, fields);
    let depth = 0;
    let wellFormed = true;
    for (let i = 0; i < width; i++) {
      const code = fields[i];
      if (code < LIBERTYLESS_CODE) {
        kind[i] = code < STONE_CODE ? code : STONE;
        colour[i] = code & 1;
        group[i] = 0;
        continue;
      }
      kind[i] = LIBERTYLESS;
      const colourOnTop = i === 0 || kind[i - 1] === EDGE;
      const linkedUp = !colourOnTop && (code & UP) !== 0;
      let c: number;
      if (colourOnTop) c = code & UP;
      else if (i === y) c = WHITE;
      else if (kind[i - 1] === STONE) c = colour[i - 1] ^ 1;
      else if (kind[i - 1] === LIBERTYLESS) c = linkedUp && stack[depth - 1] === i - 1 ? colour[i - 1] : colour[i - 1] ^ 1;
      else {
        wellFormed = false; // a libertyless stone next to an empty point has a liberty
        c = WHITE;
      }
      colour[i] = c;
      if (linkedUp) {
        if (depth === 0) {
          wellFormed = false;
          group[i] = i;
        } else {
          const above = stack[--depth];
          group[i] = group[above];
          if (colour[above] !== c) wellFormed = false;
        }
      } else {
        group[i] = i;
      }
      if ((code & DOWN) !== 0) stack[depth++] = i;
    }
    return wellFormed && depth === 0;
  }

  /**
   * Writes the successors of (hi, lo) at step y, one per colour of point (x, y) that keeps the
   * partial board pseudolegal, to out[at..] as (hi, lo) pairs for step (y + 1) mod width.
   * Returns how many: 2 or 3 (in the last column, 0 to 3). The state must be valid.
   * This is the plain reference: Expander.expand gives the same successors faster.
   */
  expandReference(hi: number, lo: number, y: number, out: Uint32Array, at: number, lastColumn = false): number {
    this.decode(hi, lo, y);
    const nextY = y + 1 === this.width ? 0 : y + 1;
    let count = 0;
    for (let c = EMPTY_CHOICE; c <= WHITE; c++) {
      if (this.placePoint(y, c) && (!lastColumn || this.forgetAbove(y))) {
        this.encodeBorder(this.nextKind, this.nextColour, this.nextGroup, nextY, out, at + 2 * count);
        count++;
      }
    }
    return count;
  }

  /**
   * Builds in next* the border after placing point (x, y) on the decoded state: empty when
   * choice is EMPTY_CHOICE, else a stone of colour `choice`. Returns false when that leaves a string
   * with no liberty and no way to get one.
   */
  private placePoint(y: number, choice: number): boolean {
    const { width, kind, colour, group, nextKind, nextColour, nextGroup } = this;
    for (let i = 0; i < width; i++) {
      nextKind[i] = kind[i];
      nextColour[i] = colour[i];
      nextGroup[i] = group[i];
    }
    const upKind = y > 0 ? kind[y - 1] : EDGE; // (x, y-1), or the top edge
    const leftKind = kind[y]; // (x-1, y), leaving the border now
    if (choice === EMPTY_CHOICE) {
      if (upKind === LIBERTYLESS) this.liberate(group[y - 1]);
      if (leftKind === LIBERTYLESS) this.liberate(group[y]);
      nextKind[y] = EMPTY;
      return true;
    }
    const upSame = upKind >= STONE && colour[y - 1] === choice;
    const leftSame = leftKind >= STONE && colour[y] === choice;
    // A libertyless enemy stone leaving the border must have a string mate still on it.
    if (leftKind === LIBERTYLESS && !leftSame && this.members(group[y]) === 1) return false;
    const liberty = upKind === EMPTY || leftKind === EMPTY || (upSame && upKind === STONE) || (leftSame && leftKind === STONE);
    if (liberty) {
      if (upSame && upKind === LIBERTYLESS) this.liberate(group[y - 1]);
      if (leftSame && leftKind === LIBERTYLESS) this.liberate(group[y]);
      nextKind[y] = STONE;
    } else {
      // Joins the libertyless strings of its same-coloured neighbours; takes over the left one's label.
      const label = leftSame ? group[y] : width;
      if (upSame) this.relabel(group[y - 1], label);
      nextKind[y] = LIBERTYLESS;
      nextGroup[y] = label;
    }
    nextColour[y] = choice;
    return true;
  }

  /**
   * Last column only: forgets the fields above the point just placed at y, which no future point
   * touches. Returns false when one of them is a libertyless stone whose string has no stone at
   * field y or below: it can never get a liberty.
   */
  private forgetAbove(y: number): boolean {
    const { width, nextKind, nextGroup, seen } = this;
    seen.fill(0);
    for (let i = y; i < width; i++) if (nextKind[i] === LIBERTYLESS) seen[nextGroup[i]] = 1;
    for (let i = 0; i < y; i++) {
      if (nextKind[i] === LIBERTYLESS && seen[nextGroup[i]] === 0) return false;
      nextKind[i] = EDGE;
    }
    return true;
  }

  /** Turns every libertyless stone of string `label` in next* into a stone with a liberty. */
  private liberate(label: number): void {
    const { width, nextKind, nextGroup } = this;
    for (let i = 0; i < width; i++) {
      if (nextKind[i] === LIBERTYLESS && nextGroup[i] === label) nextKind[i] = STONE;
    }
  }

  private relabel(from: number, to: number): void {
    const { width, nextKind, nextGroup } = this;
    for (let i = 0; i < width; i++) {
      if (nextKind[i] === LIBERTYLESS && nextGroup[i] === from) nextGroup[i] = to;
    }
  }

  /** Number of border stones of libertyless string `label` in the decoded state. */
  private members(label: number): number {
    let n = 0;
    for (let i = 0; i < this.width; i++) if (this.kind[i] === LIBERTYLESS && this.group[i] === label) n++;
    return n;
  }

  /**
   * Encodes a border given as kind / colour / group (labels below width + 1) for step y into its
   * class code, written as (hi, lo) to out[at], out[at + 1].
   */
  encodeBorder(kind: Uint8Array, colour: Uint8Array, group: Uint8Array, y: number, out: Uint32Array, at: number): void {
    const { width, fields, seen, hasUp } = this;
    // Normalise: the first stone from field y on, wrapping round, is white.
    let flip = 0;
    for (let k = 0, i = y; k < width; k++, i = i + 1 === width ? 0 : i + 1) {
      if (kind[i] >= STONE) {
        flip = colour[i] ^ WHITE;
        break;
      }
    }
    seen.fill(0);
    for (let i = 0; i < width; i++) {
      if (kind[i] !== LIBERTYLESS) continue;
      hasUp[i] = seen[group[i]];
      seen[group[i]] = 1;
    }
    seen.fill(0);
    for (let i = width - 1; i >= 0; i--) {
      const k = kind[i];
      if (k === LIBERTYLESS) {
        const down = seen[group[i]] === 1 ? DOWN : 0;
        seen[group[i]] = 1;
        const top = i === 0 || kind[i - 1] === EDGE ? colour[i] ^ flip : hasUp[i];
        fields[i] = LIBERTYLESS_CODE | down | top;
      } else if (k === STONE) {
        fields[i] = STONE_CODE | (colour[i] ^ flip);
      } else {
        fields[i] = k; // EDGE_CODE or EMPTY_CODE
      }
    }
    this.layout.pack(fields, y, out, at);
  }

  /** Whether (hi, lo) is the one code of a well-formed border state class at step y. */
  isCanonical(hi: number, lo: number, y: number): boolean {
    if (!this.decode(hi, lo, y)) return false;
    const out = this.canonicalScratch;
    this.encodeBorder(this.kind, this.colour, this.group, y, out, 0);
    return out[0] === hi && out[1] === lo;
  }

  private readonly canonicalScratch = new Uint32Array(2);
}

/** Whether a state at step 0 is a legal final state: no stone lacks a liberty. */
export function isLegalFinal(hi: number, lo: number): boolean {
  return ((hi & LIBERTYLESS_BITS) | (lo & LIBERTYLESS_BITS)) === 0;
}

/** The `choice` of placePoint that leaves the point empty; black and white are 0 and 1. */
const EMPTY_CHOICE = -1;

/** The code of the all-edge state at step 0: the start of every count. */
export const START_HI = 0;
export const START_LO = 0;
