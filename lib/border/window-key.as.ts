/**
 * AssemblyScript: a state's window key, exactly as windowKey in lib/border/window-key.ts (which
 * says what it is and why no step of the window changes it), for the kernels that route by it
 * (expander-kernel.as.ts in its fan-out). The state is one 64-bit integer in the field slots of
 * step r, the window's first: field f in slot (r − f) mod width.
 */

const UP: u64 = 1;
const DOWN: u64 = 2;
const STONE_CODE: u64 = 2;
const LIBERTYLESS_CODE: u64 = 4;
/** Bit 0 and bit 2 of every field slot of a 64-bit state. */
const FIELD_ONES: u64 = ((<u64>0o1111111111) << 30) | 0o1111111111;
const FIELD_FOURS: u64 = FIELD_ONES << 2;
/** 2^64 / φ, for multiplicative hashing, in halves. */
const GOLDEN: u64 = ((<u64>0x9e3779b9) << 32) | 0x7f4a7c15;
/** Key classes: 2^BUCKET_BITS buckets, which the owners are packed over by weight. */
const BUCKET_BITS: u64 = 12;
export const KEY_BUCKETS: i32 = 1 << (<i32>BUCKET_BITS);

/** The window's first field, and the board's width. */
let firstRow: i32 = 0;
let keyWidth: i32 = 1;
/** Slots the key keeps: the fields outside the window (and, but in the last column, the row above it). */
let outside: u64 = 0;
/** The window's last field + 1; and whether keys tell apart the links of strings away from the window (setStringKeys). */
let windowEnd: i32 = 0;
let stringKeys = false;
/** Per field: its string (a field index) while the strings are found; and the strings' stack. */
const stringOf = memory.data(32);
const openStrings = memory.data(32);

/** Sets the window for windowKey: its first row r, `rows` rows (fewer at the column's end), of a board `width` wide. */
export function setWindow(r: i32, rows: i32, width: i32, lastColumn: bool): void {
  firstRow = r;
  keyWidth = width;
  // Slots 0 (field r) and width − 1 … width − rows + 1 (fields r + 1 …) are the window; slot 1 is field r − 1.
  const slots = width - min(rows, width - r); // slots 1 … slots: every field outside the window
  const bits = <u64>(3 * max(slots, 0));
  outside = (((<u64>1) << bits) - 1) << 3;
  if (r > 0 && lastColumn) outside &= ~(<u64>0o70);
  windowEnd = min(width, r + rows);
}

/**
 * Whether the keys also give, for each libertyless string with no stone on the window's rows or the
 * row above them, its fields' links (UP, DOWN): lib/border/window-key.ts's stringKeyOfBorder. Such
 * a string no step of the window can touch, but a string that loses its last stone there looks like
 * one, so a state's key can change inside a window (a partitioned count's split then moves it).
 */
export function setStringKeys(on: bool): void {
  stringKeys = on;
}

/**
 * The state's key for the window set: each field outside by its kind and, for a stone, its colour
 * against the stone in the lowest such slot (2 the same colour, 3 the other).
 */
export function windowKey(s: u64): u64 {
  if ((s & FIELD_FOURS) == 0) return keyOfColoured(s);
  const key = keyOfColoured(decoded(s, firstRow));
  return stringKeys ? withStrings(key, s, firstRow, 0) : key;
}

/**
 * The key, for the window set, of a state at a later step of it, whose fields lie in the slots of
 * step y (a successor the window made): its fields are turned back into the slots of step r first.
 */
export function windowKeyAt(s: u64, y: i32): u64 {
  const turn = turnAt(y);
  const key = keyOfColoured(colouredTurned(s, y, turn));
  return stringKeys && (s & FIELD_FOURS) != 0 ? withStrings(key, s, y, turn) : key;
}

/** Bits that turn the slots of step y back into those of the window's first step. */
function turnAt(y: i32): u64 {
  return <u64>(3 * ((y - firstRow + keyWidth) % keyWidth));
}

/** The state at step y, its libertyless stones decoded into stones of their colour, turned by `turn` bits. */
function colouredTurned(s: u64, y: i32, turn: u64): u64 {
  return turned((s & FIELD_FOURS) == 0 ? s : decoded(s, y), turn);
}

/** Fields (3 bits a slot) turned down by `turn` bits, round the board's width: from the slots of a later step into those of step r. */
function turned(v: u64, turn: u64): u64 {
  if (turn == 0) return v;
  const bits = <u64>(3 * keyWidth);
  return ((v >> turn) | (v << (bits - turn))) & (((<u64>1) << bits) - 1);
}

/**
 * The key with each libertyless field outside whose string has no stone on fields r − 1 … the
 * window's last (the fields a window's points touch) coded 4 + UP + DOWN by its links instead of
 * by its colour. The strings are found as decoding does: a field linked up continues the string
 * last left open (a bracket stack). `s` is in the slots of step y, `turn` bits from step r's.
 */
