/**
 * AssemblyScript: the successor expansion of lib/state/expander.ts, compiled to WebAssembly by
 * `npm run build` (asc). It mirrors Expander.expand line for line; what differs is the state, held
 * here as one 64-bit integer (hi · 2^30 + lo, the field slots of lib/state/layout.ts), which spares
 * the two-word shifts, and the batch: one call expands a whole batch of parents.
 *
 * Memory belongs to the caller (lib/state/expander-kernel.ts), which places the parents, the
 * successors and the per-parent counts above heapBase(). Below it are this module's scratch fields.
 * In the board's last column, which forgets fields, a parent is decoded and each successor encoded
 * from scratch, as BorderStates.expandReference does (lastColumn below).
 */

// Field codes, as in lib/state/border.ts.
const EMPTY_CODE: u64 = 1;
const STONE_CODE: u64 = 2;
const LIBERTYLESS_CODE: u64 = 4;
const UP: u64 = 1;
const DOWN: u64 = 2;
const WHITE: i32 = 1;
const NONE: i32 = -1;
/** An empty slot of fanOut's index. */
const NONE_SLOT: u32 = 0xffffffff;
/** 2^64 / φ, for multiplicative hashing; in halves, since the linter reads a 64-bit literal as a JS number. */
const GOLDEN: u64 = ((<u64>0x9e3779b9) << 32) | 0x7f4a7c15;

const LOW_BITS: u64 = 30;
const LOW_MASK: u64 = (1 << LOW_BITS) - 1;
/** Bit 0 of every field slot. */
const FIELD_ONES: u64 = ((<u64>0o1111111111) << LOW_BITS) | 0o1111111111;

// The parent, decoded: per field its code, a stone's colour, a libertyless stone's string label and
// string neighbours (the nearest stone of its string above and below), and the stack of open strings.
const fields = memory.data(32);
const colour = memory.data(32);
const group = memory.data(32);
const above = memory.data(32);
const below = memory.data(32);
const stack = memory.data(32);

let width: i32 = 0;
let y: i32 = 0;
/** The successor being built, in the parent's layout. */
let state: u64 = 0;

/** Where the caller's memory starts. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * Expands the n parents at `parents` ((hi, lo) u32 pairs) for step `step` of a board `boardWidth`
 * wide, not in its last column. Writes the successors contiguously at `successors` as (hi, lo) pairs
 * for the next step (in the last column, lastColumn), and each parent's number of successors as a byte at counts + i. Returns the
 * number of successors.
 */
export function expandBatch(parents: usize, n: i32, step: i32, boardWidth: i32, lastColumn: bool, successors: usize, counts: usize): i32 {
  width = boardWidth;
  y = step;
  let out = successors;
  for (let i = 0; i < n; i++) {
    const at = parents + ((<usize>i) << 3);
    const s = ((<u64>load<u32>(at)) << LOW_BITS) | (<u64>load<u32>(at + 4));
    const made = lastColumn ? expandForgetting(s, out) : expandOne(s, out);
    store<u8>(counts + i, <u8>made);
    out += (<usize>made) << 3;
  }
  return <i32>((out - successors) >> 3);
}

/**
 * Sends the successors of the last expandBatch, each with its parent's k residues (at `residues`,
 * k words a parent), to the region of its owner among `owners` (ownerOf in lib/engine/peer.ts). The
 * region of owner d starts at regions + d · regionBytes: its states as (hi, lo) pairs, then from
 * `residueOffset` on its residues, k words a record; sizes + 4d receives its number of records.
 * Equal successors of the batch are combined on the way, their residues added modulo moduli[r]:
 * siblings (parents equal but for the field the step replaces) share most of their successors,
 * and a parent's siblings are its neighbours in state order, so about a third of the successors
 * never reach the state table. `index` has 2^indexBits slots (u32, (record << 8) | owner).
 * What the parents send to dropped successors, times × residue for each missing successor, is added
 * modulo moduli[r] (u32 at `moduli`) to the u32 tally at `dropped`.
 */
