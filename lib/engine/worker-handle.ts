/**
 * The pass coordinator's view of a worker: in this thread (the only worker) or in a worker thread
 * (one of several), with the same calls.
 */

import { Worker } from 'node:worker_threads';
import { GocountError, type GocountErrorCode } from '../shared/errors.js';
import type { RunSummary } from '../format/run-writer.js';
import { WorkerOptions, WorkerRunner, StepEnd, StepPart } from './worker-runner.js';
import { type PeerExchange, peerExchange } from './peer.js';

export interface WorkerHandle {
  begin(toFiles: boolean): Promise<RunSummary[]>;
  /** `owners`: at a window's first step, each key bucket's owner (lib/engine/window-owners.ts). */
  expand(step: number, files: string[] | null, onProgress: (states: number) => void, owners?: Uint16Array): Promise<StepPart>;
  finish(toFiles: boolean): Promise<StepEnd>;
  legalSums(step: number, files: string[] | null): Promise<number[]>;
  /** The states after `step` points, held in memory, written to run files (a stopped count's last step). */
  save(step: number): Promise<RunSummary[]>;
  /** A partitioned count's process serving several parts: work as workers `workers` from now on. */
  actAs(workers: readonly number[]): Promise<void>;
  close(): Promise<void>;
}

export function localWorker(options: WorkerOptions): WorkerHandle {
  const runner = new WorkerRunner(options);
  return {
    begin: (toFiles) => runner.begin(toFiles),
    expand: (step, files, onProgress, owners) => runner.expand(step, files, onProgress, owners),
    finish: (toFiles) => runner.finish(toFiles),
    legalSums: async (step, files) => runner.legalSums(step, files),
    save: (step) => runner.save(step),
    actAs: async (workers) => runner.actAs(workers),
    close: () => runner.close(),
  };
}

/**
 * Starts a thread for each worker, all sharing the rings of one exchange; in a partitioned count,
 * where workers exchange successors only through files, with none.
 */
export function threadWorkers(options: readonly WorkerOptions[]): WorkerHandle[] {
  const [{ partitioned, plan, moduli }] = options;
  const exchange = partitioned ? undefined : peerExchange(options.length, plan, moduli.length);
  return options.map((worker) => new ThreadWorker(worker, exchange));
}

class ThreadWorker implements WorkerHandle {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private onProgress: (states: number) => void = () => {};
  private failure?: Error;

  constructor(options: WorkerOptions, exchange: PeerExchange | undefined) {
    this.worker = new Worker(new URL('./worker-main.js', import.meta.url), { workerData: { options, exchange } });
    this.worker.on(
      'message',
      (message: {
        id?: number;
        result?: never;
        error?: { message: string; exitCode: number; code?: GocountErrorCode; internal: boolean };
        progress?: number;
      }) => {
        if (message.progress !== undefined) return this.onProgress(message.progress);
        const call = this.pending.get(message.id!);
        this.pending.delete(message.id!);
        if (!call) return;
        if (message.error) {
          const { message: text, exitCode, code, internal } = message.error;
          call.reject(internal ? new Error(text) : new GocountError(text, exitCode, code));
        } else call.resolve(message.result!);
      },
    );
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`worker stopped (exit code ${code})`)));
  }

  begin(toFiles: boolean) {
    return this.call<RunSummary[]>({ op: 'begin', toFiles });
  }

  expand(step: number, files: string[] | null, onProgress: (states: number) => void, owners?: Uint16Array) {
    this.onProgress = onProgress;
    return this.call<StepPart>({ op: 'expand', step, files, owners });
  }

  finish(toFiles: boolean) {
    return this.call<StepEnd>({ op: 'finish', toFiles });
  }

  legalSums(step: number, files: string[] | null) {
    return this.call<number[]>({ op: 'legal', step, files });
  }

  save(step: number) {
    return this.call<RunSummary[]>({ op: 'save', step });
  }

  actAs(workers: readonly number[]) {
    return this.call<void>({ op: 'act-as', workers });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('closed');
    await this.worker.terminate();
  }

  private call<T>(message: object): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: never) => void, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const call of this.pending.values()) call.reject(error);
    this.pending.clear();
  }
}
