/**
 * The paper's Table 1: valid border state classes of each height, at y = 0 and at y = m − 1 (the
 * most). Constructible classes are a few fewer, so `maxStates` bounds the states of any step and
 * sizes the engine's buffers and disk estimates.
 */

import type { Sweep } from './shape.js';

const VALID_AT_MAX_Y = [
  0, 3, 13, 46, 168, 642, 2482, 9808, 39324, 160286, 662265, 2772774, 11742926, 50258461, 217096273, 945567689, 4148642993, 18320946269,
  81376671503, 363324268018,
];

/** An upper bound on the states of any step of a sweep of this width. */
export function maxStates(width: number): number {
  return VALID_AT_MAX_Y[width];
}

/** An upper bound on the states after `points` points of a sweep: 3^points and the width's maximum. */
export function maxStatesAfter(width: number, points: number): number {
  return Math.min(maxStates(width), 3 ** points);
}

/** The states of the largest step of a sweep, by Table 1's bound. */
export function largestStates(sweep: Sweep): number {
  let largest = 0;
  for (let step = 0; step <= sweep.width * sweep.columns; step++) largest = Math.max(largest, maxStatesAfter(sweep.width, step));
  return largest;
}
