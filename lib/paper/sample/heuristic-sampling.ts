/**
 * Heuristic Sampling (Chen; paper §5.8): an unbiased estimate of L(m,n) from the tree of successive
 * border states, root the empty board, depth m·n, whose legal leaves are the legal positions. One
 * probe walks the tree level by level keeping one node per stratum, here the number of libertyless
 * strings on the border (the remaining depth is the level). A node joining a stratum adds its
 * weight to the stratum's and replaces the representative with probability weight / new total, so
 * each representative stands for its stratum's total. The legal leaves' weight is the probe's
 * estimate; many probes give a mean and its standard error.
 */

import { BorderStates, isLegalFinal, MAX_SUCCESSORS, LIBERTYLESS, START_HI, START_LO } from '../../border/border.js';
import { Expander } from '../../border/expander.js';
import type { Sweep } from '../../board/shape.js';
export { seededRandom } from '../../shared/random.js';

/** Weights are plain numbers, at most 3^(mn): boards up to this many points keep them finite. */
export const MAX_SAMPLE_POINTS = 640;

export interface SampleResult {
  readonly runs: number;
  readonly mean: number;
  /** Standard error of the mean: the sample standard deviation / √runs. */
  readonly standardError: number;
}

export class HeuristicSampler {
  private readonly expander: Expander;
  private readonly states: BorderStates;
  private readonly successors = new Uint32Array(2 * MAX_SUCCESSORS);
  private readonly strata: number;
  // One level's strata and the next's: representative (hi, lo) and weight, indexed by stratum.
  private level: LevelStrata;
  private next: LevelStrata;

  constructor(
    private readonly sweep: Sweep,
    private readonly random: () => number,
  ) {
    this.expander = new Expander(sweep.width);
    this.states = new BorderStates(sweep.width);
    this.strata = sweep.width + 1; // 0 … width libertyless strings (alternating colours make one each)
    this.level = new LevelStrata(this.strata);
    this.next = new LevelStrata(this.strata);
  }

  /** One probe: an unbiased estimate of the number of legal leaves. */
  probe(): number {
    const { width, columns } = this.sweep;
    const { successors, random } = this;
    let level = this.level;
    let next = this.next;
    level.clear();
    level.offer(0, START_HI, START_LO, 1, random);
    for (let step = 0; step < width * columns; step++) {
      const y = step % width;
      const lastColumn = Math.floor(step / width) === columns - 1;
      const nextY = y + 1 === width ? 0 : y + 1;
      next.clear();
      for (let s = 0; s < this.strata; s++) {
        const weight = level.weight[s];
        if (weight === 0) continue;
        const made = this.expander.expand(level.hi[s], level.lo[s], y, successors, 0, lastColumn);
        for (let c = 0; c < made; c++) {
          const hi = successors[2 * c];
          const lo = successors[2 * c + 1];
          next.offer(this.libertylessStrings(hi, lo, nextY), hi, lo, weight, random);
        }
      }
      [level, next] = [next, level];
    }
    this.level = level;
    this.next = next;
    let legal = 0;
    for (let s = 0; s < this.strata; s++) if (level.weight[s] > 0 && isLegalFinal(level.hi[s], level.lo[s])) legal += level.weight[s];
    return legal;
  }

  /** The mean of `runs` probes and its standard error. */
  sample(runs: number): SampleResult {
    const mean = this.runningMean();
    for (let run = 1; run <= runs; run++) mean.add(this.probe());
    return mean.result();
  }

  /** An empty mean of probes of this board, to add probes to one by one. */
  runningMean(): RunningMean {
    return new RunningMean(3 ** (this.sweep.width * this.sweep.columns));
  }

  /** Distinct strings among the border's libertyless stones. */
  private libertylessStrings(hi: number, lo: number, y: number): number {
    const { states } = this;
    states.decode(hi, lo, y);
    let strings = 0;
    for (let i = 0; i < states.width; i++) if (states.kind[i] === LIBERTYLESS && states.group[i] === i) strings++;
    return strings;
  }
}

/**
 * Welford's running mean and variance of the probes, taken as shares of all `scale` = 3^(mn)
 * colourings: squares of 10^170 would overflow.
 */
export class RunningMean {
  count = 0;
  private mean = 0;
  private squares = 0;

  constructor(private readonly scale: number) {}

  add(probe: number): void {
    const x = probe / this.scale;
    const delta = x - this.mean;
    this.count++;
    this.mean += delta / this.count;
    this.squares += delta * (x - this.mean);
  }

  result(): SampleResult {
    const { count, scale } = this;
    const variance = count > 1 ? this.squares / (count - 1) : 0;
    return { runs: count, mean: this.mean * scale, standardError: Math.sqrt(variance / count) * scale };
  }
}

/** The strata of one level: a representative and a total weight each. */
class LevelStrata {
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  readonly weight: Float64Array;

  constructor(size: number) {
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.weight = new Float64Array(size);
  }

  clear(): void {
    this.weight.fill(0);
  }

  /** Chen's merge: the newcomer becomes the representative with probability weight / new total. */
  offer(stratum: number, hi: number, lo: number, weight: number, random: () => number): void {
    const total = this.weight[stratum] + weight;
    this.weight[stratum] = total;
    if (total === weight || random() * total < weight) {
      this.hi[stratum] = hi;
      this.lo[stratum] = lo;
    }
  }
}
