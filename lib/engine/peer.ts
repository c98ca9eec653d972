/**
 * The exchange between workers. Each worker owns the states of some window keys' buckets
 * (lib/border/window-key.ts); the successors it makes for another worker go to that worker through a
 * ring in shared memory, one for each ordered pair of workers (PeerExchange, made by the main
 * thread). A sender copies records into the ring and moves its write index; the receiver takes
 * them into its state table between its own batches (poll), once the ring is half full, so that
 * it takes in many at a time, and moves its read index. Nothing is posted per batch, and a ring
 * holds a few batches' worth for its receiver, so the memory of all rings grows with the number of
 * workers, not with its square times the batch; where a table may fill in the middle of a step,
 * each worker's rings in share a part of its budget (MemoryPlan.ringBytes), so that its peers need
 * not wait while it writes a run.
 * A worker sleeps (Atomics.wait) only when a ring it writes to is full, or at the end of a step in
 * which successors change owner (a window's first, lib/engine/step-routing.ts)
 * until every worker has sent all it had. Bells ring only for what a sleeper waits for: the
 * receiver that makes room in the full ring, the last worker to end the step, and a sender that
 * finds its ring full and its receiver asleep (which then takes in, so two full rings never wait on
 * each other). Records that fit wake nobody: they wait for the receiver's next poll. All workers
 * end each step before any begins the next (the main thread waits for all), so a step's records
 * never meet the next step's, and the receiver empties its rings at the end.
 */

import { MAX_SUCCESSORS } from '../border/border.js';
import type { MemoryPlan } from './budget.js';

/** Int32 slots between two shared counters written by different threads: one cache line. */
const LINE = 16;
/** Longest single sleep: a worker rechecks its rings at least this often (milliseconds). */
const WAIT_MS = 100;
/** A ring holds this many of its sender's successor batches' shares for its receiver. */
const RING_BATCHES = 4;

export type InboundHandler = (states: Uint32Array, residues: Uint32Array, from: number, to: number) => void;

/**
 * The shared memory of every worker's rings and bells, for `workers` workers whose batches yield up
 * to MAX_SUCCESSORS × batchRecords successors of at most `residues` residues each.
 */
export interface PeerExchange {
  readonly workers: number;
  /** Records a ring holds at most (one slot stays empty). */
  readonly ringRecords: number;
  /** Words of a ring: ringRecords × (2 + the most residues). */
  readonly ringWords: number;
  /** Counters, each on a line of its own: the arrivals at step ends, each worker's bell, each ring's indices, the last step a table filled. */
  readonly control: SharedArrayBuffer;
  readonly data: SharedArrayBuffer;
}

/**
 * The exchange of `workers` workers under `plan`, for records of at most `residues` residues: a ring
 * holds a few of its sender's batches for its receiver, or its share of the receiver's ringBytes
 * where that is more.
 */
export function peerExchange(
  workers: number,
  { batchRecords, ringBytes }: Pick<MemoryPlan, 'batchRecords' | 'ringBytes'>,
  residues: number,
): PeerExchange {
  const batchesShare = Math.ceil((RING_BATCHES * MAX_SUCCESSORS * batchRecords) / workers);
  const budgetShare = Math.floor(ringBytes / Math.max(1, workers - 1) / (4 * (2 + residues)));
  const ringRecords = Math.max(16, batchesShare, budgetShare) + 1;
  const ringWords = ringRecords * (2 + residues);
  const rings = workers * (workers - 1);
  return {
    workers,
    ringRecords,
    ringWords,
    control: new SharedArrayBuffer(4 * LINE * (2 + 2 * workers + 2 * rings)),
    data: new SharedArrayBuffer(4 * ringWords * rings),
  };
}

/**
 * Control slots: the arrivals, then each worker's bell and what it sleeps for (AWAKE, AT_END, or
 * 1 + the worker whose ring it waits to have room in), then each ring's write and read index, then
 * 1 + the last step in which a worker's table filled (noteFull).
 */
const ARRIVED = 0;
const AWAKE = 0;
const AT_END = -1;
const bellAt = (worker: number) => LINE * (1 + 2 * worker);
const sleepingAt = (worker: number) => LINE * (2 + 2 * worker);

