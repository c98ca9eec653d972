/**
 * The expand and route stages of a step (lib/engine/step.ts): each state yields its 2 or 3
 * successors, each carrying the state's residues; with several workers, at a window's first step
 * (lib/border/window-key.ts) the kernel sorts them by owner and those another worker owns go
 * straight to that worker's ring (route); inside a window they all stay here.
 * Residues sent to successors that are dropped (illegal, or dead in the last column) are tallied:
 * 3 × (sum in) = (sum out) + (sum dropped), which `verify` checks. At a column boundary the stage
 * also sums the legal final states it sees: L(width, columns so far). Where the successors carry
 * one residue more than their parent (residues/growth.ts), it is computed here, once per parent.
 */

import { isLegalFinal } from '../border/border.js';
import { ExpanderKernel, type StepRouting } from '../border/expander-kernel.js';
import type { Batch } from './batch.js';
import { addResidues } from '../residues/sums.js';
import { ResidueExtender } from '../residues/growth.js';
import type { PeerRouter } from './peer.js';

export class ExpandStage {
  /** What this step sent to dropped successors, for the successors' moduli. */
  dropped = new Float64Array(0);
  /** At a column boundary: the legal states' residues, for the parents' moduli. */
  legal = new Float64Array(0);
  statesIn = 0;
  successorsOut = 0;
  /** Records this step sent to other workers. */
  moved = 0;
  private readonly kernel: ExpanderKernel;
  private inModuli = new Float64Array(0);
  private outModuli = new Float64Array(0);
  private extender?: ResidueExtender;
  private y = 0;
  private lastColumn = false;
  private sumLegal = false;
  private readonly router?: PeerRouter;

  constructor(width: number, router?: PeerRouter) {
    this.router = router;
    this.kernel = new ExpanderKernel(width);
  }

  /**
   * Prepares for the step that places point y, whose parents carry residues for inModuli and whose
   * successors carry them for outModuli (the same, more, or at a column's start fewer); sumLegal at
   * a column boundary.
   */
  startStep(
    y: number,
    lastColumn: boolean,
    sumLegal: boolean,
    inModuli: readonly number[],
    outModuli: readonly number[],
    routing: StepRouting = { self: 0 },
  ): void {
    if (this.inModuli.length !== inModuli.length || this.outModuli.length !== outModuli.length) {
      this.inModuli = Float64Array.from(inModuli);
      this.outModuli = Float64Array.from(outModuli);
      this.dropped = new Float64Array(outModuli.length);
      this.legal = new Float64Array(inModuli.length);
      this.extender = outModuli.length > inModuli.length ? new ResidueExtender(outModuli, inModuli.length, outModuli.length) : undefined;
    }
    this.y = y;
    this.lastColumn = lastColumn;
    this.sumLegal = sumLegal;
    this.dropped.fill(0);
    this.legal.fill(0);
    this.statesIn = 0;
    this.successorsOut = 0;
    this.moved = 0;
    this.kernel.route(routing);
  }

  /**
   * Expands every state of `input` into `output`, whose capacity must be 3 × input.size: the
   * successors this worker owns; the others are queued for their owners.
   */
  run(input: Batch, output: Batch): void {
    if (this.sumLegal) {
      const { inModuli, legal } = this;
      const kIn = inModuli.length;
      for (let i = 0; i < input.size; i++) {
        if (isLegalFinal(input.states[2 * i], input.states[2 * i + 1])) addResidues(legal, input.residues, i * kIn, 1, inModuli);
      }
    }
    if (this.inModuli.length !== this.outModuli.length) this.runResizing(input, output);
    else this.runInKernel(input, output);
    this.statesIn += input.size;
  }

  /**
   * The kernel expands the batch and sorts its successors by owner, each with its parent's
   * residues; they are copied in bulk.
   */
  private runInKernel(input: Batch, output: Batch): void {
    const { kernel, router, outModuli, dropped } = this;
    this.successorsOut += kernel.expand(input.states, input.size, this.y, this.lastColumn, outModuli.length, router?.workers ?? 1);
    kernel.fanOut(input.residues, input.size, outModuli, dropped);
    this.route(output);
  }

  /** After fanOut: this worker's successors are copied into `output`, the others sent to their owners' rings. */
  private route(output: Batch): void {
    const { kernel, router } = this;
    const k = this.outModuli.length;
    const owners = router?.workers ?? 1;
    const self = router?.self ?? 0;
    const words = kernel.words;
    for (let d = 0; d < owners; d++) {
      const size = kernel.sizeOf(d);
      if (size === 0) continue;
      const states = words.subarray(kernel.statesOf(d), kernel.statesOf(d) + 2 * size);
      const residues = words.subarray(kernel.residuesOf(d), kernel.residuesOf(d) + k * size);
      if (d === self) {
        output.states.set(states, 2 * output.size);
        output.residues.set(residues, k * output.size);
        output.size += size;
      } else {
        router!.send(d, states, residues, size);
        this.moved += size;
      }
    }
  }

  /**
   * Steps whose successors carry other residues than their parents (growth.ts): the kernel extends
   * each parent's residues (Garner's conversion) or cuts them to their leading ones at a column's
   * start, once per parent, not per successor, then expands and routes the batch as in any step.
   */
  private runResizing(input: Batch, output: Batch): void {
    const { kernel, router, inModuli, outModuli, dropped, extender } = this;
    this.successorsOut += kernel.expand(input.states, input.size, this.y, this.lastColumn, outModuli.length, router?.workers ?? 1);
    if (extender) kernel.extendResidues(input.residues, input.size, extender);
    else kernel.narrowResidues(input.residues, input.size, inModuli.length);
    kernel.fanOut(undefined, input.size, outModuli, dropped);
    this.route(output);
  }
}
