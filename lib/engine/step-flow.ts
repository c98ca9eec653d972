/**
 * A worker's step pipeline (lib/engine/step.ts), made once and run for every step: source →
 * expand → aggregate → end.
 * A step feeds its batches to the source, which sends STEP_END after the last; the step is done
 * when STEP_END reaches the end, every batch before it having passed every stage. Building the
 * streams anew for each step cost each worker about a millisecond of cold JavaScript a step, which
 * grows with the number of workers (docs/performance.md, "Many workers").
 */

import { Readable, Writable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Batch, STEP_END } from './batch.js';

export class StepFlow {
  private readonly source = new StepSource();
  private step?: { resolve: () => void; reject: (error: Error) => void };
  private failure?: Error;

  constructor(expand: Duplex, aggregate: Duplex) {
    const end = new Writable({
      objectMode: true,
      write: (batch: Batch, _encoding, done) => {
        if (batch === STEP_END) this.ended();
        done();
      },
    });
    // Settles only when a stage fails: then the step under way fails with it.
    pipeline(this.source, expand, aggregate, end).then(
      () => this.fail(new Error('a step pipeline ended between steps')),
      (error: Error) => this.fail(error),
    );
  }

  /** False once a stage has failed: the pipeline is destroyed. */
  get open(): boolean {
    return this.failure === undefined;
  }

  /** Runs one step's batches through every stage. */
  run(batches: Iterable<Batch>): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.step = { resolve, reject };
      this.source.feed(batches[Symbol.iterator]());
    });
  }

  private ended(): void {
    const step = this.step;
    this.step = undefined;
    step?.resolve();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const step = this.step;
    this.step = undefined;
    step?.reject(this.failure);
  }
}

/** Pushes the batches of the step fed to it, then STEP_END; between steps it waits for the next. */
class StepSource extends Readable {
  private batches?: Iterator<Batch>;
  private wanted = false;

  constructor() {
    super({ objectMode: true, highWaterMark: 2 });
  }

  feed(batches: Iterator<Batch>): void {
    this.batches = batches;
    if (this.wanted) {
      this.wanted = false;
      this._read();
    }
  }

  override _read(): void {
    if (!this.batches) {
      this.wanted = true;
      return;
    }
    try {
      for (let next = this.batches.next(); ; next = this.batches.next()) {
        if (next.done) {
          this.batches = undefined;
          this.push(STEP_END);
          return;
        }
        if (!this.push(next.value)) return;
      }
    } catch (error) {
      this.batches = undefined;
      this.destroy(error as Error);
    }
  }
}
