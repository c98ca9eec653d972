/**
 * AssemblyScript: one border state's successors (paper §5.2), as lib/border/expander.ts gives them
 * and in the same order, for the kernels that expand: the batch expander (expander-kernel.as.ts)
 * and the group step (lib/engine/group-step.as.ts). The state is one 64-bit integer (hi · 2^30 +
 * lo, the field slots of lib/border/layout.ts), which spares the two-word shifts; the decoding reads
 * only the strings through the two neighbours of the point placed and the colours needed instead
 * of the whole border. In the board's last column the same code runs, and each successor then
 * forgets field y − 1 (finish).
 *
 * Every call on the way from a kernel's loop to the successors' stores is inlined (inline.always):
 * a call between WebAssembly functions costs V8 its arguments and the globals read again, and
 * inlined, 11×11's states expand in about two thirds of the time. Strings are masks of positions
 * (stringOf) and a field is set through its layout bit, so neither needs a field's slot worked out.
 */

// Field codes, as in lib/border/border.ts.
const EMPTY_CODE: u64 = 1;
const STONE_CODE: u64 = 2;
const LIBERTYLESS_CODE: u64 = 4;
const UP: u64 = 1;
const DOWN: u64 = 2;
const WHITE: i32 = 1;
const NONE: i32 = -1;

const LOW_BITS: u64 = 30;
const LOW_MASK: u64 = (1 << LOW_BITS) - 1;
/** Bit 0 of every field slot. */
const FIELD_ONES: u64 = ((<u64>0o1111111111) << LOW_BITS) | 0o1111111111;

let width: i32 = 0;
let y: i32 = 0;
/** In the board's last column, where a step forgets field y − 1 (fields above it are EDGE already). */
let forgetting = false;
/** The first field on the border (fields above it are EDGE): a libertyless stone there keeps its colour in its UP bit. */
let top: i32 = 0;
/** The parent being expanded. */
let parentState: u64 = 0;
/** The parent with its fields in position order (rotated), for colourOf and stringOf. */
let parentRotated: u64 = 0;
/**
 * A rotation of the slots that puts field i at position width − 1 − i (bit 3 · position): fields
 * up the border are positions up the word, without the layout's wrap, so a string's members and a
 * colour's chain are found with masks (rotated). The rotation's two shifts, the mask of its 3 ·
 * width bits, bit 0 of every position, and the bits of the positions of fields `top` and y.
 */
let rotateRight: u64 = 0;
let rotateLeft: u64 = 0;
let fieldsMask: u64 = 0;
let positionOnes: u64 = 0;
let topBit: u64 = 0;
let yBit: u64 = 0;
/** The layout bit of the parent's field whose colour finish last looked up (NONE for a new parent), and that colour. */
let referenceBit: i32 = NONE;
let referenceColour: i32 = 0;

/**
 * Sets the step: the point placed is field `step` of a board `boardWidth` wide (lastColumn: its
 * last column). Returns the slots that must be EDGE in a parent of that step: in the last column
 * fields 0 … y − 2 (slots y … 2), which the steps before forgot; a parent with any of them set is
 * not a state of the step (expandState's callers refuse it).
 */
export function beginExpansion(step: i32, boardWidth: i32, lastColumn: bool): u64 {
  width = boardWidth;
  y = step;
  forgetting = lastColumn && step > 0;
  top = forgetting ? step - 1 : 0;
  const bits = <u64>(3 * boardWidth);
  rotateRight = <u64>(3 * (step + 1)) % bits;
  rotateLeft = (bits - rotateRight) % bits;
  fieldsMask = ((<u64>1) << bits) - 1;
  positionOnes = FIELD_ONES & fieldsMask;
  topBit = <u64>(3 * (boardWidth - 1 - top));
  yBit = <u64>(3 * (boardWidth - 1 - step));
  const through = <u64>(3 * step + 3);
  return forgetting ? (((<u64>1) << through) - 1) & ~(<u64>0o77) : 0;
}

/**
 * Writes the successors of `parent` for the step begun at `out`, as (hi, lo) u32 pairs in the next
 * step's layout, and returns their number (0 to 3).
 */
