/**
 * Stage 2 of a step: each state yields its 2 or 3 successors, each carrying the state's residues.
 * With several workers, a successor another worker owns goes straight to that worker's link.
 * Residues sent to successors that are dropped (illegal, or dead in the last column) are tallied:
 * 3 × (sum in) = (sum out) + (sum dropped), which `verify` checks. At a column boundary the stage
 * also sums the legal final states it sees: L(width, columns so far). Where the successors carry
 * one residue more than their parent (residues/growth.ts), it is computed here, once per parent.
 */

import through2 from 'through2';
import { isLegalFinal, MAX_SUCCESSORS } from '../state/border.js';
import { Expander } from '../state/expander.js';
import { Batch, BatchPool } from './batch.js';
import { addResidues } from '../residues/sums.js';
import { ResidueExtender } from '../residues/growth.js';
import type { PhaseClock } from './phase-clock.js';
import { ownerOf, type PeerRouter } from './peer.js';

export class ExpandStage {
  /** What this step sent to dropped successors, for the successors' moduli. */
  dropped = new Float64Array(0);
  /** At a column boundary: the legal states' residues, for the parents' moduli. */
  legal = new Float64Array(0);
  statesIn = 0;
  successorsOut = 0;
  private readonly expander: Expander;
  private inModuli = new Float64Array(0);
  private outModuli = new Float64Array(0);
  private extender?: ResidueExtender;
  private readonly extended: Uint32Array;
  private y = 0;
  private lastColumn = false;
  private sumLegal = false;
  private readonly router?: PeerRouter;

  constructor(width: number, moduli: readonly number[], router?: PeerRouter) {
    this.router = router;
    this.expander = new Expander(width);
    this.extended = new Uint32Array(moduli.length);
  }

  /**
   * Prepares for the step that places point y, whose parents carry residues for inModuli and whose
   * successors carry them for outModuli (the same, or one more); sumLegal at a column boundary.
   */
  startStep(y: number, lastColumn: boolean, sumLegal: boolean, inModuli: readonly number[], outModuli: readonly number[]): void {
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
  }

  /**
   * Expands every state of `input` into `output`, whose capacity must be 3 × input.size: the
   * successors this worker owns; the others are queued for their owners.
   */
  run(input: Batch, output: Batch): void {
    const { expander, inModuli, outModuli, dropped, legal, y, lastColumn, router, extender, extended } = this;
    const kIn = inModuli.length;
    const k = outModuli.length;
    const inStates = input.states;
    const inResidues = input.residues;
    const outStates = output.states;
    const outResidues = output.residues;
    const partitions = router?.partitions ?? 1;
    const self = router?.self ?? 0;
    let out = output.size;
    let made = 0;
    for (let i = 0; i < input.size; i++) {
      const hi = inStates[2 * i];
      const lo = inStates[2 * i + 1];
      if (this.sumLegal && isLegalFinal(hi, lo)) addResidues(legal, inResidues, i * kIn, 1, inModuli);
      // The parent's residues, for the successors' moduli.
      let src = inResidues;
      let base = i * kIn;
      if (extender) {
        extender.extend(inResidues, base, extended, 0);
        src = extended;
        base = 0;
      }
      const count = expander.expand(hi, lo, y, outStates, 2 * out, lastColumn);
      made += count;
      // The successors are at out … out + count − 1; the owned ones move down over the others.
      for (let s = 0, from = out; s < count; s++, from++) {
        const sHi = outStates[2 * from];
        const sLo = outStates[2 * from + 1];
        const owner = partitions === 1 ? 0 : ownerOf(sHi, sLo, partitions);
        if (owner !== self) {
          router!.links[owner]!.queueRecord(sHi, sLo, src, base);
          continue;
        }
        outStates[2 * out] = sHi;
        outStates[2 * out + 1] = sLo;
        for (let r = 0, to = out * k; r < k; r++) outResidues[to + r] = src[base + r];
        out++;
      }
      if (count < MAX_SUCCESSORS) addResidues(dropped, src, base, MAX_SUCCESSORS - count, outModuli);
    }
    output.size = out;
    this.statesIn += input.size;
    this.successorsOut += made;
  }
}

/** The stage as a transform stream: batches in, successor batches out; onBatch after each. */
export function expandTransform(
  stage: ExpandStage,
  pool: BatchPool,
  inputPool: BatchPool,
  clock: PhaseClock,
  phase: number,
  onBatch: () => void,
  router?: PeerRouter,
) {
  return through2.obj({ highWaterMark: 2 }, function (batch: Batch, _encoding, done) {
    const output = pool.take();
    if (output.capacity < MAX_SUCCESSORS * batch.size) {
      done(new RangeError(`successor batch of ${output.capacity} cannot hold ${batch.size} × 3`));
      return;
    }
    clock.time(phase, () => stage.run(batch, output));
    inputPool.give(batch);
    onBatch();
    // With peers: wait for credit on every link, keeping this event loop free to take in theirs.
    if (router) router.ready().then(() => done(null, output), done);
    else done(null, output);
  });
}