export function fanOut(
  n: i32,
  k: i32,
  residues: usize,
  successors: usize,
  counts: usize,
  owners: i32,
  regions: usize,
  regionBytes: usize,
  residueOffset: usize,
  sizes: usize,
  moduli: usize,
  dropped: usize,
  index: usize,
  indexBits: i32,
): void {
  for (let d = 0; d < owners; d++) store<u32>(sizes + ((<usize>d) << 2), 0);
  const mask = ((<u32>1) << indexBits) - 1;
  const shift = <u64>(64 - indexBits);
  memory.fill(index, 0xff, (<usize>mask + 1) << 2);
  const recordBytes = (<usize>k) << 2;
  let from = successors;
  for (let i = 0; i < n; i++) {
    const count = <i32>load<u8>(counts + i);
    const src = residues + <usize>i * recordBytes;
    for (let s = 0; s < count; s++, from += 8) {
      const key = load<u64>(from); // hi in its low half, lo in its high half
      let h = <u32>((key * GOLDEN) >> shift);
      for (;;) {
        const slot = index + ((<usize>h) << 2);
        const e = load<u32>(slot);
        if (e == NONE_SLOT) {
          const d = owners == 1 ? 0 : ownerOf(<u32>key, <u32>(key >> 32), owners);
          const sizeAt = sizes + ((<usize>d) << 2);
          const j = <usize>load<u32>(sizeAt);
          store<u32>(sizeAt, <u32>(j + 1));
          store<u32>(slot, ((<u32>j) << 8) | (<u32>d));
          const region = regions + <usize>d * regionBytes;
          store<u64>(region + (j << 3), key);
          const to = region + residueOffset + j * recordBytes;
          for (let r: usize = 0; r < recordBytes; r += 4) store<u32>(to + r, load<u32>(src + r));
          break;
        }
        const j = <usize>(e >> 8);
        const region = regions + <usize>(e & 0xff) * regionBytes;
        if (load<u64>(region + (j << 3)) == key) {
          const to = region + residueOffset + j * recordBytes;
          for (let r: usize = 0; r < recordBytes; r += 4) {
            const m = <u64>load<u32>(moduli + r);
            let sum = <u64>load<u32>(to + r) + <u64>load<u32>(src + r);
            if (sum >= m) sum -= m;
            store<u32>(to + r, <u32>sum);
          }
          break;
        }
        h = (h + 1) & mask;
      }
    }
    if (count < 3) {
      const times = <u64>(3 - count);
      for (let r = 0; r < k; r++) {
        const at = (<usize>r) << 2;
        const p = <u64>load<u32>(moduli + at);
        store<u32>(dropped + at, <u32>((<u64>load<u32>(dropped + at) + times * <u64>load<u32>(src + at)) % p));
      }
    }
  }
}

/**
 * Extends the residues of n parents from the first `from` moduli to the first `to`, in place: parent
 * i's `from` words at residues + 4·from·i become its `to` words at residues + 4·to·i (the last parent
 * first, so no input is overwritten before it is read). Mirrors ResidueExtender.extend in
 * lib/residues/growth.ts: Garner's mixed-radix digits, with inverse[i·from + j] = moduli[i]^-1 mod
 * moduli[j], then each new residue from them, with reduced[i·to + j] = moduli[i] mod moduli[j].
 * `scratch` holds 2·from words of u64. Every product is of two values below 2^32: exact in u64.
 */
export function extendResidues(
  n: i32,
  from: i32,
  to: i32,
  residues: usize,
  moduli: usize,
  inverse: usize,
  reduced: usize,
  scratch: usize,
): void {
  const digits = scratch;
  const saved = scratch + ((<usize>from) << 3);
  for (let i = n - 1; i >= 0; i--) {
    const src = residues + <usize>i * <usize>from * 4;
    const dst = residues + <usize>i * <usize>to * 4;
    for (let j = 0; j < from; j++) {
      const p = <u64>load<u32>(moduli + ((<usize>j) << 2));
      const v = <u64>load<u32>(src + ((<usize>j) << 2));
      store<u64>(saved + ((<usize>j) << 3), v);
      let t = v;
      for (let q = 0; q < j; q++) {
        const d = load<u64>(digits + ((<usize>q) << 3)) % p;
        t = t >= d ? t - d : t + p - d;
        t = (t * <u64>load<u32>(inverse + ((<usize>(q * from + j)) << 2))) % p;
      }
      store<u64>(digits + ((<usize>j) << 3), t);
    }
    for (let j = 0; j < from; j++) store<u32>(dst + ((<usize>j) << 2), <u32>load<u64>(saved + ((<usize>j) << 3)));
    for (let j = from; j < to; j++) {
      const q = <u64>load<u32>(moduli + ((<usize>j) << 2));
      let value = load<u64>(digits + ((<usize>(from - 1)) << 3)) % q;
      for (let m = from - 2; m >= 0; m--) {
        const r = <u64>load<u32>(reduced + ((<usize>(m * to + j)) << 2));
        value = (value * r + (load<u64>(digits + ((<usize>m) << 3)) % q)) % q;
      }
      store<u32>(dst + ((<usize>j) << 2), <u32>value);
    }
  }
}

