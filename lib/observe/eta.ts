/**
 * How long a count has left: the sum, over the steps still to run, of a fixed cost per step plus a
 * cost per state times the states each step is expected to hold.
 *
 * States. A step holds what it held in an earlier pass (every pass runs through the same states).
 * Otherwise, through the first column the states grow threefold a point. After it, each point of a
 * column holds more than the same point of the column before, and the gap to Table 1's bound
 * shrinks by about the same fraction from column to column: a step ahead holds what the same point
 * of the latest column held, its gap shrunk once per column between (by the fraction measured over
 * the latest two columns, GAP_LEFT until two past the first are done). In the last column the
 * states fall about fourfold a point: at most 4^(k+1) with k points left (14, 48, 183, 700 … on
 * every width logged).
 *
 * Costs. The fixed cost is that of the fastest step done. The cost per state is fitted to the steps
 * done of at least SMALL_STEP states (below that, a step's time is all overhead). Until those have
 * held PRIOR_STATES states, a prior cost per state, shared by the workers, weighs in as if measured
 * over the rest: at step 10 a count has seen too few states to time one, so its ETA is then mostly
 * the prior's.
 */

import { maxStatesAfter } from '../board/table1.js';

/**
 * Wall seconds per state for one worker (n workers take 1/n of it): the logged counts in fixtures/
 * took from 2.0e-7 (two workers in memory, so 1.0e-7 of wall time a state) to 4.75e-7 (one worker,
 * on disk) a state and worker; this lies between, within a factor 2 of both.
 */
export const PRIOR_SECONDS_PER_STATE = 2.6e-7;
const PRIOR_STATES = 5e6;
const SMALL_STEP = 1e4;
/** The share of the gap to Table 1's bound that a column leaves, until it is measured. */
const GAP_LEFT = 0.7;

export class EtaModel {
  /** States each step held (input step → states), from any pass. */
  private readonly states = new Map<number, number>();
  private doneSteps = 0;
  private fastestStep = Infinity;
  /** Seconds and states of the steps done of at least SMALL_STEP states. */
  private largeSeconds = 0;
  private largeStates = 0;
  private largeSteps = 0;
  /** The latest input step done. */
  private latest = -1;

  /**
   * @param width the sweep's width
   * @param steps the steps of a pass (width × columns)
   * @param passes the passes of the count
   * @param workers the threads the states are split between, which share the prior cost per state
   */
  constructor(
    readonly width: number,
    readonly steps: number,
    readonly passes: number,
    readonly workers = 1,
  ) {}

  /** A finished step: `step` points were placed in its input, which held `states` states. */
  stepDone(step: number, states: number, seconds: number): void {
    this.states.set(step, states);
    this.doneSteps++;
    this.fastestStep = Math.min(this.fastestStep, seconds);
    if (states >= SMALL_STEP) {
      this.largeSeconds += seconds;
      this.largeStates += states;
      this.largeSteps++;
    }
    this.latest = Math.max(this.latest, step);
  }

  /** The states the input of `step` is expected to hold. */
  expectedStates(step: number): number {
    const known = this.states.get(step);
    if (known !== undefined) return known;
    const bound = maxStatesAfter(this.width, step);
    if (this.latest < 0) return bound;
    let guess: number;
    if (step <= this.width) {
      guess = this.states.get(this.latest)! * 3 ** (step - this.latest);
    } else {
      const columnsAhead = Math.ceil((step - this.latest) / this.width);
      const alike = Math.min(bound, this.states.get(step - columnsAhead * this.width) ?? 1);
      guess = bound - (bound - alike) * this.gapLeft() ** columnsAhead;
    }
    const lastColumn = step > this.steps - this.width ? 4 ** (this.steps - step + 1) : Infinity;
    return Math.max(1, Math.min(bound, lastColumn, guess));
  }

  /**
   * Seconds left from the start of input step `step` of pass `pass` (0-based) to the end of the
   * count; `intoStep` seconds of that step have already gone by. NaN before any step is done.
   */
  secondsLeft(pass: number, step: number, intoStep = 0): number {
    if (this.doneSteps === 0) return NaN;
    const perStep = this.fastestStep;
    const measured = Math.max(0, this.largeSeconds - perStep * this.largeSteps);
    const prior = Math.max(0, PRIOR_STATES - this.largeStates);
    const perState = (measured + (prior * PRIOR_SECONDS_PER_STATE) / this.workers) / (this.largeStates + prior);
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

  /**
   * The share of the gap to Table 1's bound left after a column: the latest complete column's gap
   * over the gap of the column before, when both are past the first.
   */
  private gapLeft(): number {
    const end = this.latest - (this.latest % this.width); // points placed when the latest column was complete
    if (end < 3 * this.width) return GAP_LEFT;
    let gap = 0;
    let gapBefore = 0;
    for (let s = end - this.width + 1; s <= end; s++) {
      const bound = maxStatesAfter(this.width, s);
      gap += Math.max(0, bound - (this.states.get(s) ?? bound));
      gapBefore += Math.max(0, bound - (this.states.get(s - this.width) ?? bound));
    }
    return gapBefore > 0 ? Math.min(0.95, Math.max(0.2, gap / gapBefore)) : GAP_LEFT;
  }
}
