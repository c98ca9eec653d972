/**
 * One worker of a pass: the states whose owner (ownerOf) is this worker, with their buffers.
 * With one worker that is every state. A step is a stream pipeline, merge → expand (sending the
 * successors other workers own to them) → accumulate (buffer, combine, flush sorted runs) →
 * collect runs; the pass coordinator decides after it whether the step's states stay in memory or
 * go to files, and writes manifests.
 */

import type { RunSummary } from '../format/run-writer.js';
import { isLegalFinal, MAX_SUCCESSORS, START_HI, START_LO } from '../border/border.js';
import { accumulateTransform } from './accumulate-stage.js';
import { Batch, BatchPool } from './batch.js';
import { StepFlow } from './step-flow.js';
import type { MemoryPlan } from './budget.js';
import { ExpandStage, expandTransform } from './expand-stage.js';
import { MemoryRun } from './memory-run.js';
import { PeerRouter } from './peer.js';
import { ownerOf } from '../border/ownership.js';
import { addResidues } from '../residues/sums.js';
import { PHASE_INDEX, PhaseClock } from '../observe/phase-clock.js';
import { RunStore } from './run-store.js';
import { SuccessorBuffer } from './successor-buffer.js';
import { RecordSink, StateTable } from './state-table.js';

export interface WorkerOptions {
  readonly width: number;
  readonly columns: number;
  readonly moduli: readonly number[];
  readonly plan: MemoryPlan;
  readonly fanIn: number;
  readonly scratchDir: string;
  /** This worker's number, from 0, among `workers`: in a partitioned count, among every partition's. */
  readonly worker: number;
  readonly workers: number;
  /**
   * A partitioned count (lib/cluster): no peer links; every successor stays with the worker that
   * made it, and its runs are split by owner for the next step's workers to read.
   */
  readonly partitioned?: boolean;
  /** In a partitioned count, the workers whose states this thread reads and expands, in turn (its first is `worker`): [worker] unless given. */
  readonly serves?: readonly number[];
}

/** What a worker reports after expanding a step. */
export interface StepPart {
  readonly statesIn: number;
  readonly successors: number;
  /** Runs already written because the table filled. */
  readonly spilled: number;
  /** States left in the table. */
  readonly held: number;
  /** Whether they fit in the in-memory run. */
  readonly fitsInMemory: boolean;
  readonly dropped: number[];
  /** At a column boundary: the legal states' residues. */
  readonly legal?: number[];
}

/** What a worker reports after finishing a step: its runs, and the step's costs. */
export interface StepEnd {
  readonly runs: RunSummary[];
  /** Milliseconds per phase (PHASES) over the whole step. */
  readonly phases: number[];
  /** Slots inserts probed beyond their home slots. */
  readonly probes: number;
}

const { read: READ, expand: EXPAND } = PHASE_INDEX;

export class WorkerRunner {
  readonly options: WorkerOptions;
  private readonly store: RunStore;
  private readonly successors: SuccessorBuffer;
  private readonly stage: ExpandStage;
  private readonly inputPool: BatchPool;
  private readonly successorPool: BatchPool;
  private readonly router?: PeerRouter;
  private memoryRun?: MemoryRun;
  private readonly clock = new PhaseClock();
  private stepFlow?: StepFlow;
  private onProgress: (states: number) => void = () => {};

  constructor(options: WorkerOptions, router?: PeerRouter) {
    this.options = options;
    const { plan, moduli, width } = options;
    const { readBufferBytes, writeBufferBytes } = plan;
    this.store = new RunStore({ ...options, readBufferBytes, writeBufferBytes, ownerChunkBytes: plan.ownerChunkBytes });
    this.successors = new SuccessorBuffer(new StateTable(plan.tableCapacity, moduli, width, plan.tableShardBytes), this.store, this.clock);
    this.stage = new ExpandStage(width, router);
    this.inputPool = new BatchPool(plan.batchRecords, moduli.length);
    this.successorPool = new BatchPool(MAX_SUCCESSORS * plan.batchRecords, moduli.length);
    this.router = router;
    // The peer inbox: a peer's successors for this worker join its own.
    router?.handleInbound((states, residues, from, to) => this.successors.add(states, residues, from, to));
  }

  /** Step 0: the all-edge state, in the worker that owns it; with toFiles also as a run file. */
  begin(toFiles: boolean): RunSummary[] {
    const memory = this.memory();
    const k = this.store.moduliAt(0).length;
    memory.reset(k);
    const { worker, workers, partitioned, width } = this.options;
    if (!partitioned && ownerOf(START_HI, START_LO, workers, width) !== worker) return toFiles ? this.store.writeRun(0, 1, () => {}) : [];
    const one = new Uint32Array(k).fill(1);
    memory.append(START_HI, START_LO, one, 0);
    return toFiles ? this.store.writeRun(0, 1, (sink) => sink.append(START_HI, START_LO, one, 0)) : [];
  }

