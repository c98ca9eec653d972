/**
 * Where a worker's successors of one step go, from its own expand stage and from its peers:
 * the state table, and each time the table is full, a sorted run file drained from it. At the end of
 * the step what is left goes to one more run, or, when the step fits, into the in-memory run.
 */

import type { RunSummary } from '../format/run-writer.js';
import type { StepInMemory } from './memory-run.js';
import { PHASE_INDEX, type PhaseClock } from '../observe/phase-clock.js';
import type { RunStore } from './run-store.js';
import type { StateTable } from './state-table.js';

const { aggregate: AGGREGATE, sort: SORT, write: WRITE, drain: DRAIN } = PHASE_INDEX;

export class SuccessorBuffer {
  readonly table: StateTable;
  private readonly store: RunStore;
  private readonly clock: PhaseClock;
  private runs: RunSummary[] = [];
  private spills = 0;
  /** Points placed in the successors being taken in. */
  private step = 0;
  /** Told, before the run is written, each time the table fills in the middle of a step. */
  private readonly onFull: () => void;

  constructor(table: StateTable, store: RunStore, clock: PhaseClock, onFull: () => void = () => {}) {
    this.table = table;
    this.store = store;
    this.clock = clock;
    this.onFull = onFull;
  }

  /** Begins taking in the successors after `step` points. */
  beginStep(step: number): void {
    this.step = step;
    this.runs = [];
    this.spills = 0;
    this.table.resetProbes();
    this.table.beginStep(this.store.moduliAt(step));
  }

  /** Takes in records [from, to) of a batch, writing a run each time the table is full. */
  add(states: Uint32Array, residues: Uint32Array, from: number, to: number): void {
    const { table, clock } = this;
    for (let at = from; at < to;) {
      at = clock.time(AGGREGATE, () => table.addBatch(states, residues, at, to));
      if (!table.full) continue;
      this.onFull();
      this.spill();
    }
  }

  /** Combines what the table holds, so its size is exact. */
  settle(): void {
    this.clock.time(AGGREGATE, () => this.table.settle());
  }

  /** Runs written so far in this step (in a partitioned count, each split into a file per owner). */
  get spilled(): number {
    return this.spills;
  }

  /** Ends the step on disk: what is left becomes one more run (at least one run per step). */
  toFiles(): RunSummary[] {
    if (this.table.size > 0 || this.spills === 0) this.spill();
    return this.runs;
  }

  /** Ends the step in memory: every state moves into `run`, sorted when asked. */
  toMemory(run: StepInMemory, sorted: boolean): void {
    const { table } = this;
    const sortMs = table.sortMs;
    this.clock.time(DRAIN, () => table.drainTo(run, sorted));
    this.chargeSort(sortMs, DRAIN);
  }

  /** Drops what the table holds (a failed step). */
  clear(): void {
    this.table.clear();
  }

  private spill(): void {
    const { table } = this;
    const sortMs = table.sortMs;
    const runs = this.clock.time(WRITE, () => this.store.writeRun(this.step, ++this.spills, (sink) => table.drainSorted(sink)));
    this.chargeSort(sortMs, WRITE);
    this.runs.push(...runs);
  }

  /** Moves the sorting the table did since it read sortMs out of phase `from` into SORT. */
  private chargeSort(sortMs: number, from: number): void {
    const sorting = this.table.sortMs - sortMs;
    this.clock.add(from, -sorting);
    this.clock.add(SORT, sorting);
  }
}
