// The step pipeline a worker keeps for a whole pass: each step's batches reach its end before the
// step is done, steps follow one another through the same streams, and a failed stage fails the
// step under way and closes the pipeline.
import test from 'ava';
import through2 from 'through2';
import { Batch, STEP_END } from '../../lib/engine/batch.js';
import { StepFlow } from '../../lib/engine/step-flow.js';

const batches = (sizes: number[]) =>
  sizes.map((size) => new Batch(size, 1, { states: new Uint32Array(2 * size), residues: new Uint32Array(size), size }));

/** A stage that records the sizes it sees and passes everything on; it fails on a batch of `failOn` states. */
function recorder(seen: number[], failOn = -1) {
  return through2.obj({ highWaterMark: 2 }, function (batch: Batch, _encoding, done) {
    if (batch === STEP_END) return done(null, batch);
    if (batch.size === failOn) return done(new Error(`stage failed on ${failOn}`));
    seen.push(batch.size);
    done(null, batch);
  });
}

test('every batch of a step passes both stages before the step is done, step after step through the same pipeline', async (t) => {
  const first: number[] = [];
  const second: number[] = [];
  const flow = new StepFlow(recorder(first), recorder(second));
  await flow.run(batches([1, 2, 3, 4, 5]));
  t.deepEqual(second, [1, 2, 3, 4, 5]);
  await flow.run(batches([]));
  await flow.run(batches([6, 7]));
  t.deepEqual(first, [1, 2, 3, 4, 5, 6, 7]);
  t.deepEqual(second, [1, 2, 3, 4, 5, 6, 7]);
  t.true(flow.open);
});

test('a failed stage fails the step under way and every later one, and the pipeline is no longer open', async (t) => {
  const flow = new StepFlow(recorder([]), recorder([], 3));
  await flow.run(batches([1, 2]));
  await t.throwsAsync(flow.run(batches([1, 3, 4])), { message: 'stage failed on 3' });
  t.false(flow.open);
  await t.throwsAsync(flow.run(batches([1])), { message: 'stage failed on 3' });
});

test('a source that throws fails the step', async (t) => {
  const flow = new StepFlow(recorder([]), recorder([]));
  function* failing(): Generator<Batch> {
    yield batches([1])[0];
    throw new Error('run file damaged');
  }
  await t.throwsAsync(flow.run(failing()), { message: 'run file damaged' });
  t.false(flow.open);
});
