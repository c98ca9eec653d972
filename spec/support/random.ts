import type { ExecutionContext } from 'ava';
import { seededRandom } from '../../lib/shared/random.js';

/**
 * The generator for randomised tests. The seed comes from GOCOUNT_TEST_SEED when set, else from the
 * clock, and is logged, so a failing trial can be replayed.
 */
export function replayableRandom(t: ExecutionContext, label: string): () => number {
  const seed = Number(process.env.GOCOUNT_TEST_SEED ?? Date.now()) >>> 0;
  t.log(`${label}: seed ${seed} (replay with GOCOUNT_TEST_SEED=${seed})`);
  return seededRandom(seed);
}

/** A whole number in [0, k) from a generator. */
export const below = (random: () => number, k: number): number => Math.floor(random() * k);
