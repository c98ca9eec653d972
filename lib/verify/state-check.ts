/**
 * Whether a code is a border state that can occur at a given step of a sweep: a well-formed class in
 * its one canonical code, with edge fields exactly where no point has been placed yet (first column)
 * or where the last column's points have been forgotten.
 */

import { BorderStates, EDGE } from '../border/border.js';
import { describeCode } from '../border/render.js';

export class StateCheck {
  private readonly states: BorderStates;
  private readonly y: number;
  /** edge[i]: whether field i must be an edge at this step. */
  private readonly edge: boolean[];

  constructor(width: number, columns: number, step: number) {
    this.states = new BorderStates(width);
    this.y = step % width;
    this.edge = edgeFields(width, columns, step);
  }

  /** A sentence saying what is wrong with (hi, lo), or undefined when it is a valid state here. */
  problem(hi: number, lo: number): string | undefined {
    const { states, edge } = this;
    if (!states.isCanonical(hi, lo, this.y)) return `state ${describeCode(hi, lo)} is not a canonical border state`;
    for (let i = 0; i < edge.length; i++) {
      if ((states.kind[i] === EDGE) !== edge[i]) {
        return `state ${describeCode(hi, lo)} has ${edge[i] ? 'no edge' : 'an edge'} at field ${i}, impossible after this step`;
      }
    }
    return undefined;
  }

  /** The last state problem() found valid, decoded: each field's kind, colour and string (BorderStates). */
  get decoded(): { readonly kind: Uint8Array; readonly colour: Uint8Array; readonly group: Uint8Array } {
    return this.states;
  }
}

/**
 * Field i last received a point in column col(i): the current column above y, the one before from
 * y down. At a column boundary every field is in the column just finished.
 */
export function edgeFields(width: number, columns: number, step: number): boolean[] {
  let column = Math.floor(step / width);
  let y = step % width;
  if (y === 0 && step > 0) {
    column--;
    y = width;
  }
  const edge: boolean[] = [];
  for (let i = 0; i < width; i++) {
    const placedIn = i < y ? column : column - 1;
    const forgotten = placedIn === columns - 1 && i < y - 1;
    edge.push(placedIn < 0 || forgotten);
  }
  return edge;
}
