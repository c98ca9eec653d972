/**
 * One worker of a pass: the states it holds (lib/border/window-key.ts), with their buffers.
 * With one worker that is every state. It makes the parts its steps run through once, and runs each
 * step through them (lib/engine/step.ts: source → expand → route → aggregate → spill); the pass
 * coordinator decides after a step whether its states stay in memory or go to files, and writes
 * manifests.
 */

import type { RunSummary } from '../format/run-writer.js';
import { isLegalFinal, MAX_SUCCESSORS, START_HI, START_LO } from '../border/border.js';
import { BatchPool } from './batch.js';
import type { MemoryPlan } from './budget.js';
import { ExpandStage } from './expand-stage.js';
import { MemoryRun, type StepInMemory } from './memory-run.js';
import { GroupedRun } from './grouped-run.js';
import { groupStep } from './group-step.js';
import { PeerRouter } from './peer.js';
import { splitRule, stepRouting } from './step-routing.js';
import { isWindowStart } from '../border/window-key.js';
import { addModulo, addResidues } from '../residues/sums.js';
import { residueTotals } from '../residues/residue-totals.js';
import { PHASE_INDEX, PhaseClock } from '../observe/phase-clock.js';
import { RunStore } from './run-store.js';
import { SuccessorBuffer } from './successor-buffer.js';
import { RecordSink, StateTable } from './state-table.js';
import { WorkerStep } from './step.js';
import type { StepPart } from './step-parts.js';

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
  /** Rows per window of the workers' ownership (lib/border/window-key.ts). */
  readonly windowRows?: number;
  /**
   * A partitioned count (lib/cluster): no peer links; every successor stays with the worker that
   * made it, and its runs are split by owner (the bucket of its window key) for the next step's
   * workers to read.
   */
  readonly partitioned?: boolean;
  /** Every step ends in run files (--keep, or a folder that keeps its steps). */
  readonly keep?: boolean;
  /** In a partitioned count, the workers whose states this thread reads and expands, in turn (its first is `worker`): [worker] unless given. */
  readonly serves?: readonly number[];
}

export type { StepPart } from './step-parts.js';

/** What a worker reports after finishing a step: its runs, and the step's costs. */
export interface StepEnd {
  readonly runs: RunSummary[];
  /** Milliseconds per phase (PHASES) over the whole step. */
  readonly phases: number[];
  /** Slots inserts probed beyond their home slots. */
  readonly probes: number;
  /** In a partitioned count: records its runs sent to workers this one does not serve. */
  readonly moved?: number;
  /** In a partitioned count whose states stay in memory (finish without files): how many, and their residue sums. */
  readonly held?: { readonly records: number; readonly sums: number[] };
  /** At the step before a window's first, through the pipeline: the weights of its key buckets, from the states drained. */
  readonly histogram?: Uint32Array;
}

/** States per batch that heldStates totals: views of a memory run, so the size matters little. */
const HELD_SUM_BLOCK = 1 << 20;

export class WorkerRunner {
  readonly options: WorkerOptions;
  private readonly store: RunStore;
  private readonly successors: SuccessorBuffer;
  private readonly stage: ExpandStage;
  private readonly router?: PeerRouter;
  private memoryRun?: StepInMemory;
  /** The in-memory run in groups, where the plan allows it: steps in memory are then group steps (group-step.ts). */
  private grouped?: GroupedRun;
  /** After a group step, the step of the states it left in the grouped run (finish writes them when asked). */
  private groupedStep?: number;
  /** While states change owner before a group step: what peers send goes to the grouped run. */
  private receivingInRun = false;
  private readonly clock = new PhaseClock();
  private readonly step: WorkerStep;
  /** The step being expanded (from `step` points). */
  private expanding = 0;
  /** A step ended before the coordinator asked (expand says why), in run files or in memory. */
  private endedEarly?: { readonly toFiles: boolean; readonly end: StepEnd };
  private onProgress: (states: number) => void = () => {};

  constructor(options: WorkerOptions, router?: PeerRouter) {
    this.options = options;
    this.router = router;
    const { plan, moduli, width } = options;
    const { readBufferBytes, writeBufferBytes, ownerChunkBytes } = plan;
    this.store = new RunStore({ ...options, readBufferBytes, writeBufferBytes, ownerChunkBytes });
    const table = new StateTable(plan.tableCapacity, moduli, width, plan.tableShardBytes);
    this.successors = new SuccessorBuffer(table, this.store, this.clock, () => router?.noteFull(this.expanding));
    this.stage = new ExpandStage(width, router);
    const input = new BatchPool(plan.batchRecords, moduli.length);
    const pools = { input, successors: new BatchPool(MAX_SUCCESSORS * plan.batchRecords, moduli.length) };
    const { store, successors, stage, clock } = this;
    const onBatch = () => this.onProgress(stage.statesIn);
    this.step = new WorkerStep({ store, memory: () => this.memory(), stage, router, successors, pools, clock, onBatch });
    // The peer inbox: a peer's successors for this worker join its own; at a window's first step on a grouped run, its states.
    router?.handleInbound((states, residues, from, to) =>
      this.receivingInRun ? this.grouped!.receive(states, residues, from, to) : successors.add(states, residues, from, to),
    );
  }

