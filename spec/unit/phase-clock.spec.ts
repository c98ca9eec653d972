import test from 'ava';
import { PHASE_INDEX, PhaseClock } from '../../lib/observe/phase-clock.js';

test('time inside time is charged to the inner phase alone: a send that takes records in while it waits, and writes a run when they fill the table', (t) => {
  let now = 0;
  const realNow = performance.now;
  performance.now = () => now;
  try {
    const clock = new PhaseClock();
    const { expand, aggregate, write } = PHASE_INDEX;
    clock.time(expand, () => {
      now += 5;
      clock.time(aggregate, () => (now += 2));
      now += 1;
      clock.time(write, () => {
        now += 3;
        clock.time(aggregate, () => (now += 4));
      });
      now += 1;
    });
    clock.time(aggregate, () => (now += 10));
    t.deepEqual([clock.ms[expand], clock.ms[aggregate], clock.ms[write]], [7, 16, 3]);
    t.is(
      clock.ms.reduce((sum, ms) => sum + ms, 0),
      now,
      'every millisecond charged once',
    );
  } finally {
    performance.now = realNow;
  }
});
