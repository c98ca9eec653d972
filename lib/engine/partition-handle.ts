/**
 * The pass coordinator's view of a partition: in this thread (one partition) or in a worker
 * (several), with the same calls.
 */

import { MessageChannel, Worker } from 'node:worker_threads';
import { GocountError } from '../errors.js';
import type { RunSummary } from '../format/run-writer.js';
import { PartitionOptions, PartitionRunner, StepEnd, StepPart } from './partition.js';

export interface PartitionHandle {
  begin(toFiles: boolean): Promise<RunSummary[]>;
  expand(step: number, files: string[] | null, onProgress: (states: number) => void): Promise<StepPart>;
  finish(step: number, toFiles: boolean): Promise<StepEnd>;
  legalSums(step: number, files: string[] | null): Promise<number[]>;
  close(): Promise<void>;
}

export function localPartition(options: PartitionOptions): PartitionHandle {
  const runner = new PartitionRunner(options);
  return {
    begin: async (toFiles) => runner.begin(toFiles),
    expand: (step, files, onProgress) => runner.expand(step, files, onProgress),
    finish: async (step, toFiles) => runner.finish(step, toFiles),
    legalSums: async (step, files) => runner.legalSums(step, files),
    close: async () => runner.close(),
  };
}

/** Starts one worker per partition, the workers linked in pairs by a MessageChannel. */
export function workerPartitions(options: readonly PartitionOptions[]): PartitionHandle[] {
  if (options.length !== 2) throw new RangeError('worker partitions come in pairs');
  const channel = new MessageChannel();
  return [new WorkerPartition(options[0], channel.port1), new WorkerPartition(options[1], channel.port2)];
}

class WorkerPartition implements PartitionHandle {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private onProgress: (states: number) => void = () => {};
  private failure?: Error;

  constructor(options: PartitionOptions, peerPort: import('node:worker_threads').MessagePort) {
    this.worker = new Worker(new URL('./worker-main.js', import.meta.url), { workerData: { options, peerPort }, transferList: [peerPort] });
    this.worker.on('message', (message: { id?: number; result?: never; error?: { message: string; exitCode: number; internal: boolean }; progress?: number }) => {
      if (message.progress !== undefined) return this.onProgress(message.progress);
      const call = this.pending.get(message.id!);
      this.pending.delete(message.id!);
      if (!call) return;
      if (message.error) {
        const { message: text, exitCode, internal } = message.error;
        call.reject(internal ? new Error(text) : new GocountError(text, exitCode));
      } else call.resolve(message.result!);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`partition worker stopped (exit code ${code})`)));
  }

  begin(toFiles: boolean) {
    return this.call<RunSummary[]>({ op: 'begin', toFiles });
  }

  expand(step: number, files: string[] | null, onProgress: (states: number) => void) {
    this.onProgress = onProgress;
    return this.call<StepPart>({ op: 'expand', step, files });
  }

  finish(step: number, toFiles: boolean) {
    return this.call<StepEnd>({ op: 'finish', step, toFiles });
  }

  legalSums(step: number, files: string[] | null) {
    return this.call<number[]>({ op: 'legal', step, files });
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