/** One direction between two workers: records of (hi, lo) and k residues, in two parallel areas. */
class Ring {
  private readonly control: Int32Array;
  private readonly data: SharedArrayBuffer;
  private readonly byteOffset: number;
  private readonly words: number;
  private readonly writeAt: number;
  private readonly readAt: number;
  private k = -1;
  /** Records the ring holds, one slot kept empty. */
  private size = 0;
  private states: Uint32Array = new Uint32Array(0);
  private residues: Uint32Array = new Uint32Array(0);
  /** This side's own index: the write index for the sender, the read index for the receiver. */
  private at = 0;

  constructor(control: Int32Array, exchange: PeerExchange, index: number, workers: number) {
    this.control = control;
    this.data = exchange.data;
    this.words = exchange.ringWords;
    this.byteOffset = 4 * exchange.ringWords * index;
    this.writeAt = LINE * (1 + 2 * workers + 2 * index);
    this.readAt = this.writeAt + LINE;
  }

  /** Records carry k residues from now on; only with the ring empty, both indices at 0. */
  begin(k: number): void {
    this.at = 0;
    if (k === this.k) return;
    this.k = k;
    this.size = Math.floor(this.words / (2 + k));
    this.states = new Uint32Array(this.data, this.byteOffset, 2 * this.size);
    this.residues = new Uint32Array(this.data, this.byteOffset + 8 * this.size, k * this.size);
  }

  /** Sender: copies records [from, to) of states and residues, as many as fit; returns the next one. */
  write(states: Uint32Array, residues: Uint32Array, from: number, to: number): number {
    const { size, k } = this;
    const read = Atomics.load(this.control, this.readAt);
    let at = this.at;
    let next = from;
    // Up to the end of the area, then from its start, always one slot short of the read index.
    for (let part = 0; part < 2 && next < to; part++) {
      const room = (read > at ? read - 1 : read === 0 ? size - 1 : size) - at;
      const n = Math.min(to - next, room);
      if (n <= 0) break;
      this.states.set(states.subarray(2 * next, 2 * (next + n)), 2 * at);
      this.residues.set(residues.subarray(k * next, k * (next + n)), k * at);
      next += n;
      at = at + n === size ? 0 : at + n;
    }
    if (next > from) {
      this.at = at;
      Atomics.store(this.control, this.writeAt, at);
    }
    return next;
  }

  /** Records the ring holds, one slot kept empty. */
  get records(): number {
    return this.size;
  }

  /** Sender: whether a record fits. */
  get hasRoom(): boolean {
    const read = Atomics.load(this.control, this.readAt);
    return (this.at + 1) % this.size !== read;
  }

  /**
   * Receiver: hands what the ring holds to `take`, if at least `least` records; returns whether it
   * took any.
   */
  read(take: InboundHandler, least: number): boolean {
    const write = Atomics.load(this.control, this.writeAt);
    const at = this.at;
    if (write === at || (write - at + this.size) % this.size < least) return false;
    if (write > at) take(this.states, this.residues, at, write);
    else {
      take(this.states, this.residues, at, this.size);
      if (write > 0) take(this.states, this.residues, 0, write);
    }
    this.at = write;
    Atomics.store(this.control, this.readAt, write);
    return true;
  }

  /** Receiver, at the end of a step, the sender done and the ring empty: both indices back to 0. */
  reset(): void {
    this.at = 0;
    Atomics.store(this.control, this.writeAt, 0);
    Atomics.store(this.control, this.readAt, 0);
  }
}

/** One worker's side of the exchange: its rings to every other worker and from each. */
export class PeerRouter {
  readonly self: number;
  readonly workers: number;
  private readonly control: Int32Array;
  /** out[j] and in[j]: the rings to and from worker j; undefined for this worker's own. */
  private readonly out: Array<Ring | undefined>;
  private readonly in: Array<Ring | undefined>;
  private onInbound?: InboundHandler;
  private stepsEnded = 0;
  /** Records of a half-full ring, for the current residue count. */
  private halfRing = 1;
  private failure?: Error;

  /** The control slot of the last step in which a worker's table filled. */
  private readonly fullAt: number;

  constructor(self: number, exchange: PeerExchange) {
    const { workers } = exchange;
    this.self = self;
    this.workers = workers;
    this.control = new Int32Array(exchange.control);
    this.fullAt = this.control.length - LINE;
    const ring = (from: number, to: number) => new Ring(this.control, exchange, from * (workers - 1) + (to < from ? to : to - 1), workers);
    this.out = Array.from({ length: workers }, (_, j) => (j === self ? undefined : ring(self, j)));
    this.in = Array.from({ length: workers }, (_, j) => (j === self ? undefined : ring(j, self)));
  }

