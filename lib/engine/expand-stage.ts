/**
 * Stage 2 of a step: each state yields its 2 or 3 successors, each carrying the state's residues.
 * Residues sent to successors that are dropped (illegal, or dead in the last column) are tallied:
 * 3 × (sum in) = (sum out) + (sum dropped), which `verify` checks. At a column boundary the stage
 * also sums the legal final states it sees: L(width, columns so far).
 */

import through2 from 'through2';
import { isLegalFinal, MAX_SUCCESSORS } from '../state/border.js';
import { Expander } from '../state/expander.js';
import { Batch, BatchPool } from './batch.js';
import { addResidues } from '../residues/sums.js';
import type { PhaseClock } from './phase-clock.js';

export class ExpandStage {
  readonly dropped: Float64Array;
  readonly legal: Float64Array;
  statesIn = 0;
  successorsOut = 0;
  private readonly expander: Expander;
  private readonly moduli: Float64Array;
  private y = 0;
  private lastColumn = false;
  private sumLegal = false;

  constructor(width: number, moduli: readonly number[]) {
    this.expander = new Expander(width);
    this.moduli = Float64Array.from(moduli);
    this.dropped = new Float64Array(moduli.length);
    this.legal = new Float64Array(moduli.length);
  }

  /** Prepares for the step that places point y; sumLegal at a column boundary. */
  startStep(y: number, lastColumn: boolean, sumLegal: boolean): void {
    this.y = y;
    this.lastColumn = lastColumn;
    this.sumLegal = sumLegal;
    this.dropped.fill(0);
    this.legal.fill(0);
    this.statesIn = 0;
    this.successorsOut = 0;
  }

  /** Expands every state of `input` into `output`, whose capacity must be 3 × input.size. */
  run(input: Batch, output: Batch): void {
    const { expander, moduli, dropped, legal, y, lastColumn } = this;
    const k = moduli.length;
    const inStates = input.states;
    const inResidues = input.residues;
    const outResidues = output.residues;
    let out = output.size;
    for (let i = 0; i < input.size; i++) {
      const hi = inStates[2 * i];
      const lo = inStates[2 * i + 1];
      const base = i * k;
      if (this.sumLegal && isLegalFinal(hi, lo)) addResidues(legal, inResidues, base, 1, moduli);
      const made = expander.expand(hi, lo, y, output.states, 2 * out, lastColumn);
      for (let s = 0; s < made; s++) {
        const to = (out + s) * k;
        for (let r = 0; r < k; r++) outResidues[to + r] = inResidues[base + r];
      }
      out += made;
      if (made < MAX_SUCCESSORS) addResidues(dropped, inResidues, base, MAX_SUCCESSORS - made, moduli);
    }
    output.size = out;
    this.statesIn += input.size;
    this.successorsOut += out;
  }
}

/** The stage as a transform stream: batches in, successor batches out; onBatch after each. */
export function expandTransform(stage: ExpandStage, pool: BatchPool, inputPool: BatchPool, clock: PhaseClock, phase: number, onBatch: () => void) {
  return through2.obj({ highWaterMark: 2 }, function (batch: Batch, _encoding, done) {
    const output = pool.take();
    if (output.capacity < MAX_SUCCESSORS * batch.size) {
      done(new RangeError(`successor batch of ${output.capacity} cannot hold ${batch.size} × 3`));
      return;
    }
    clock.time(phase, () => stage.run(batch, output));
    inputPool.give(batch);
    onBatch();
    done(null, output);
  });
}