  /**
   * Expands the states after `step` points: from memory when `files` is null, else from this
   * worker's run files of that step. Successors stay in the table (or spilled runs) until finish.
   */
  async expand(step: number, files: string[] | null, onProgress: (states: number) => void): Promise<StepPart> {
    const { width, columns } = this.options;
    const { successors, stage } = this;
    const y = step % width;
    const atBoundary = y === 0 && step > 0;
    const outModuli = this.store.moduliAt(step + 1);
    const lastColumn = Math.floor(step / width) === columns - 1;
    stage.startStep(y, lastColumn, atBoundary, this.store.moduliAt(step), outModuli);
    this.clock.reset();
    successors.beginStep(step + 1, (y + 1) % width, lastColumn);
    this.router?.beginStep(outModuli.length);
    const source = this.openSource(step, files);
    this.onProgress = onProgress;
    try {
      await this.flow().run(source.batches);
      this.router?.endStep();
      successors.settle();
    } catch (error) {
      source.close();
      successors.clear();
      throw error;
    }
    const { table } = successors;
    return {
      statesIn: stage.statesIn,
      successors: stage.successorsOut,
      spilled: successors.spilled,
      held: table.size,
      fitsInMemory: table.size <= this.memory().capacityFor(table.residueCount),
      dropped: Array.from(stage.dropped),
      legal: atBoundary ? Array.from(stage.legal) : undefined,
    };
  }

  /** Ends the step: its states go to run files (returned) or stay in memory (none returned). */
  finish(toFiles: boolean): StepEnd {
    const { successors, options } = this;
    const { table } = successors;
    let runs: RunSummary[] = [];
    // Sorted only when the next step may overflow the table: then its runs need the order.
    if (!toFiles) successors.toMemory(this.memory(), options.plan.mayOverflow && table.size > table.maxLoad / 3);
    else runs = successors.toFiles();
    return { runs, phases: this.clock.snapshot(), probes: table.probes };
  }

  /**
   * In a partitioned count, from now on work as workers `workers` of the count: a task process that
   * serves several parts one after another keeps its table, buffers and thread for all of them.
   */
  actAs(workers: readonly number[]): void {
    this.store.actAs(workers);
  }

  /** Residues of the legal final states of this worker. */
  legalSums(step: number, files: string[] | null): number[] {
    const moduli = this.store.moduliAt(step);
    const moduliArray = Float64Array.from(moduli);
    const sums = new Float64Array(moduli.length);
    const sink: RecordSink = {
      append(hi, lo, residues, at) {
        if (isLegalFinal(hi, lo)) addResidues(sums, residues, at, 1, moduliArray);
      },
    };
    if (files === null) {
      for (const batch of this.memory().batches(this.options.plan.batchRecords)) {
        for (let i = 0; i < batch.size; i++) sink.append(batch.states[2 * i], batch.states[2 * i + 1], batch.residues, i * moduli.length);
      }
    } else {
      this.store.openStep(step, files).drainTo(sink);
    }
    return Array.from(sums);
  }

  /**
   * The stream pipeline every step runs through, made once: a step's batches go in, then a step
   * end behind them. Made anew only after a step failed, which leaves a pipeline destroyed.
   */
  private flow(): StepFlow {
    if (!this.stepFlow?.open) {
      const { stage, clock, router } = this;
      this.stepFlow = new StepFlow(
        expandTransform(stage, this.successorPool, this.inputPool, clock, EXPAND, () => this.onProgress(stage.statesIn), router),
        accumulateTransform(this.successors, this.successorPool),
      );
    }
    return this.stepFlow;
  }

  /** The step's states as a stream of batches, each state once. */
  private openSource(step: number, files: string[] | null): { batches: Iterable<Batch>; close: () => void } {
    const { plan } = this.options;
    if (files === null) return { batches: this.memory().batches(plan.batchRecords), close: () => {} };
    const merger = this.store.openStep(step, files);
    const pool = this.inputPool;
    const clock = this.clock;
    function* batches(): Generator<Batch> {
      for (;;) {
        const batch = pool.take();
        if (!clock.time(READ, () => merger.fill(batch))) {
          pool.give(batch);
          return;
        }
        yield batch;
      }
    }
    return { batches: batches(), close: () => merger.close() };
  }

  /**
   * The in-memory run, allocated once at the plan's capacity: its pages are backed only as states
   * are appended, and no outgrown copy is left for the garbage collector.
   */
  private memory(): MemoryRun {
    this.memoryRun ??= new MemoryRun(this.options.plan.memoryRunCapacity, this.options.moduli.length);
    return this.memoryRun;
  }
}
