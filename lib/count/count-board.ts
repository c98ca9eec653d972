/** Counting a board from the command: the in-memory counter, with its limits turned into clear errors. */

import { GocountError } from '../errors.js';
import type { Sweep } from '../board/shape.js';
import { countLegal } from './in-memory.js';

export function countLegalOf(sweep: Sweep): bigint {
  try {
    return countLegal(sweep);
  } catch (error) {
    if (error instanceof RangeError && /Map maximum size/.test(error.message)) {
      throw new GocountError(
        `width ${sweep.width} needs more states than the in-memory counter can hold (about 16 million per step)`,
        1,
      );
    }
    throw error;
  }
}