  /** Where inbound records go. */
  handleInbound(handler: InboundHandler): void {
    this.onInbound = handler;
  }

  /** Starts a step whose records carry `residueCount` residues. */
  beginStep(residueCount: number): void {
    for (const ring of this.out) ring?.begin(residueCount);
    for (const ring of this.in) ring?.begin(residueCount);
    this.halfRing = Math.ceil(this.in.find((ring) => ring)!.records / 2);
  }

  /**
   * Sends records [0, n) of states and residues to worker `to`. Where its ring is full, takes in
   * what this worker's own rings hold and sleeps until the receiver makes room.
   */
  send(to: number, states: Uint32Array, residues: Uint32Array, n: number): void {
    const ring = this.out[to]!;
    for (let next = ring.write(states, residues, 0, n); next < n; next = ring.write(states, residues, next, n)) {
      this.sleepUnless(1 + to, () => ring.hasRoom, to);
    }
  }

  /** Takes in, synchronously, what the other workers have sent so far to rings now half full. */
  poll(): void {
    this.takeIn(this.halfRing);
  }

  /**
   * Ends this worker's sending for the step and waits, taking in what comes, until every worker has
   * ended and this worker's rings are empty; then empties them for the next step.
   */
  endStep(): void {
    const { control, workers } = this;
    const target = workers * ++this.stepsEnded;
    // The last to arrive wakes the others; every record was written before the arrival.
    if (Atomics.add(control, ARRIVED, 1) === target - 1) for (let j = 0; j < workers; j++) if (j !== this.self) this.wake(j, AT_END);
    while (Atomics.load(control, ARRIVED) < target) this.sleepUnless(AT_END, () => Atomics.load(control, ARRIVED) >= target);
    this.takeIn(1);
    for (const ring of this.in) ring?.reset();
    if (this.failure) throw this.failure;
  }

  /**
   * Tells the other workers that this one's table filled in `step`, so that the step ends in run
   * files (lib/engine/pass.ts): a worker that sees it when its expansion ends writes its last run
   * then (lib/engine/worker-runner.ts).
   */
  noteFull(step: number): void {
    Atomics.store(this.control, this.fullAt, step + 1);
  }

  /** Whether a worker's table filled in `step` (noteFull). */
  filledIn(step: number): boolean {
    return Atomics.load(this.control, this.fullAt) === step + 1;
  }

  /** An error raised while taking in records (a full disk, say) fails the step. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Inbound records to the handler; after a failure, dropped, so that no sender waits on this worker. */
  private readonly take: InboundHandler = (states, residues, from, to) => {
    if (this.failure) return;
    try {
      this.onInbound!(states, residues, from, to);
    } catch (error) {
      this.failure = error as Error;
    }
  };

  /**
   * Sleeps for `reason` until this worker's bell rings, unless `ready` holds once this worker's
   * rings are taken in; first wakes worker `full`, if asleep, whose ring this worker waits to have
   * room in. The reason is set before the bell is read, and a ringer raises the bell before it reads
   * the reason, so a ring between the check and the wait is never lost.
   */
  private sleepUnless(reason: number, ready: () => boolean, full?: number): void {
    const { control, self } = this;
    Atomics.store(control, sleepingAt(self), reason);
    const bell = Atomics.load(control, bellAt(self));
    if (full !== undefined) this.wake(full);
    this.takeIn(1);
    if (!ready()) Atomics.wait(control, bellAt(self), bell, WAIT_MS);
    Atomics.store(control, sleepingAt(self), AWAKE);
  }

  /** Takes in what each ring holds, if at least `least` records, and wakes its sender if it waits for room. */
  private takeIn(least: number): void {
    for (let j = 0; j < this.workers; j++) if (this.in[j]?.read(this.take, least)) this.wake(j, 1 + this.self);
  }

  /** Rings worker j's bell if it sleeps for `reason` (by default, for anything). */
  private wake(j: number, reason?: number): void {
    const sleeps = Atomics.load(this.control, sleepingAt(j));
    if (sleeps !== AWAKE && (reason === undefined || sleeps === reason)) {
      Atomics.add(this.control, bellAt(j), 1);
      Atomics.notify(this.control, bellAt(j));
    }
  }
}
