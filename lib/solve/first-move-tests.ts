/**
 * The empty board's value from tests of its first moves, several at once: whether a move gives at
 * least t is a search of its own, so each can run in a thread of its own (lib/solve/first-move-workers.ts).
 * The value is above t when one move gives at least t + 1, and at most t when none does: the
 * same null-window tests as HistorySearch.valueByTests, asked one move at a time.
 */

/** Runs move tests in `size` workers: each works on one test at a time. */
export interface MoveTestPool {
  readonly size: number;
  /** Starts worker w on whether move i gives at least t. */
  start(w: number, i: number, t: number): void;
  /** Asks worker w to give up its test: its answer then comes back undefined, unless it was done first. */
  cancel(w: number): void;
  /** Waits for an answer: the worker, and whether its move gives at least its t (undefined: given up). */
  next(): { worker: number; atLeast: boolean | undefined };
}

/** What the tests have found: the value so far (lower > upper before they start) and the move each worker tests (-1: none). */
export interface MoveTestState {
  readonly proved: { lower: number; upper: number };
  readonly testing: Int32Array;
}

export interface EmptyBoardTests {
  readonly value: number;
  /** For each move, whether it achieves the value. */
  readonly best: boolean[];
}

/**
 * The value over `count` moves, each worth -points to points, by tests from the guess; then each
 * move tested against it. `state` is kept up to date for the progress.
 */
export function valueByMoveTests(count: number, points: number, guess: number, pool: MoveTestPool, state: MoveTestState): EmptyBoardTests {
  // Per move, the most it is known to give at least (yes) and the least it is known not to (no).
  const yes = new Array<number>(count).fill(-points);
  const no = new Array<number>(count).fill(points + 1);
  const threshold = new Int32Array(pool.size);
  const { proved, testing } = state;
  testing.fill(-1);

  /** Whether some move gives at least t (stopAtYes: stop at the first that does), or every move's answer at t. */
  const test = (t: number, stopAtYes: boolean): boolean => {
    const open: number[] = [];
    for (let i = 0; i < count; i++) {
      if (t <= yes[i] && stopAtYes) return true;
      if (t > yes[i] && t < no[i]) open.push(i);
    }
    let found = false;
    let running = 0;
    for (;;) {
      for (let w = 0; w < pool.size && open.length > 0 && !(found && stopAtYes); w++) {
        if (testing[w] >= 0) continue;
        testing[w] = open.shift()!;
        threshold[w] = t;
        pool.start(w, testing[w], t);
        running++;
      }
      if (running === 0) break;
      const { worker, atLeast } = pool.next();
      const i = testing[worker];
      testing[worker] = -1;
      running--;
      if (atLeast === true) yes[i] = Math.max(yes[i], threshold[worker]);
      if (atLeast === false) no[i] = Math.min(no[i], threshold[worker]);
      if (atLeast && stopAtYes && !found) {
        found = true;
        for (let w = 0; w < pool.size; w++) if (testing[w] >= 0) pool.cancel(w);
      }
    }
    return found || yes.some((y) => y >= t);
  };

  proved.lower = -points;
  proved.upper = points;
  let t = Math.min(points - 1, Math.max(-points, guess));
  while (proved.lower < proved.upper) {
    if (test(t + 1, true)) proved.lower = ++t;
    else proved.upper = t--;
  }
  const value = proved.lower;
  test(value, false);
  return { value, best: yes.map((y) => y >= value) };
}
