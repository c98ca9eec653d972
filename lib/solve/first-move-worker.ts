/**
 * A worker of the empty board's tests (lib/solve/first-move-workers.ts): builds the board as the
 * main thread did, up to the tests, then answers whether a first move gives at least t, one test
 * at a time, until told to stop. It blocks on Atomics.wait between tests, as the main thread does
 * between answers. Everything it does, the loading of the solver included, reports its errors
 * to the main thread, which cannot see a worker's error events while it waits.
 */

import { workerData } from 'node:worker_threads';
import { GocountError } from '../errors.js';
import type { TestMessage, WorkerMessage, WorkerSetup } from './first-move-workers.js';
import type { EmptyBoardValuer } from './retrograde.js';

const { solve, index, port, signals, current, counters } = workerData as WorkerSetup;
const post = (message: WorkerMessage): void => {
  port.postMessage(message);
  Atomics.add(signals, 0, 1);
  Atomics.notify(signals, 0);
};

/** Thrown to leave a test the main thread gave up, or the solve once told to stop. */
class Stop extends Error {}

try {
  const { receiveMessageOnPort } = await import('node:worker_threads');
  const { solveBoardWith } = await import('./solve.js');
  const receive = (): TestMessage => {
    for (;;) {
      const posted = Atomics.load(signals, 1 + index);
      const received = receiveMessageOnPort(port);
      if (received) return received.message as TestMessage;
      Atomics.wait(signals, 1 + index, posted);
    }
  };
  const serve: EmptyBoardValuer = ({ search, root, moves }) => {
    post({ ready: Array.from(moves) });
    let id = 0;
    search.onNodes = (nodes) => {
      counters[2 * index] = nodes;
      if (Atomics.load(current, index) !== id) throw new Stop();
    };
    for (;;) {
      const task = receive();
      if (task.op === 'stop') throw new Stop();
      id = task.id;
      let atLeast: boolean | undefined;
      try {
        atLeast = search.moveAtLeast(root, moves[task.move], task.t);
      } catch (error) {
        if (!(error instanceof Stop)) throw error;
      }
      counters[2 * index] = search.nodes;
      counters[2 * index + 1] = search.table?.hits ?? 0;
      post({ id, atLeast });
    }
  };
  solveBoardWith({ ...solve, emptyBoardOnly: true }, serve);
} catch (error) {
  if (!(error instanceof Stop)) {
    const known = error instanceof GocountError;
    const message = error instanceof Error ? (known ? error.message : `${error.stack ?? error.message}`) : String(error);
    post({ error: { message, exitCode: known ? error.exitCode : 1, code: known ? error.code : undefined, internal: !known } });
  }
} finally {
  port.close();
}
