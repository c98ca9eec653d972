/**
 * Which state classes occur, without counts: after each full column, how many distinct 0-state
 * classes the sweep has reached. This settles at the number of constructible classes of the width
 * (paper §5.2), a property of the board that pins the encoding's canonical form.
 * Sets are kept as sorted Float64Arrays of exact state values (width ≤ 17).
 */

import { MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { Expander } from '../../lib/border/expander.js';
import { HIGH_UNIT, MAX_EXACT_NUMBER_WIDTH } from '../../lib/border/layout.js';

export function distinctStatesByColumn(width: number, columns: number): number[] {
  if (width > MAX_EXACT_NUMBER_WIDTH) throw new RangeError(`distinct state counting handles widths up to ${MAX_EXACT_NUMBER_WIDTH}`);
  const expander = new Expander(width);
  const successors = new Uint32Array(2 * MAX_SUCCESSORS);
  let current: Float64Array = new Float64Array([START_HI * HIGH_UNIT + START_LO]);
  const perColumn: number[] = [];
  for (let column = 0; column < columns; column++) {
    for (let y = 0; y < width; y++) {
      const next = new Float64Array(current.length * MAX_SUCCESSORS);
      let filled = 0;
      for (let i = 0; i < current.length; i++) {
        const value = current[i];
        const hi = Math.floor(value / HIGH_UNIT);
        const made = expander.expand(hi, value - hi * HIGH_UNIT, y, successors, 0);
        for (let s = 0; s < made; s++) next[filled++] = successors[2 * s] * HIGH_UNIT + successors[2 * s + 1];
      }
      current = uniqueSorted(next.subarray(0, filled).sort());
    }
    perColumn.push(current.length);
  }
  return perColumn;
}

function uniqueSorted(sorted: Float64Array): Float64Array {
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (kept === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i];
  }
  return sorted.slice(0, kept);
}