function withStrings(key: u64, s: u64, y: i32, turn: u64): u64 {
  let touched: u32 = 0; // strings, by their first field, with a stone a window's point touches
  let depth = 0;
  let previous: u64 = 0;
  let bit = <u64>(3 * y);
  for (let i = 0; i < keyWidth; i++) {
    const code = (s >> bit) & 7;
    if (code >= LIBERTYLESS_CODE) {
      let string = i;
      if (previous != 0 && (code & UP) != 0 && depth > 0) string = <i32>load<u8>(openStrings + --depth);
      store<u8>(stringOf + i, <u8>string);
      if ((code & DOWN) != 0) store<u8>(openStrings + depth++, <u8>string);
      if (i >= firstRow - 1 && i < windowEnd) touched |= (<u32>1) << string;
    }
    previous = code;
    bit = i == y ? <u64>(3 * (keyWidth - 1)) : bit - 3;
  }
  let links: u64 = 0;
  let mask: u64 = 0;
  previous = 0;
  bit = <u64>(3 * y);
  for (let i = 0; i < keyWidth; i++) {
    const code = (s >> bit) & 7;
    if (code >= LIBERTYLESS_CODE && ((touched >> load<u8>(stringOf + i)) & 1) == 0) {
      const up: u64 = previous != 0 && (code & UP) != 0 ? UP : 0;
      links |= (LIBERTYLESS_CODE | up | (code & DOWN)) << bit;
      mask |= (<u64>7) << bit;
    }
    previous = code;
    bit = i == y ? <u64>(3 * (keyWidth - 1)) : bit - 3;
  }
  mask = turned(mask, turn) & outside;
  links = turned(links, turn);
  return (key & ~mask) | (links & mask);
}

/** The key of a state whose libertyless stones are decoded into stones of their colour. */
function keyOfColoured(coloured: u64): u64 {
  return keyOfColouredIn(coloured, outside);
}

/**
 * The state at step y of the window set, its libertyless stones decoded into stones of their
 * colour and its fields turned into the slots of the window's first step: what windowKeyAt keys
 * (without string keys). Windows that start at the same row key it alike, each with its own
 * outsideMask(), so that one decoding serves them all.
 */
export function colouredAt(s: u64, y: i32): u64 {
  return colouredTurned(s, y, turnAt(y));
}

/** The slots the key of the window set keeps (for keyOfColouredIn). */
export function outsideMask(): u64 {
  return outside;
}

/** The key of a coloured state (colouredAt) for the window whose outsideMask() is `mask`. */
export function keyOfColouredIn(coloured: u64, mask: u64): u64 {
  const stones = (coloured >> 1) & FIELD_ONES & mask;
  if (stones == 0) return coloured & mask;
  const flip = ((coloured >> ctz(stones)) & 1) != 0 ? stones : 0;
  return (coloured ^ flip) & mask;
}

/** fmix64's first multiplier (MurmurHash3): a hash for sampling unrelated to bucketOf's. */
const SAMPLE_MIX: u64 = ((<u64>0xff51afd7) << 32) | 0xed558ccd;

/**
 * Whether state s is one of the one in mask + 1 (mask + 1 a power of 2) weighed for a window's
 * owners: chosen by a hash of the state, not its place in a drain, so that the same states give
 * the same weights in whatever order the threads hand them over.
 */
export function sampledState(s: u64, mask: u32): bool {
  return ((<u32>(((s ^ (s >> 33)) * SAMPLE_MIX) >> 32)) & mask) == 0;
}

/** Bucket of a key, from its high bits after a multiplicative hash. */
export function bucketOf(key: u64): i32 {
  return <i32>((key * GOLDEN) >> (64 - BUCKET_BITS));
}

/**
 * The state with every libertyless stone as a stone of its colour (2 black, 3 white), decoded as
 * lib/border/border.ts's decode does, from the field above: a first field on the border keeps it
 * in its UP bit, field r is white, and a stone below a stone with a liberty, or below a libertyless
 * one it is not linked to, has the other colour. The fields lie in the slots of step y. Linked to
 * the one above means its UP bit and that one's DOWN bit: an opening bracket right before a closing
 * one matches it. The fields are turned into position order (field i at position width − 1 − i,
 * bit 3 · position), so that the field above is the next position up; then all of them at once,
 * without a loop or a branch: a run of libertyless fields takes its first field's colour, flipped at
 * each field not linked to the one above, a prefix XOR down each run (five doubling steps, as runs
 * are at most 19 fields long).
 */
function decoded(s: u64, y: i32): u64 {
  const right = y == keyWidth - 1 ? 0 : <u64>(3 * (y + 1));
  const t = turned(s, right);
  const above = t >> 3; // each slot: the field above's code (0, EDGE, above field 0)
  const libertyless = (t >> 2) & FIELD_ONES;
  if (libertyless == 0) return s;
  const aboveLibertyless = (above >> 2) & FIELD_ONES;
  const aboveEdge = ~(above | (above >> 1) | (above >> 2)) & FIELD_ONES;
  const yAt = <u64>(3 * (keyWidth - 1 - y));
  const fieldY = (<u64>1) << yAt;
  // Where a run's colour starts afresh, and that colour (field y's white); elsewhere whether it flips.
  const starts = aboveEdge | fieldY | (~aboveLibertyless & FIELD_ONES);
  const fresh = (aboveEdge & t) | (~aboveEdge & (fieldY | (~fieldY & ~above)) & FIELD_ONES);
  const flips = ~(t & (above >> 1)) & FIELD_ONES; // not linked: its UP bit and the DOWN bit above
  let colour = (starts & fresh) | (~starts & flips & FIELD_ONES);
  let bounded = starts | (~libertyless & FIELD_ONES);
  for (let d: u64 = 3; d <= 48; d <<= 1) {
    colour ^= (colour >> d) & ~bounded & FIELD_ONES;
    bounded |= bounded >> d;
  }
  const slots = libertyless | (libertyless << 1) | (libertyless << 2);
  const out = (t & ~slots) | (libertyless * STONE_CODE) | (colour & libertyless);
  return turned(out, right == 0 ? 0 : <u64>(3 * keyWidth) - right);
}
