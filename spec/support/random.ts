import type { ExecutionContext } from 'ava';

/**
 * A seeded generator (xorshift32) for randomised tests. The seed comes from GOCOUNT_TEST_SEED when
 * set, else from the clock, and is logged, so a failing trial can be replayed.
 */
export function seededRandom(t: ExecutionContext, label: string): () => number {
  const seed = Number(process.env.GOCOUNT_TEST_SEED ?? Date.now()) >>> 0 || 1;
  t.log(`${label}: seed ${seed} (replay with GOCOUNT_TEST_SEED=${seed})`);
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
