/** Who holds what in a threads' count's kept step folder: the window-ownership specs' reading of runs. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { RunReader } from '../../lib/format/run-reader.js';
import { numberWords, stateNumber } from './state-key.js';

/** A state number (state-key.ts) in words: "hi:lo". */
export const stateName = (state: number) => numberWords(state).join(':');

/** The states of each worker's runs of a kept step folder: state → the workers holding it (a worker's spilled runs may hold it more than once). */
export function holders(dir: string): Map<number, number[]> {
  const held = new Map<number, number[]>();
  for (const file of readdirSync(dir).filter((f) => f.startsWith('run-w'))) {
    const worker = Number(/^run-w(\d+)-/.exec(file)![1]);
    const reader = new RunReader(path.join(dir, file), Buffer.alloc(1 << 14));
    while (reader.next()) {
      const state = stateNumber(reader.hi, reader.lo);
      const workers = held.get(state);
      if (workers === undefined) held.set(state, [worker]);
      else if (!workers.includes(worker)) workers.push(worker);
    }
  }
  return held;
}

/** The states held by more than one worker, in words (none when ownership holds). */
export function heldTwice(step: number, held: Map<number, number[]>): string[] {
  const twice: string[] = [];
  for (const [state, workers] of held)
    if (workers.length !== 1) twice.push(`step ${step}: state ${stateName(state)} held by workers ${workers.join(', ')}`);
  return twice;
}
