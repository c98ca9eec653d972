/**
 * The empty board's tests in worker threads (SolveOptions.workers): each worker builds the board
 * again (lib/solve/first-move-worker.ts) and answers, one at a time, whether a first move gives at
 * least t, with a table of earlier results of its own. The main thread hands out the tests
 * (lib/solve/first-move-tests.ts) and waits, blocked, on the workers' answers: solveBoard stays
 * synchronous, and no CPU goes to the coordinator.
 */

import { MessageChannel, receiveMessageOnPort, type MessagePort, Worker } from 'node:worker_threads';
import { GocountError } from '../errors.js';
import { MoveTestPool, valueByMoveTests } from './first-move-tests.js';
import type { EmptyBoardValuer } from './retrograde.js';
import type { Scoring } from './solve-board.js';
import type { CycleRule } from './state-space.js';

/** What a worker needs to build the board as the main thread did, each field as it can be sent. */
export interface WorkerSolve {
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  readonly scoring: Scoring;
  /** The worker's share of the budget. */
  readonly memory: number;
  readonly scratch?: string;
}

/** What a worker is given: its index, its port and the arrays shared with the main thread. */
export interface WorkerSetup {
  readonly solve: WorkerSolve;
  readonly index: number;
  readonly port: MessagePort;
  /** [0]: answers posted to the main thread; [1 + w]: tests posted to worker w. Each is waited on with Atomics.wait. */
  readonly signals: Int32Array;
  /** The test worker w may go on with (0: give up the one it is on). */
  readonly current: Int32Array;
  /** Search nodes and table hits of worker w so far, at 2w and 2w + 1. */
  readonly counters: Float64Array;
}

export type TestMessage = { op: 'test'; id: number; move: number; t: number } | { op: 'stop' };
export type WorkerMessage =
  | { ready: number[] }
  | { id: number; atLeast?: boolean }
  | { error: { message: string; exitCode: number; code?: string; internal: boolean } };

/** How often the main thread wakes, while it waits, to report progress (it also reports at each answer). */
const REPORT_MS = 1000;

/** The empty board's tests in `workers` threads, each building the board with `solve`. */
export function testsInWorkers(solve: WorkerSolve, workers: number): EmptyBoardValuer {
  return ({ search, moves, guess, report }) => {
    const pool = new WorkerPool(solve, workers);
    try {
      pool.waitReady(moves);
      const state = { proved: { lower: 1, upper: 0 }, testing: new Int32Array(workers) };
      pool.onWait = () =>
        report(
          search.nodes + pool.nodes(),
          state.proved,
          Array.from(state.testing).flatMap((i) => (i >= 0 ? [moves[i]] : [])),
        );
      const tests = valueByMoveTests(moves.length, search.points, guess, pool, state);
      return { ...tests, nodes: pool.nodes(), hits: pool.hits() };
    } finally {
      pool.close();
    }
  };
}

class WorkerPool implements MoveTestPool {
  onWait = () => {};
  private readonly workers: Worker[] = [];
  private readonly ports: MessagePort[] = [];
  private readonly signals: Int32Array;
  private readonly current: Int32Array;
  private readonly counters: Float64Array;
  private nextId = 1;

  constructor(
    solve: WorkerSolve,
    readonly size: number,
  ) {
    this.signals = new Int32Array(new SharedArrayBuffer(4 * (size + 1)));
    this.current = new Int32Array(new SharedArrayBuffer(4 * size));
    this.counters = new Float64Array(new SharedArrayBuffer(16 * size));
    for (let index = 0; index < size; index++) {
      const { port1, port2 } = new MessageChannel();
      const setup: WorkerSetup = { solve, index, port: port2, signals: this.signals, current: this.current, counters: this.counters };
      const worker = new Worker(new URL('./first-move-worker.js', import.meta.url), { workerData: setup, transferList: [port2] });
      worker.unref();
      this.workers.push(worker);
      this.ports.push(port1);
    }
  }

  /** Waits for every worker to have built the board; its moves must be those the main thread tests. */
  waitReady(moves: Uint32Array): void {
    for (let ready = 0; ready < this.size; ready++) {
      const { worker, message } = this.receive();
      if (!('ready' in message)) throw new Error(`worker ${worker}: an answer before it was ready`);
      if (message.ready.length !== moves.length || message.ready.some((c, i) => c !== moves[i]))
        throw new Error(`worker ${worker}: the empty board's moves differ from the main thread's`);
    }
  }

  start(w: number, i: number, t: number): void {
    const id = this.nextId++;
    Atomics.store(this.current, w, id);
    this.ports[w].postMessage({ op: 'test', id, move: i, t } satisfies TestMessage);
    Atomics.add(this.signals, 1 + w, 1);
    Atomics.notify(this.signals, 1 + w);
  }

  cancel(w: number): void {
    Atomics.store(this.current, w, 0);
  }

  next(): { worker: number; atLeast: boolean | undefined } {
    const { worker, message } = this.receive();
    if (!('id' in message)) throw new Error(`worker ${worker}: a message that is not an answer`);
    this.onWait();
    return { worker, atLeast: message.atLeast };
  }

  nodes(): number {
    let sum = 0;
    for (let w = 0; w < this.size; w++) sum += this.counters[2 * w];
    return sum;
  }

  hits(): number {
    let sum = 0;
    for (let w = 0; w < this.size; w++) sum += this.counters[2 * w + 1];
    return sum;
  }

  /** Stops every worker: each leaves its wait for a test, or gives up the one it is on. */
  close(): void {
    for (let w = 0; w < this.size; w++) {
      Atomics.store(this.current, w, 0);
      this.ports[w].postMessage({ op: 'stop' } satisfies TestMessage);
      Atomics.add(this.signals, 1 + w, 1);
      Atomics.notify(this.signals, 1 + w);
      this.ports[w].close();
    }
  }

  /** The next message of any worker, waiting blocked for it; a worker's error is thrown here. */
  private receive(): { worker: number; message: Exclude<WorkerMessage, { error: unknown }> } {
    for (;;) {
      const posted = Atomics.load(this.signals, 0);
      for (let w = 0; w < this.size; w++) {
        const received = receiveMessageOnPort(this.ports[w]);
        if (!received) continue;
        const message = received.message as WorkerMessage;
        if ('error' in message) {
          const { message: text, exitCode, code, internal } = message.error;
          throw internal ? new Error(text) : new GocountError(text, exitCode, code as GocountError['code']);
        }
        return { worker: w, message };
      }
      if (Atomics.wait(this.signals, 0, posted, REPORT_MS) === 'timed-out') this.onWait();
    }
  }
}