/** The worker that owns a state: mirrors ownerOf in lib/engine/peer.ts. */
function ownerOf(hi: u32, lo: u32, owners: i32): i32 {
  let h = ((lo >> 3) ^ (hi * 0x85ebca6b)) * 0x27d4eb2f;
  h ^= h >> 16;
  return <i32>(h % <u32>owners);
}

function expandOne(parent: u64, out: usize): i32 {
  const left = parent & 7; // field y is in slot 0, field y − 1 in slot 1
  const up: u64 = y > 0 ? (parent >> 3) & 7 : 0;
  if (left < LIBERTYLESS_CODE && up < LIBERTYLESS_CODE) return expandQuick(parent, left, up, out);
  readParent(parent);
  const upCode: u64 = y > 0 ? fieldAt(y - 1) : 0; // the top edge acts like EDGE: no stone, no liberty
  const leftCode = fieldAt(y);

  // Empty: frees the strings above and to the left.
  state = parent;
  if (upCode >= LIBERTYLESS_CODE) liberate(y - 1);
  if (leftCode >= LIBERTYLESS_CODE) liberate(y);
  setField(y, EMPTY_CODE);
  finish(state, out, 0, NONE);
  let count = 1;

  for (let c = 0; c <= WHITE; c++) {
    const upSame = upCode >= STONE_CODE && colourAt(y - 1) == c;
    const leftSame = leftCode >= STONE_CODE && colourAt(y) == c;
    const leftLeaves = leftCode >= LIBERTYLESS_CODE && !leftSame;
    if (leftLeaves && aboveAt(y) == NONE && belowAt(y) == NONE) continue; // its last liberty
    state = parent;
    if (leftLeaves) dropFromString(y);
    const liberty =
      upCode == EMPTY_CODE || leftCode == EMPTY_CODE || (upSame && upCode < LIBERTYLESS_CODE) || (leftSame && leftCode < LIBERTYLESS_CODE);
    if (liberty) {
      if (upSame && upCode >= LIBERTYLESS_CODE) liberate(y - 1);
      if (leftSame && leftCode >= LIBERTYLESS_CODE) liberate(y);
      setField(y, STONE_CODE | (<u64>c));
    } else if (leftSame) {
      // Continues the left stone's string in its place: same flags, same colour.
      if (upSame && groupAt(y - 1) != groupAt(y)) joinStrings(groupAt(y - 1), groupAt(y));
    } else if (upSame) {
      // Hangs below the stone above: after it in its string, before whatever followed it.
      setField(y, LIBERTYLESS_CODE | UP | (fieldAt(y - 1) & DOWN));
      setField(y - 1, fieldAt(y - 1) | DOWN);
    } else {
      setField(y, y == 0 ? LIBERTYLESS_CODE | (<u64>c) : LIBERTYLESS_CODE);
    }
    finish(state, out + ((<usize>count) << 3), c, NONE);
    count++;
  }
  return count;
}

/** Neither neighbour is a libertyless stone: each successor is the parent with field y replaced. */
function expandQuick(parent: u64, left: u64, up: u64, out: usize): i32 {
  const rest = parent & ~(<u64>7);
  finish(rest | EMPTY_CODE, out, 0, <i32>left);
  const open = up == EMPTY_CODE || left == EMPTY_CODE;
  for (let c = 0; c <= WHITE; c++) {
    // A neighbour of the same colour here has a liberty, and passes it on.
    const liberty = open || (up >= STONE_CODE && <i32>(up & 1) == c) || (left >= STONE_CODE && <i32>(left & 1) == c);
    const code: u64 = liberty ? STONE_CODE | (<u64>c) : y == 0 ? LIBERTYLESS_CODE | (<u64>c) : LIBERTYLESS_CODE;
    finish(rest | code, out + 8 + ((<usize>c) << 3), c, <i32>left);
  }
  return 3;
}

