/**
 * AssemblyScript: routes a batch of successors to the shards of a state table that spans several
 * WebAssembly memories (lib/engine/state-table.ts), compiled by `npm run build` (asc). Each shard
 * owns a range of key prefixes; this module groups the staged records by shard, keeping their
 * order within a group, so that the caller hands each shard its records in one copy.
 *
 * Records come in as the table takes them: n states as (hi, lo) words, then n · k residue words.
 * They go out in the same layout, grouped: shard j's are records [starts[j], starts[j + 1]).
 */

const LOW_BITS: u64 = 30;
const PAGE_BYTES: u64 = 65536;

let shardOf: usize = 0; // u16 per prefix: its shard
let starts: usize = 0; // u32 per shard, and one more: where its group begins
let shards: i32 = 0;
let prefixShift: u64 = 0;

// Growable, from `scratch` on: the staged batch, then the routed one.
let scratch: usize = 0;
let k: usize = 0;
let routed: usize = 0;

export function heapBase(): usize {
  return __heap_base;
}

/** Takes the fixed arrays' addresses: the shard of each prefix, the group starts (shardCount + 1). */
export function init(shardOfAt: usize, startsAt: usize, shardCount: i32, shift: u32, scratchAt: usize): void {
  shardOf = shardOfAt;
  starts = startsAt;
  shards = shardCount;
  prefixShift = <u64>shift;
  scratch = (scratchAt + 7) & ~7;
  routed = scratch;
  reach(<u64>scratch);
}

/** Room to stage n records of `residues` residues; returns the staging address. */
export function stage(n: i32, residues: u32): usize {
  k = <usize>residues;
  const bytes = (<u64>n * ((<u64>k + 2) << 2) + 7) & ~7;
  if (<u64>(routed - scratch) < bytes) {
    reach(<u64>scratch + 2 * bytes);
    routed = scratch + <usize>bytes;
  }
  return scratch;
}

/** Groups the n staged records by shard into routedAt(), and their starts into the starts array. */
export function route(n: i32): void {
  const states = scratch;
  const residues = scratch + ((<usize>n) << 3);
  const counts = starts;
  memory.fill(counts, 0, (<usize>shards + 1) << 2);
  for (let i: usize = 0; i < <usize>n; i++) {
    const j = shardAt(states + (i << 3));
    store<u32>(counts + (j << 2), load<u32>(counts + (j << 2)) + 1);
  }
  // Counts to starts, and a cursor per shard one past them (starts[j + 1] ends as group j's end).
  let at: u32 = 0;
  for (let j: usize = 0; j < <usize>shards; j++) {
    const c = load<u32>(counts + (j << 2));
    store<u32>(counts + (j << 2), at);
    at += c;
  }
  store<u32>(counts + ((<usize>shards) << 2), at);
  const outStates = routed;
  const outResidues = routed + ((<usize>n) << 3);
  const bytes = k << 2;
  for (let i: usize = 0; i < <usize>n; i++) {
    const from = states + (i << 3);
    const cursor = starts + (shardAt(from) << 2);
    const to = <usize>load<u32>(cursor);
    store<u32>(cursor, <u32>to + 1);
    store<u64>(outStates + (to << 3), load<u64>(from));
    const src = residues + i * bytes;
    const dst = outResidues + to * bytes;
    for (let r: usize = 0; r < bytes; r += 4) store<u32>(dst + r, load<u32>(src + r));
  }
  // Each cursor stopped at the next group's start: shift them back by one shard.
  for (let j = <usize>shards; j > 0; j--) store<u32>(starts + (j << 2), load<u32>(starts + ((j - 1) << 2)));
  store<u32>(starts, 0);
}

export function routedAt(): usize {
  return routed;
}

/** Grows the memory to `end` bytes at least; aborts when it cannot. */
function reach(end: u64): void {
  const have = <u64>memory.size() * PAGE_BYTES;
  if (end > have && (end > (<u64>1) << 32 || memory.grow(<i32>((end - have + PAGE_BYTES - 1) / PAGE_BYTES)) < 0)) abort();
}

/** The shard of the state whose (hi, lo) words are at `at`. */
function shardAt(at: usize): usize {
  const s = ((<u64>load<u32>(at)) << LOW_BITS) | (<u64>load<u32>(at, 4));
  return <usize>load<u16>(shardOf + ((<usize>(s >> prefixShift)) << 1));
}