  /** Step 0: the all-edge state, in the worker that owns it; with toFiles also as a run file. */
  async begin(toFiles: boolean): Promise<RunSummary[]> {
    const memory = this.memory();
    const k = this.store.moduliAt(0).length;
    memory.reset(k);
    const { worker, partitioned } = this.options;
    // Worker threads: worker 0 holds it, as a window's first step may give it to any of them.
    if (!partitioned && worker !== 0) return toFiles ? this.written(this.store.writeRun(0, 1, () => {})) : [];
    if (partitioned) this.store.splitBy(splitRule(0, this.windows));
    const one = new Uint32Array(k).fill(1);
    memory.append(START_HI, START_LO, one, 0);
    return toFiles ? this.written(this.store.writeRun(0, 1, (sink) => sink.append(START_HI, START_LO, one, 0))) : [];
  }

  /**
   * Expands the states after `step` points: from memory when `files` is null, else from this
   * worker's run files of that step. Successors stay in the table (or spilled runs) until finish.
   * At a window's first step, `owners` gives each key bucket's owner (lib/engine/window-owners.ts).
   */
  async expand(step: number, files: string[] | null, onProgress: (states: number) => void, owners?: Uint16Array): Promise<StepPart> {
    const { width, columns, partitioned } = this.options;
    const count = this.windows;
    let routing = this.router ? stepRouting(step, count, this.router.self, owners) : undefined;
    if (partitioned) {
      // Every successor stays in this worker's table; its runs are split by window (splitRule).
      // Inside a window the successors of one worker's states are all its own: no key is needed.
      const rule = splitRule(step, count, owners);
      const served = this.store.served;
      const inside = owners !== undefined && !isWindowStart(step % width, count.windowRows) && served.length === 1 && !rule.strings;
      this.store.splitBy(rule, inside ? served[0] : undefined);
      const { sample } = stepRouting(step, count, 0);
      // With string keys (many owners) every state is weighed: one in SAMPLE_EVERY leaves too few a bucket.
      routing = { self: 0, sample: sample && { ...sample, strings: rule.strings, mask: rule.strings ? 0 : sample.mask } };
    }
    this.groupedStep = undefined;
    this.expanding = step;
    let ended = false;
    let movedBefore = 0;
    if (files === null && !partitioned && this.memory() === this.grouped) {
      const outcome = groupStep(this.groupContext(), step, routing);
      if (outcome.part) {
        this.groupedStep = step + 1;
        onProgress(outcome.part.statesIn);
        return outcome.part;
      }
      // The states changed owner already: the pipeline keeps every successor, and the step has ended with the peers.
      if (outcome.exchanged) routing = { self: routing!.self, sample: routing!.sample };
      ended = outcome.exchanged;
      movedBefore = outcome.moved;
    }
    const { successors, stage } = this;
    const y = step % width;
    const atBoundary = y === 0 && step > 0;
    const outModuli = this.store.moduliAt(step + 1);
    const lastColumn = Math.floor(step / width) === columns - 1;
    stage.startStep(y, lastColumn, atBoundary, this.store.moduliAt(step), outModuli, routing);
    // After an exchange its time stays on the clock.
    if (!ended) this.clock.reset();
    successors.beginStep(step + 1);
    successors.table.stopSampling();
    if (routing?.sample) successors.table.sampleKeys(routing.sample, routing.sample.mask);
    this.router?.beginStep(outModuli.length);
    this.onProgress = onProgress;
    // Inside a window every successor stays with its parent's worker (step-routing.ts): no worker
    // waits for the others at the end of its expansion, so one whose table filled holds up nobody.
    await this.step.run(step, files, ended || routing?.window === undefined);
    const { table, spilled } = successors;
    const held = table.size;
    const fitsInMemory = held <= this.memory().capacityFor(table.residueCount);
    // Among workers, each ends the step as soon as its expansion has, not when the coordinator
    // asks, so that none waits for the others in between. A step in which a table filled, or that
    // outgrows a worker's in-memory run, ends in run files (pass.ts): had the others waited for the
    // worker whose table filled, which wrote a run in the middle of the step and ends its expansion
    // later, to write their last, largest runs, the step would have lasted about two runs' writing
    // longer than its expansion. Any other step stays in memory, unless a peer's table filled after
    // this worker looked, or a peer's states outgrow its run: then finish writes them from there.
    // A partitioned count's task decides for its threads itself (lib/cluster/task.ts).
    const endedInFiles = !partitioned && (this.options.keep || spilled > 0 || !fitsInMemory || (this.router?.filledIn(step) ?? false));
    if (endedInFiles || (this.router && !partitioned)) this.endedEarly = { toFiles: endedInFiles, end: await this.end(endedInFiles) };
    return {
      statesIn: stage.statesIn,
      successors: stage.successorsOut,
      spilled,
      held,
      fitsInMemory,
      endedInFiles,
      dropped: Array.from(stage.dropped),
      legal: atBoundary ? Array.from(stage.legal) : undefined,
      moved: stage.moved + movedBefore,
      recordsRead: partitioned
        ? files
          ? Object.fromEntries(this.store.recordsRead)
          : { [this.store.served[0]]: stage.statesIn }
        : undefined,
    };
  }