/** Bit offset of field i's slot: field y is in slot 0, then y − 1, …, wrapping to width − 1. */
function bitOf(i: i32): u64 {
  const slot = i <= y ? y - i : y - i + width;
  return <u64>(3 * slot);
}

/** Decodes the colour, string label and string neighbours of the parent's stones. */
function readParent(parent: u64): void {
  let depth = 0;
  for (let i = 0; i < width; i++) {
    const code = (parent >> bitOf(i)) & 7;
    store<u8>(fields + i, <u8>code);
    if (code < LIBERTYLESS_CODE) {
      store<u8>(colour + i, <u8>(code & 1));
      continue;
    }
    const linkedUp = i > 0 && (code & UP) != 0;
    let c: i32;
    if (i == 0) c = <i32>(code & UP);
    else if (i == y) c = WHITE;
    else if (fieldAt(i - 1) < LIBERTYLESS_CODE) c = colourAt(i - 1) ^ 1;
    else c = linkedUp && load<i8>(stack + depth - 1) == i - 1 ? colourAt(i - 1) : colourAt(i - 1) ^ 1;
    store<u8>(colour + i, <u8>c);
    if (linkedUp) {
      const mate = <i32>load<i8>(stack + --depth);
      store<i8>(above + i, <i8>mate);
      store<i8>(below + mate, <i8>i);
      store<i8>(group + i, load<i8>(group + mate));
    } else {
      store<i8>(above + i, <i8>NONE);
      store<i8>(group + i, <i8>i);
    }
    store<i8>(below + i, <i8>NONE);
    if ((code & DOWN) != 0) store<i8>(stack + depth++, <i8>i);
  }
}

function fieldAt(i: i32): u64 {
  return <u64>load<u8>(fields + i);
}
function colourAt(i: i32): i32 {
  return <i32>load<u8>(colour + i);
}
function groupAt(i: i32): i32 {
  return <i32>load<i8>(group + i);
}
function aboveAt(i: i32): i32 {
  return <i32>load<i8>(above + i);
}
function belowAt(i: i32): i32 {
  return <i32>load<i8>(below + i);
}

/** Sets field i of the successor being built to `code`. */
function setField(i: i32, code: u64): void {
  const bit = bitOf(i);
  state = (state & ~((<u64>7) << bit)) | (code << bit);
}

/** Gives a liberty to every stone of the string through field i. */
function liberate(i: i32): void {
  for (let j = i; j != NONE; j = aboveAt(j)) setField(j, STONE_CODE | (<u64>colourAt(j)));
  for (let j = belowAt(i); j != NONE; j = belowAt(j)) setField(j, STONE_CODE | (<u64>colourAt(j)));
}

/** Field i leaves the border while its string stays on it: its string neighbours lose that link. */
function dropFromString(i: i32): void {
  const up = aboveAt(i);
  const down = belowAt(i);
  if (up == NONE) setField(down, fieldAt(down) & ~UP);
  else if (down == NONE) setField(up, fieldAt(up) & ~DOWN);
}

/** Makes the strings labelled a and b one: every member but the first links up, all but the last down. */
function joinStrings(a: i32, b: i32): void {
  let last = NONE;
  for (let i = 0; i < width; i++) {
    if (fieldAt(i) < LIBERTYLESS_CODE || (groupAt(i) != a && groupAt(i) != b)) continue;
    if (last == NONE) setField(i, i == 0 ? fieldAt(i) & ~DOWN : LIBERTYLESS_CODE);
    else {
      setField(i, LIBERTYLESS_CODE | UP);
      const bit = bitOf(last);
      setField(last, ((state >> bit) & 7) | DOWN);
    }
    last = i;
  }
}

/**
 * Normalises the successor s (the first stone from field y + 1 on, wrapping, is white), moves it to
 * the next step's layout and stores it at `out`. `placed` is the colour of the stone at y; `left` is
 * the parent's field y when it came by expandQuick (colours not decoded), else NONE.
 */