export function expandState(parent: u64, out: usize): i32 {
  return inline.always(expandOne(parent, out));
}

function expandOne(parent: u64, out: usize): i32 {
  const left = parent & 7; // field y is in slot 0, field y − 1 in slot 1
  const up: u64 = y > 0 ? (parent >> 3) & 7 : 0; // the top edge acts like EDGE: no stone, no liberty
  if (left < LIBERTYLESS_CODE && up < LIBERTYLESS_CODE) return inline.always(expandQuick(parent, left, up, out));
  // Only the strings through the two neighbours are decoded, and only the colours needed.
  parentState = parent;
  parentRotated = rotated(parent);
  referenceBit = NONE;
  const upString: u64 = up >= LIBERTYLESS_CODE ? inline.always(stringOf(parentRotated, y - 1)) : 0;
  const leftString: u64 = left >= LIBERTYLESS_CODE ? inline.always(stringOf(parentRotated, y)) : 0;
  const upColour = up >= STONE_CODE ? inline.always(colourOf(y - 1)) : NONE;
  const leftColour = left >= LIBERTYLESS_CODE ? WHITE : left >= STONE_CODE ? <i32>(left & 1) : NONE;

  // Empty: frees the strings above and to the left. `state` is the successor being built, in the parent's layout.
  let state = liberate(liberate(parent, upString, upColour), leftString, leftColour);
  state = (state & ~(<u64>7)) | EMPTY_CODE;
  let count = <i32>inline.always(finish(state, out, 0, NONE));

  for (let c = 0; c <= WHITE; c++) {
    const upSame = upColour == c;
    const leftSame = leftColour == c;
    const leftLeaves = left >= LIBERTYLESS_CODE && !leftSame;
    if (leftLeaves && leftString == (<u64>1) << yBit) continue; // its last liberty
    state = parent;
    if (leftLeaves) state = dropFromString(state, leftString);
    const liberty = up == EMPTY_CODE || left == EMPTY_CODE || (upSame && up < LIBERTYLESS_CODE) || (leftSame && left < LIBERTYLESS_CODE);
    if (liberty) {
      if (upSame) state = liberate(state, upString, c);
      if (leftSame) state = liberate(state, leftString, c);
      state = (state & ~(<u64>7)) | STONE_CODE | (<u64>c);
    } else if (leftSame) {
      // Continues the left stone's string in its place: same flags, same colour.
      if (upSame && (upString & ((<u64>1) << yBit)) == 0) state = joinStrings(state, upString | leftString);
    } else if (upSame) {
      // Hangs below the stone above: after it in its string, before whatever followed it.
      state = (state & ~(<u64>0o77)) | ((up | DOWN) << 3) | LIBERTYLESS_CODE | UP | (up & DOWN);
    } else {
      state = (state & ~(<u64>7)) | (y == 0 ? LIBERTYLESS_CODE | (<u64>c) : LIBERTYLESS_CODE);
    }
    if (inline.always(finish(state, out + ((<usize>count) << 3), c, NONE))) count++;
  }
  return count;
}

/**
 * Neither neighbour is a libertyless stone: each successor is the parent with field y replaced (and
 * none dies when the last column forgets field y − 1, which has a liberty or is empty).
 */
function expandQuick(parent: u64, left: u64, up: u64, out: usize): i32 {
  const rest = parent & ~(<u64>7);
  inline.always(finish(rest | EMPTY_CODE, out, 0, <i32>left));
  const open = up == EMPTY_CODE || left == EMPTY_CODE;
  for (let c = 0; c <= WHITE; c++) {
    // A neighbour of the same colour here has a liberty, and passes it on.
    const liberty = open || (up >= STONE_CODE && <i32>(up & 1) == c) || (left >= STONE_CODE && <i32>(left & 1) == c);
    const code: u64 = liberty ? STONE_CODE | (<u64>c) : y == 0 ? LIBERTYLESS_CODE | (<u64>c) : LIBERTYLESS_CODE;
    inline.always(finish(rest | code, out + 8 + ((<usize>c) << 3), c, <i32>left));
  }
  return 3;
}

/** State s with field i at position width − 1 − i (bit 3 · position). */
function rotated(s: u64): u64 {
  return ((s >> rotateRight) | (s << rotateLeft)) & fieldsMask;
}