  /**
   * Ends the step: its states go to run files (returned, each synced and in place) or stay in
   * memory (none returned).
   */
  async finish(toFiles: boolean): Promise<StepEnd> {
    const early = this.endedEarly;
    this.endedEarly = undefined;
    if (!early) return this.end(toFiles);
    if (early.toFiles === toFiles) return early.end;
    if (early.toFiles) throw new Error('a step that ended in run files was asked to stay in memory');
    // A peer's states did not stay in memory: this worker's go to files too, from its in-memory run.
    const runs = await this.save(this.expanding + 1);
    return { ...early.end, runs, phases: this.clock.snapshot() };
  }

  private async end(toFiles: boolean): Promise<StepEnd> {
    if (this.groupedStep !== undefined) {
      // A group step's successors are in the grouped run, not in the table: to files through it, sorted.
      const runs = toFiles ? await this.save(this.groupedStep) : [];
      return { runs, phases: this.clock.snapshot(), probes: 0 };
    }
    const { successors, options } = this;
    const { table } = successors;
    // Sorted only when the next step may overflow the table: then its runs need the order.
    const runs = this.step.end(toFiles, options.plan.mayOverflow && table.size > table.maxLoad / 3);
    await this.settleWrites();
    const moved = options.partitioned ? this.store.takeMoved() : undefined;
    const held = options.partitioned && !toFiles ? this.heldStates() : undefined;
    const histogram = table.sampling ? table.keyHistogram() : undefined;
    table.stopSampling();
    return { runs, phases: this.clock.snapshot(), probes: table.probes, moved, held, histogram };
  }

  /** The states the in-memory run holds, counted and summed: a partitioned task records them in its marker. */
  private heldStates(): { records: number; sums: number[] } {
    const memory = this.memory();
    const moduli = this.options.moduli.slice(0, memory.residueCount);
    const sums = moduli.map(() => 0);
    for (const batch of memory.batches(HELD_SUM_BLOCK))
      residueTotals(batch.residues, batch.size, moduli).forEach((total, r) => (sums[r] = addModulo(sums[r], total, moduli[r])));
    return { records: memory.count, sums };
  }

  /**
   * Writes the states after `step` points, which the last step left in memory, to run files
   * (returned), through the table, which sorts them: a count stopped there resumes after that step.
   */
  async save(step: number): Promise<RunSummary[]> {
    const { plan } = this.options;
    const { successors } = this;
    successors.beginStep(step);
    for (const batch of this.memory().batches(plan.batchRecords)) successors.add(batch.states, batch.residues, 0, batch.size);
    successors.settle();
    return this.written(successors.toFiles());
  }

  /** `runs`, once synced and in place. */
  private async written(runs: RunSummary[]): Promise<RunSummary[]> {
    await this.settleWrites();
    return runs;
  }

  /**
   * Waits for the step's runs to be synced and in place, the wait charged to the write phase: the
   * spilled runs synced while the step went on, and what the disk had left to do is waited for here.
   */
  private async settleWrites(): Promise<void> {
    const started = performance.now();
    try {
      await this.store.settleWrites();
    } finally {
      this.clock.add(PHASE_INDEX.write, performance.now() - started);
    }
  }

  /** Waits for the runs still syncing, whatever becomes of them: a failed count removes what it left only after. */
  async close(): Promise<void> {
    await this.store.settleWrites().catch(() => {});
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

  /** The count's layout with its rows per window (one when none are given). */
  private get windows(): WorkerOptions & { readonly windowRows: number } {
    return { ...this.options, windowRows: this.options.windowRows ?? 1 };
  }

  /**
   * The in-memory run, allocated once at the plan's capacity: its pages are backed only as states
   * are appended, and no outgrown copy is left for the garbage collector.
   */
  private memory(): StepInMemory {
    const { plan, moduli, partitioned } = this.options;
    if (!this.memoryRun && plan.groupedRun && !partitioned)
      this.memoryRun = this.grouped = new GroupedRun(plan.memoryRunCapacity, moduli.length, plan.batchRecords);
    this.memoryRun ??= new MemoryRun(plan.memoryRunCapacity, moduli.length);
    return this.memoryRun;
  }

  private groupContext() {
    return {
      run: this.grouped!,
      count: this.windows,
      moduliAt: (step: number) => this.store.moduliAt(step),
      clock: this.clock,
      router: this.router,
      table: this.successors.table,
      receiveInRun: (on: boolean) => (this.receivingInRun = on),
    };
  }
}