function finish(s: u64, out: usize, placed: i32, left: i32): void {
  const stones = ((s >> 1) | (s >> 2)) & FIELD_ONES;
  if (stones != 0) {
    const bit = 63 - <i32>clz(stones);
    const code = (s >> (<u64>bit)) & 7;
    let field = y - bit / 3;
    if (field < 0) field += width;
    let reference: i32;
    if (code < LIBERTYLESS_CODE) reference = <i32>(code & 1);
    else if (field == y) reference = placed;
    else if (left == NONE) reference = colourAt(field);
    else reference = field == 0 ? <i32>(code & UP) : (left & 1) ^ 1;
    if (reference != WHITE) {
      // Codes 2 and 3 swap; field 0 keeps its colour in its UP bit.
      s ^= (~s >> 2) & (s >> 1) & FIELD_ONES;
      const zero = <u64>(3 * y);
      if (((s >> zero) & LIBERTYLESS_CODE) != 0) s ^= (<u64>1) << zero;
    }
  }
  // Next layout: every field one slot up, field y + 1 from the top slot to slot 0.
  const top = <u64>(3 * (width - 1));
  s = ((s << 3) & (((<u64>1) << (top + 3)) - 1)) | ((s >> top) & 7);
  store<u32>(out, <u32>(s >> LOW_BITS));
  store<u32>(out + 4, <u32>(s & LOW_MASK));
}

// The last column, as lib/state/border.ts: the parent decoded into point kinds, colours and string
// labels; each successor built in next*, its forgotten fields made EDGE, and encoded from scratch.
const EDGE: u8 = 0;
const EMPTY: u8 = 1;
const STONE: u8 = 2;
const LIBERTYLESS: u8 = 3;
const EMPTY_CHOICE: i32 = -1;

const kind = memory.data(32);
const nextKind = memory.data(32);
const nextColour = memory.data(32);
const nextGroup = memory.data(32);
const seen = memory.data(32);
const hasUp = memory.data(32);

function expandForgetting(parent: u64, out: usize): i32 {
  decode(parent);
  let count = 0;
  for (let c = EMPTY_CHOICE; c <= WHITE; c++) {
    if (placePoint(c) && forgetAbove()) {
      encodeNext(out + ((<usize>count) << 3));
      count++;
    }
  }
  return count;
}

/** BorderStates.decode for a valid state: kind, colour and string label (group) of every field. */
function decode(parent: u64): void {
  let depth = 0;
  for (let i = 0; i < width; i++) {
    const code = (parent >> bitOf(i)) & 7;
    if (code < LIBERTYLESS_CODE) {
      store<u8>(kind + i, code < STONE_CODE ? <u8>code : STONE);
      store<u8>(colour + i, <u8>(code & 1));
      store<u8>(group + i, 0);
      continue;
    }
    store<u8>(kind + i, LIBERTYLESS);
    const colourOnTop = i == 0 || load<u8>(kind + i - 1) == EDGE;
    const linkedUp = !colourOnTop && (code & UP) != 0;
    let c: i32;
    if (colourOnTop) c = <i32>(code & UP);
    else if (i == y) c = WHITE;
    else if (load<u8>(kind + i - 1) == STONE) c = colourAt(i - 1) ^ 1;
    else c = linkedUp && load<i8>(stack + depth - 1) == i - 1 ? colourAt(i - 1) : colourAt(i - 1) ^ 1;
    store<u8>(colour + i, <u8>c);
    if (linkedUp) store<u8>(group + i, load<u8>(group + <i32>load<i8>(stack + --depth)));
    else store<u8>(group + i, <u8>i);
    if ((code & DOWN) != 0) store<i8>(stack + depth++, <i8>i);
  }
}

/** BorderStates.placePoint: the border in next* after point y gets `choice`; false when that is illegal. */
function placePoint(choice: i32): bool {
  memory.copy(nextKind, kind, width);
  memory.copy(nextColour, colour, width);
  memory.copy(nextGroup, group, width);
  const upKind = y > 0 ? load<u8>(kind + y - 1) : EDGE;
  const leftKind = load<u8>(kind + y);
  if (choice == EMPTY_CHOICE) {
    if (upKind == LIBERTYLESS) liberateLabel(load<u8>(group + y - 1));
    if (leftKind == LIBERTYLESS) liberateLabel(load<u8>(group + y));
    store<u8>(nextKind + y, EMPTY);
    return true;
  }
  const upSame = upKind >= STONE && colourAt(y - 1) == choice;
  const leftSame = leftKind >= STONE && colourAt(y) == choice;
  // A libertyless enemy stone leaving the border must have a string mate still on it.
  if (leftKind == LIBERTYLESS && !leftSame && members(load<u8>(group + y)) == 1) return false;
  const liberty = upKind == EMPTY || leftKind == EMPTY || (upSame && upKind == STONE) || (leftSame && leftKind == STONE);
  if (liberty) {
    if (upSame && upKind == LIBERTYLESS) liberateLabel(load<u8>(group + y - 1));
    if (leftSame && leftKind == LIBERTYLESS) liberateLabel(load<u8>(group + y));
    store<u8>(nextKind + y, STONE);
  } else {
    // Joins the libertyless strings of its same-coloured neighbours; takes over the left one's label.
    const label = leftSame ? load<u8>(group + y) : <u8>width;
    if (upSame) relabel(load<u8>(group + y - 1), label);
    store<u8>(nextKind + y, LIBERTYLESS);
    store<u8>(nextGroup + y, label);
  }
  store<u8>(nextColour + y, <u8>choice);
  return true;
}