/**
 * The colour of the parent's stone at field i. A libertyless stone has the colour opposite its upper
 * neighbour's, unless linked to it (its UP bit, the neighbour's DOWN bit); the stone at `top` keeps
 * its colour in its UP bit, and one at y is white (the normalisation's reference). The walk up the
 * border ends at the first field from i up that has a liberty, is empty, or is `top` or y; each
 * libertyless field before it that is not linked to the one above flips the colour.
 */
function colourOf(i: i32): i32 {
  return inline.always(colourAt(<u64>(3 * (width - 1 - i))));
}

/** colourOf for the field at bit `from` of the rotated parent. */
function colourAt(from: u64): i32 {
  const t = parentRotated;
  const libertyless = (t >> 2) & positionOnes;
  const stops = (~libertyless & positionOnes) | ((<u64>1) << topBit) | ((<u64>1) << yBit);
  const end = ctz(stops & ~(((<u64>1) << from) - 1));
  const linked = t & libertyless & (t >> 4) & (libertyless >> 3);
  const walked = (((<u64>1) << end) - 1) & ~(((<u64>1) << from) - 1) & positionOnes;
  const flip = <i32>(popcnt(walked & ~linked) & 1);
  const code = (t >> end) & 7;
  const c = code < LIBERTYLESS_CODE ? <i32>(code & 1) : end == topBit ? <i32>(code & UP) : WHITE;
  return c ^ flip;
}

/** The layout's bit offset of the field at bit `at` of a rotated state (rotated's inverse). */
function layoutBit(at: u64): u64 {
  const bit = at + rotateRight;
  return select<u64>(bit - 3 * <u64>width, bit, bit >= 3 * <u64>width);
}

/** A mask of rotated positions (bit 3 · position) as the layout's slots (bit 3 · slot). */
function inLayout(m: u64): u64 {
  return ((m << rotateRight) | (m >> rotateLeft)) & fieldsMask;
}

/**
 * The fields of the libertyless string through field i of a state in position order (t, from
 * rotated), as a mask of positions (bit 3 · position, as in t). Along the border a DOWN bit opens a string and an UP bit
 * (below `top`) closes the last one opened, like brackets: a member's next member up or down is
 * its bracket's match. Only the libertyless fields are visited.
 */
function stringOf(t: u64, i: i32): u64 {
  const libertyless = (t >> 2) & positionOnes;
  const ups = t & libertyless & ~((<u64>1) << topBit); // the UP bit of `top` is its colour, not a link
  const downs = (t >> 1) & libertyless;
  const from = <u64>(3 * (width - 1 - i));
  let members = (<u64>1) << from;
  for (let at = from; ((ups >> at) & 1) != 0;) {
    let open = 0;
    let match: i64 = -1;
    for (let above = libertyless & ~(((<u64>2) << at) - 1); above != 0; above &= above - 1) {
      const q = ctz(above);
      if (((downs >> q) & 1) != 0) {
        if (open == 0) {
          match = <i64>q;
          break;
        }
        open--;
      }
      if (((ups >> q) & 1) != 0) open++;
    }
    if (match < 0) break; // no match: not a valid state
    at = <u64>match;
    members |= (<u64>1) << at;
  }
  for (let at = from; ((downs >> at) & 1) != 0;) {
    let open = 0;
    let match: i64 = -1;
    for (let below = libertyless & (((<u64>1) << at) - 1); below != 0;) {
      const q = 63 - clz(below);
      below ^= (<u64>1) << q;
      if (((ups >> q) & 1) != 0) {
        if (open == 0) {
          match = <i64>q;
          break;
        }
        open--;
      }
      if (((downs >> q) & 1) != 0) open++;
    }
    if (match < 0) break;
    at = <u64>match;
    members |= (<u64>1) << at;
  }
  return members;
}

/** State s with a liberty for every stone of a string (stringOf's mask, all of one colour): every slot at once. */
function liberate(s: u64, members: u64, c: i32): u64 {
  const slots = inLayout(members);
  return (s & ~(slots * 7)) | (slots * (STONE_CODE | (<u64>c)));
}

