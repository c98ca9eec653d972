/**
 * How long a count has left. Steps are far from equal: through the first column the states grow
 * threefold a point, then grow more slowly column by column towards Table 1's bound, and each
 * column's first point holds fewer states than its last. So the time left is the sum, over the
 * steps still to run, of a fixed cost per step plus a cost per state times the states each step is
 * expected to hold; both costs are fitted to the steps done so far. A step's expected states are
 * those it held in an earlier pass (every pass runs through the same states), else those of the
 * latest step done at the same point of a column, grown by the latest column-to-column growth for
 * each column ahead, and never more than Table 1's bound. The first steps hold a handful of states
 * each, too few to time a state by: until the steps done have held PRIOR_STATES states, a prior
 * cost per state (PRIOR_SECONDS_PER_STATE) weighs in as if it had been measured over that many.
 */

import { maxStatesAfter } from '../board/table1.js';

/** About the wall time per state of one worker of this engine on a workstation (docs/performance.md). */
export const PRIOR_SECONDS_PER_STATE = 4e-7;
const PRIOR_STATES = 1e5;

export class EtaModel {
  /** States each step held (input step → states), from any pass. */
  private readonly states = new Map<number, number>();
  private doneSeconds = 0;
  private doneStates = 0;
  private doneSteps = 0;
  private fastestStep = Infinity;
  /** The latest input step done, and the growth of its states over the same point a column before. */
  private latest = -1;
  private growth = 3;

  /**
   * @param width the sweep's width
   * @param steps the steps of a pass (width × columns)
   * @param passes the passes of the count
   */
  constructor(
    readonly width: number,
    readonly steps: number,
    readonly passes: number,
  ) {}

  /** A finished step: `step` points were placed in its input, which held `states` states. */
  stepDone(step: number, states: number, seconds: number): void {
    this.states.set(step, states);
    this.doneSeconds += seconds;
    this.doneStates += states;
    this.doneSteps++;
    this.fastestStep = Math.min(this.fastestStep, seconds);
    if (step > this.latest) {
      this.latest = step;
      const before = this.states.get(step - this.width);
      this.growth = before === undefined ? 3 ** this.width : Math.max(1, states / Math.max(1, before));
    }
  }

  /** The states the input of `step` is expected to hold. */
  expectedStates(step: number): number {
    const known = this.states.get(step);
    if (known !== undefined) return known;
    const bound = maxStatesAfter(this.width, step);
    if (this.latest < 0) return bound;
    const columnsAhead = Math.ceil((step - this.latest) / this.width);
    const alike = this.states.get(step - columnsAhead * this.width);
    const guess =
      alike === undefined
        ? this.states.get(this.latest)! * 3 ** (step - this.latest) // still in the first column
        : alike * this.growth ** columnsAhead;
    return Math.max(1, Math.min(bound, guess));
  }

  /**
   * Seconds left from the start of input step `step` of pass `pass` (0-based) to the end of the
   * count; `intoStep` seconds of that step have already gone by. NaN before any step is done.
   */
  secondsLeft(pass: number, step: number, intoStep = 0): number {
    if (this.doneSteps === 0) return NaN;
    const perStep = Math.min(this.fastestStep, this.doneSeconds / this.doneSteps);
    const measured = Math.max(0, this.doneSeconds - perStep * this.doneSteps);
    const prior = Math.max(0, PRIOR_STATES - this.doneStates);
    const perState = (measured + prior * PRIOR_SECONDS_PER_STATE) / Math.max(1, this.doneStates + prior);
    const cost = (s: number) => perStep + perState * this.expectedStates(s);
    let left = 0;
    for (let s = step; s < this.steps; s++) left += cost(s);
    if (pass + 1 < this.passes) {
      let wholePass = 0;
      for (let s = 0; s < this.steps; s++) wholePass += cost(s);
      left += (this.passes - pass - 1) * wholePass;
    }
    // The step under way has used part of its share, but never counts as done before it ends.
    return Math.max(left - Math.min(intoStep, cost(step) * 0.95), 0);
  }
}
