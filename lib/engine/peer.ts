/**
 * The links between workers. Each worker owns the states of one hash class (ownerOf in
 * lib/state/ownership.ts) and
 * has one link to every other worker (PeerRouter); the successors a worker makes for a peer go over
 * that link's MessagePort in batches whose buffers are
 * transferred, not copied, and come back with the acknowledgement for reuse. At most MAX_IN_FLIGHT
 * batches are unacknowledged, so neither side queues without bound; a worker waiting for credit
 * keeps its event loop free to take in its peer's batches, so the two never wait on each other.
 * Between its own batches a worker also polls its ports (receiveMessageOnPort): a peer's batch is
 * taken in and acknowledged at once, not when this worker's event loop next turns, so the peer
 * seldom runs out of credit and idles.
 * Batches carry their step: one that arrives before this worker has begun that step (the two
 * workers start a step on separate messages, in no fixed order) waits, unacknowledged, until it has.
 */

import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

const MAX_IN_FLIGHT = 4;

type BatchMessage = { t: 'batch'; step: number; size: number; states: Uint32Array; residues: Uint32Array };

type PeerMessage = BatchMessage | { t: 'ack'; states: Uint32Array; residues: Uint32Array } | { t: 'end'; step: number };

export type InboundHandler = (states: Uint32Array, residues: Uint32Array, size: number) => void;

export class PeerLink {
  private readonly port: MessagePort;
  private k: number;
  private readonly capacity: number;
  private readonly free: Array<{ states: Uint32Array; residues: Uint32Array }> = [];
  private readonly pending: BatchMessage[] = [];
  /** Batches for a step this worker has not begun yet. */
  private early: BatchMessage[] = [];
  private step = -1;
  private states: Uint32Array;
  private residues: Uint32Array;
  private size = 0;
  private inFlight = 0;
  private readyWaiters: Array<() => void> = [];
  private endedSteps = new Set<number>();
  private endWaiter?: { step: number; resolve: () => void };
  private failure?: Error;
  private onBatch: InboundHandler = () => {
    throw new Error('peer batch outside a step');
  };

  constructor(port: MessagePort, residueCount: number, capacity: number) {
    this.port = port;
    this.k = residueCount;
    this.capacity = capacity;
    [this.states, this.residues] = this.buffers();
    port.on('message', (message: PeerMessage) => this.receive(message));
  }

  /** Where inbound batches go. */
  handleInbound(handler: InboundHandler): void {
    this.onBatch = handler;
  }