/** State s with field y out of its string, the rest staying on the border: its string neighbours lose that link. */
function dropFromString(s: u64, members: u64): u64 {
  // Fields above y are the positions above y's, fields below it those below.
  const upper = members & ~(((<u64>2) << yBit) - 1);
  const lower = members & (((<u64>1) << yBit) - 1);
  if (upper == 0) return s & ~(UP << layoutBit(63 - clz(lower)));
  if (lower == 0) return s & ~(DOWN << layoutBit(ctz(upper)));
  return s;
}

/**
 * State s with the strings of `members` (stringOf's masks) made one: every member but the first
 * links up, all but the last down. Fields down the border are positions down the word.
 */
function joinStrings(s: u64, members: u64): u64 {
  let state = s;
  let last: u64 = 0; // the layout bit of the member before
  for (let m = members; m != 0;) {
    const at = 63 - clz(m);
    const bit = layoutBit(at);
    const cleared = state & ~((<u64>7) << bit);
    if (m == members) {
      const code: u64 = at == topBit ? (parentState >> bit) & 7 & ~DOWN : LIBERTYLESS_CODE;
      state = cleared | (code << bit);
    } else state = cleared | ((LIBERTYLESS_CODE | UP) << bit) | (DOWN << last);
    m ^= (<u64>1) << at;
    last = bit;
  }
  return state;
}

/**
 * Normalises the successor s (the first stone from field y + 1 on, wrapping, is white), moves it to
 * the next step's layout and stores it at `out`; in the last column, first forgets field y − 1.
 * `placed` is the colour of the stone at y; `left` is the parent's field y when it came by
 * expandQuick (colours not decoded), else NONE. Returns false for a successor that dies.
 */
function finish(s: u64, out: usize, placed: i32, left: i32): bool {
  if (forgetting) {
    // Field y − 1 (slot 1) leaves the border. A libertyless string there with no other member dies;
    // else its next member becomes the string's first and loses its UP link.
    if (((s >> 3) & LIBERTYLESS_CODE) != 0) {
      const lower = inline.always(stringOf(rotated(s), y - 1)) & (((<u64>2) << yBit) - 1); // fields y on
      if (lower == 0) return false;
      s &= ~(UP << layoutBit(63 - clz(lower)));
    }
    s &= ~((<u64>7) << 3);
    // Field y is now the first on the border: a libertyless stone there keeps its colour in its UP bit.
    if ((s & LIBERTYLESS_CODE) != 0) s = (s & ~UP) | (<u64>placed);
  }
  const stones = ((s >> 1) | (s >> 2)) & FIELD_ONES;
  if (stones != 0) {
    const bit = 63 - <i32>clz(stones);
    const code = (s >> (<u64>bit)) & 7;
    let reference: i32;
    if (code < LIBERTYLESS_CODE) reference = <i32>(code & 1);
    else if (bit == 0)
      reference = placed; // field y
    else if (left != NONE)
      reference = bit == 3 * y ? <i32>(code & UP) : (left & 1) ^ 1; // field 0, or another
    else {
      // The successors of a parent mostly share this field: its colour is looked up once.
      if (bit != referenceBit) {
        referenceColour = inline.always(colourAt(<u64>bit >= rotateRight ? <u64>bit - rotateRight : <u64>bit + rotateLeft));
        referenceBit = bit;
      }
      reference = referenceColour;
    }
    if (reference != WHITE) {
      // Codes 2 and 3 swap; the first field on the border keeps its colour in its UP bit.
      s ^= (~s >> 2) & (s >> 1) & FIELD_ONES;
      const first = forgetting ? 0 : <u64>(3 * y);
      if (((s >> first) & LIBERTYLESS_CODE) != 0) s ^= (<u64>1) << first;
    }
  }
  // Next layout: every field one slot up, field y + 1 from the top slot to slot 0.
  const last = <u64>(3 * (width - 1));
  s = ((s << 3) & (((<u64>1) << (last + 3)) - 1)) | ((s >> last) & 7);
  store<u32>(out, <u32>(s >> LOW_BITS));
  store<u32>(out + 4, <u32>(s & LOW_MASK));
  return true;
}
