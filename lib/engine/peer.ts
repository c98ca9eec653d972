/**
 * The link between two partition workers. Each owns the states of one hash class (ownerOf); the
 * successors a worker makes for its peer go over a MessagePort in batches whose buffers are
 * transferred, not copied, and come back with the acknowledgement for reuse. At most MAX_IN_FLIGHT
 * batches are unacknowledged, so neither side queues without bound; a worker waiting for credit
 * keeps its event loop free to take in its peer's batches, so the two never wait on each other.
 * Batches carry their step: one that arrives before this worker has begun that step (the two
 * workers start a step on separate messages, in no fixed order) waits, unacknowledged, until it has.
 */

import type { MessagePort } from 'node:worker_threads';

const MAX_IN_FLIGHT = 4;

/** Which partition owns a state: a hash independent of the state table's slot hash. */
export function ownerOf(hi: number, lo: number, partitions: number): number {
  if (partitions === 1) return 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x27d4eb2f);
  h ^= h >>> 16;
  return (h >>> 0) % partitions;
}

type BatchMessage = { t: 'batch'; step: number; size: number; states: Uint32Array; residues: Uint32Array };

type PeerMessage =
  | BatchMessage
  | { t: 'ack'; states: Uint32Array; residues: Uint32Array }
  | { t: 'end'; step: number };

export type InboundHandler = (states: Uint32Array, residues: Uint32Array, size: number) => void;

export class PeerLink {
  private readonly port: MessagePort;
  private readonly k: number;
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

  /** Starts `step`: batches sent are tagged with it, and the peer's early ones for it are taken in. */
  beginStep(step: number): void {
    this.step = step;
    const early = this.early;
    this.early = [];
    for (const message of early) this.receive(message);
  }

  /** Queues record i of (states, residues) for the peer. */
  queue(states: Uint32Array, residues: Uint32Array, i: number): void {
    const n = this.size++;
    this.states[2 * n] = states[2 * i];
    this.states[2 * n + 1] = states[2 * i + 1];
    const k = this.k;
    for (let r = 0; r < k; r++) this.residues[n * k + r] = residues[i * k + r];
    if (this.size === this.capacity) this.post();
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
      this.free.push({ states: message.states, residues: message.residues });
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
      this.port.postMessage({ t: 'ack', states: message.states, residues: message.residues }, [message.states.buffer as ArrayBuffer, message.residues.buffer as ArrayBuffer]);
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
    if (reused) return [reused.states, reused.residues];
    return [new Uint32Array(2 * this.capacity), new Uint32Array(this.k * this.capacity)];
  }
}