/** BorderStates.forgetAbove: fields above y become EDGE; false when a string there can never get a liberty. */
function forgetAbove(): bool {
  memory.fill(seen, 0, 32);
  for (let i = y; i < width; i++) if (load<u8>(nextKind + i) == LIBERTYLESS) store<u8>(seen + load<u8>(nextGroup + i), 1);
  for (let i = 0; i < y; i++) {
    if (load<u8>(nextKind + i) == LIBERTYLESS && load<u8>(seen + load<u8>(nextGroup + i)) == 0) return false;
    store<u8>(nextKind + i, EDGE);
  }
  return true;
}

function liberateLabel(label: u8): void {
  for (let i = 0; i < width; i++) {
    if (load<u8>(nextKind + i) == LIBERTYLESS && load<u8>(nextGroup + i) == label) store<u8>(nextKind + i, STONE);
  }
}

function relabel(from: u8, to: u8): void {
  for (let i = 0; i < width; i++) {
    if (load<u8>(nextKind + i) == LIBERTYLESS && load<u8>(nextGroup + i) == from) store<u8>(nextGroup + i, to);
  }
}

/** Border stones of libertyless string `label` in the parent. */
function members(label: u8): i32 {
  let n = 0;
  for (let i = 0; i < width; i++) if (load<u8>(kind + i) == LIBERTYLESS && load<u8>(group + i) == label) n++;
  return n;
}

/** BorderStates.encodeBorder of next* for the next step, stored at `out` as (hi, lo). */
function encodeNext(out: usize): void {
  const nextY = y + 1 == width ? 0 : y + 1;
  // Normalise: the first stone from field nextY on, wrapping round, is white.
  let flip = 0;
  for (let k = 0, i = nextY; k < width; k++, i = i + 1 == width ? 0 : i + 1) {
    if (load<u8>(nextKind + i) >= STONE) {
      flip = (<i32>load<u8>(nextColour + i)) ^ WHITE;
      break;
    }
  }
  memory.fill(seen, 0, 32);
  for (let i = 0; i < width; i++) {
    if (load<u8>(nextKind + i) != LIBERTYLESS) continue;
    const label = load<u8>(nextGroup + i);
    store<u8>(hasUp + i, load<u8>(seen + label));
    store<u8>(seen + label, 1);
  }
  memory.fill(seen, 0, 32);
  let s: u64 = 0;
  for (let i = width - 1; i >= 0; i--) {
    const k = load<u8>(nextKind + i);
    let code: u64;
    if (k == LIBERTYLESS) {
      const label = load<u8>(nextGroup + i);
      const down: u64 = load<u8>(seen + label) == 1 ? DOWN : 0;
      store<u8>(seen + label, 1);
      const top = i == 0 || load<u8>(nextKind + i - 1) == EDGE ? load<u8>(nextColour + i) ^ flip : load<u8>(hasUp + i);
      code = LIBERTYLESS_CODE | down | (<u64>top);
    } else if (k == STONE) code = STONE_CODE | (<u64>(load<u8>(nextColour + i) ^ flip));
    else code = <u64>k; // EDGE_CODE or EMPTY_CODE
    const slot = i <= nextY ? nextY - i : nextY - i + width;
    const bit = <u64>(3 * slot);
    s |= code << bit;
  }
  store<u32>(out, <u32>(s >> LOW_BITS));
  store<u32>(out + 4, <u32>(s & LOW_MASK));
}
