/** The resume specs' count: 7×7 with every step in run files. */
import { paper } from './paper.js';

export const L77 = paper.legalSquare.values['7'];

/** Small enough a budget that every step of 7×7 goes to run files, so there is always a step to resume from (for up to two workers). */
export const spilling = ['--memory', '300K', '--fan-in', '4', '--quiet'];