  /** Takes in, synchronously, whatever the peer has sent so far. */
  poll(): void {
    for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) this.receive(got.message as PeerMessage);
  }

  /** Starts `step`: batches sent are tagged with it, and the peer's early ones for it are taken in. */
  beginStep(step: number): void {
    this.step = step;
    const early = this.early;
    this.early = [];
    for (const message of early) this.receive(message);
  }

  /** Queues state (hi, lo) with residues[at..at+K) for the peer. */
  queueRecord(hi: number, lo: number, residues: Uint32Array, at: number): void {
    const n = this.size++;
    this.states[2 * n] = hi;
    this.states[2 * n + 1] = lo;
    const k = this.k;
    const out = this.residues;
    for (let r = 0, to = n * k; r < k; r++) out[to + r] = residues[at + r];
    if (this.size === this.capacity) this.post();
  }

  /** Queues n records: states[0 .. 2n) with residues[0 .. K·n). */
  queueRecords(states: Uint32Array, residues: Uint32Array, n: number): void {
    const k = this.k;
    for (let done = 0; done < n;) {
      const take = Math.min(n - done, this.capacity - this.size);
      this.states.set(states.subarray(2 * done, 2 * (done + take)), 2 * this.size);
      this.residues.set(residues.subarray(k * done, k * (done + take)), k * this.size);
      this.size += take;
      done += take;
      if (this.size === this.capacity) this.post();
    }
  }

  /** Residues a record carries from the next batch on; only between steps, with nothing queued. */
  setResidueCount(k: number): void {
    if (k === this.k) return;
    if (this.size > 0) throw new RangeError('records are queued');
    this.k = k;
    this.free.length = 0;
    [this.states, this.residues] = this.buffers();
  }

  /** Resolves once every queued batch has been handed to the port (credit permitting). */
  ready(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Sends what is queued and the end of this worker's successors for `step`. */
  async end(step: number): Promise<void> {
    if (this.size > 0) this.post();
    await this.ready();
    this.port.postMessage({ t: 'end', step });
  }

  /** Resolves when the peer has sent all its successors for `step` and they were taken in. */
  peerEnded(step: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.endedSteps.delete(step)) return Promise.resolve();
    return new Promise((resolve) => (this.endWaiter = { step, resolve }));
  }

  /** An error raised while taking in a batch (a full disk, say) fails the step. */
  get error(): Error | undefined {
    return this.failure;
  }

  close(): void {
    this.port.close();
  }

  private post(): void {
    this.pending.push({ t: 'batch', step: this.step, states: this.states, residues: this.residues, size: this.size });
    [this.states, this.residues] = this.buffers();
    this.size = 0;
    this.drain();
  }

  private drain(): void {
    while (this.pending.length > 0 && this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.pending.shift()!;
      this.inFlight++;
      this.port.postMessage(batch, [batch.states.buffer as ArrayBuffer, batch.residues.buffer as ArrayBuffer]);
    }
    if (this.pending.length === 0) {
      const waiters = this.readyWaiters;
      this.readyWaiters = [];
      waiters.forEach((resolve) => resolve());
    }
  }

  private receive(message: PeerMessage): void {
    if (message.t === 'ack') {
      this.inFlight--;
      if (message.residues.length === this.k * this.capacity) this.free.push({ states: message.states, residues: message.residues });
      this.drain();
    } else if (message.t === 'batch') {
      if (message.step !== this.step) {
        this.early.push(message);
        return;
      }
      try {
        if (!this.failure) this.onBatch(message.states, message.residues, message.size);
      } catch (error) {
        this.failure = error as Error;
        this.endWaiter?.resolve();
      }
      this.port.postMessage({ t: 'ack', states: message.states, residues: message.residues }, [
        message.states.buffer as ArrayBuffer,
        message.residues.buffer as ArrayBuffer,
      ]);
    } else if (this.endWaiter?.step === message.step) {
      const { resolve } = this.endWaiter;
      this.endWaiter = undefined;
      resolve();
    } else {
      this.endedSteps.add(message.step);
    }
  }

  private buffers(): [Uint32Array, Uint32Array] {
    const reused = this.free.pop();
    if (reused && reused.residues.length === this.k * this.capacity) return [reused.states, reused.residues];
    return [new Uint32Array(2 * this.capacity), new Uint32Array(this.k * this.capacity)];
  }
}

/** One worker's links to all the others: where its successors for other owners go, and come from. */
export class PeerRouter {
  /** links[j] leads to worker j; undefined for this worker's own. */
  readonly links: ReadonlyArray<PeerLink | undefined>;
  readonly self: number;
  private readonly peers: PeerLink[];

  constructor(self: number, links: ReadonlyArray<PeerLink | undefined>) {
    this.self = self;
    this.links = links;
    this.peers = links.filter((link): link is PeerLink => link !== undefined);
  }

  get workers(): number {
    return this.links.length;
  }

  handleInbound(handler: InboundHandler): void {
    for (const link of this.peers) link.handleInbound(handler);
  }

  beginStep(step: number, residueCount: number): void {
    for (const link of this.peers) {
      link.setResidueCount(residueCount);
      link.beginStep(step);
    }
  }

  /** Takes in, synchronously, whatever every peer has sent so far. */
  poll(): void {
    for (const link of this.peers) link.poll();
  }

  /** Resolves once every peer's queued batches have been handed to its port (credit permitting). */
  ready(): Promise<void> {
    return Promise.all(this.peers.map((link) => link.ready())).then(() => undefined);
  }

  /** Sends the end of `step` to every peer and waits for every peer's end. */
  async endStep(step: number): Promise<void> {
    await Promise.all(this.peers.map((link) => link.end(step)));
    await Promise.all(this.peers.map((link) => link.peerEnded(step)));
    const failed = this.error;
    if (failed) throw failed;
  }

  get error(): Error | undefined {
    return this.peers.find((link) => link.error)?.error;
  }

  close(): void {
    for (const link of this.peers) link.close();
  }
}
