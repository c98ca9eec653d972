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
 * The board's last column forgets fields and drops dead states. That touches every field, so it goes
 * through the reference path. It is 1/n of the work.
 */

import {
  BorderStates,
  DOWN,
  EMPTY_CODE,
  NEEDY_CODE,
  STONE_CODE,
  UP,
  WHITE,
} from './border.js';
import { FieldLayout } from './layout.js';

const NONE = -1;

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
  /** The successor being built. */
  private readonly next: Uint8Array;

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
    this.next = new Uint8Array(width);
  }

  /**
   * Writes the successors of the valid state (hi, lo) at step y to out[at..] as (hi, lo) pairs for
   * step (y + 1) mod width, and returns how many there are (2 or 3; 0 to 3 in the last column).
   */
  expand(hi: number, lo: number, y: number, out: Uint32Array, at: number, lastColumn = false): number {
    if (lastColumn) return this.reference.expandReference(hi, lo, y, out, at, true);
    this.readParent(hi, lo, y);
    const { fields, colour } = this;
    const upCode = y > 0 ? fields[y - 1] : 0; // the top edge acts like EDGE: no stone, no liberty
    const leftCode = fields[y];
    let count = 0;

    // Empty: frees the strings above and to the left.
    this.startSuccessor();
    if (upCode >= NEEDY_CODE) this.liberate(y - 1);
    if (leftCode >= NEEDY_CODE) this.liberate(y);
    this.next[y] = EMPTY_CODE;
    this.finish(y, out, at + 2 * count++, 0);

    for (let c = 0; c <= WHITE; c++) {
      const upSame = upCode >= STONE_CODE && colour[y - 1] === c;
      const leftSame = leftCode >= STONE_CODE && colour[y] === c;
      const leftLeaves = leftCode >= NEEDY_CODE && !leftSame;
      if (leftLeaves && this.above[y] === NONE && this.below[y] === NONE) continue; // its last liberty
      this.startSuccessor();
      const next = this.next;
      if (leftLeaves) this.dropFromString(y);
      const liberty =
        upCode === EMPTY_CODE || leftCode === EMPTY_CODE || (upSame && upCode < NEEDY_CODE) || (leftSame && leftCode < NEEDY_CODE);
      if (liberty) {
        if (upSame && upCode >= NEEDY_CODE) this.liberate(y - 1);
        if (leftSame && leftCode >= NEEDY_CODE) this.liberate(y);
        next[y] = STONE_CODE | c;
      } else if (leftSame) {
        // Continues the left stone's string in its place: same flags, same colour.
        if (upSame && this.group[y - 1] !== this.group[y]) this.joinStrings(this.group[y - 1], this.group[y]);
      } else if (upSame) {
        // Hangs below the stone above: after it in its string, before whatever followed it.
        next[y] = NEEDY_CODE | UP | (fields[y - 1] & DOWN);
        next[y - 1] |= DOWN;
      } else {
        next[y] = y === 0 ? NEEDY_CODE | c : NEEDY_CODE;
      }
      this.finish(y, out, at + 2 * count++, c);
    }
    return count;
  }

  /** Unpacks the parent and decodes the colour, string label and string neighbours of its stones. */
  private readParent(hi: number, lo: number, y: number): void {
    const { width, fields, colour, group, above, below, stack } = this;
    this.layout.unpack(hi, lo, y, fields);
    let depth = 0;
    for (let i = 0; i < width; i++) {
      const code = fields[i];
      if (code < NEEDY_CODE) {
        colour[i] = code & 1;
        continue;
      }
      const linkedUp = i > 0 && (code & UP) !== 0;
      if (i === 0) colour[i] = code & UP;
      else if (i === y) colour[i] = WHITE;
      else if (fields[i - 1] < NEEDY_CODE) colour[i] = colour[i - 1] ^ 1;
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

  private startSuccessor(): void {
    const { width, fields, next } = this;
    for (let i = 0; i < width; i++) next[i] = fields[i];
  }

  /** Gives a liberty to every stone of the string through field i. */
  private liberate(i: number): void {
    const { next, colour, above, below } = this;
    for (let j = i; j !== NONE; j = above[j]) next[j] = STONE_CODE | colour[j];
    for (let j = below[i]; j !== NONE; j = below[j]) next[j] = STONE_CODE | colour[j];
  }

  /** Field i leaves the border while its string stays on it: its string neighbours lose that link. */
  private dropFromString(i: number): void {
    const up = this.above[i];
    const down = this.below[i];
    if (up === NONE) this.next[down] &= ~UP; // down > i ≥ 0, so its UP bit is a flag, not a colour
    else if (down === NONE) this.next[up] &= ~DOWN;
  }

  /** Makes the strings labelled a and b one: every member but the first links up, all but the last down. */
  private joinStrings(a: number, b: number): void {
    const { width, next, group } = this;
    let last = NONE;
    for (let i = 0; i < width; i++) {
      if (next[i] < NEEDY_CODE || (group[i] !== a && group[i] !== b)) continue;
      if (last === NONE) next[i] = i === 0 ? next[i] & ~DOWN : next[i] & ~(UP | DOWN);
      else {
        next[i] = NEEDY_CODE | UP;
        next[last] |= DOWN;
      }
      last = i;
    }
  }

  /**
   * Normalises the successor's colours (the first stone from field y+1 on, wrapping, is white) and
   * packs it. `placed` is the colour of the stone at y, if any.
   */
  private finish(y: number, out: Uint32Array, at: number, placed: number): void {
    const { width, next, colour } = this;
    const nextY = y + 1 === width ? 0 : y + 1;
    let reference = WHITE;
    for (let k = 0, i = nextY; k < width; k++) {
      const code = next[i];
      if (code >= STONE_CODE) {
        reference = code < NEEDY_CODE ? code & 1 : i === y ? placed : colour[i];
        break;
      }
      if (++i === width) i = 0;
    }
    if (reference !== WHITE) {
      for (let i = 0; i < width; i++) {
        const code = next[i];
        if (code === STONE_CODE || code === (STONE_CODE | 1)) next[i] = code ^ 1;
      }
      if (next[0] >= NEEDY_CODE) next[0] ^= 1; // field 0 keeps its colour in its UP bit
    }
    this.layout.pack(next, nextY, out, at);
  }
}
