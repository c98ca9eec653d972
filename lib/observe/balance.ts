/** How evenly a step's work is shared: the busiest owner's input states against the mean. */

/** The largest of `states` over their mean (1 with one owner, or none). */
export function busiestShare(states: readonly number[]): number {
  const total = states.reduce((a, b) => a + b, 0);
  if (states.length < 2 || total === 0) return 1;
  return Math.max(...states) / (total / states.length);
}
