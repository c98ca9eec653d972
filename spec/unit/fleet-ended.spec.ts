import test from 'ava';
import { fleetEnded, type TaskFleet } from '../../lib/cluster/launcher.js';

/** A fleet of `units` processes that end when the test says so. */
function fakeFleet(units: number) {
  const ended = new Set<number>();
  const listeners = new Set<() => void>();
  const fleet: TaskFleet = {
    units: Array.from({ length: units }, (_, unit) => [unit]),
    ended: () => [...ended],
    relaunch: () => {},
    kill: () => {},
    endedDiskFull: () => false,
    onEnd(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: async () => {},
  };
  const end = (unit: number) => {
    ended.add(unit);
    for (const listener of listeners) listener();
  };
  return { fleet, end, listeners };
}

test('a fleet whose processes have all ended is done at once', async (t) => {
  const { fleet, end } = fakeFleet(2);
  end(0);
  end(1);
  t.true(await fleetEnded(fleet, 60_000));
});

test('the wait ends when the last process ends, not the first, and stops listening', async (t) => {
  const { fleet, end, listeners } = fakeFleet(3);
  let done: boolean | undefined;
  const waiting = fleetEnded(fleet, 60_000).then((ended) => (done = ended));
  end(1);
  end(0);
  await new Promise((resolve) => setImmediate(resolve));
  t.is(done, undefined, 'one process still runs');
  end(2);
  t.true(await waiting);
  t.is(listeners.size, 0);
});

test('a process that does not end leaves the wait false after its time, and stops listening', async (t) => {
  const { fleet, end, listeners } = fakeFleet(2);
  end(0);
  const started = performance.now();
  t.false(await fleetEnded(fleet, 50));
  t.true(performance.now() - started >= 45);
  t.is(listeners.size, 0);
});
