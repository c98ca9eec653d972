// Worker 1 of a two-worker exchange, in a thread of its own, for peer.spec: for each message (a
// step's number, as the engine's coordinator would send) it sends its records of that step to
// worker 0, notes a full table if the step says so, ends the step, and posts back what it took in,
// or the error that ended the step (with failAt, its handler throws when it is called for the
// failAt-th time), and whether it was told that a table filled in the step.

import { parentPort, workerData } from 'node:worker_threads';
import { type PeerExchange, PeerRouter } from '../../lib/engine/peer.js';
import { describeRecords, peerRecords, type PeerStep } from './peer-records.js';

const { exchange, steps, failAt } = workerData as { exchange: PeerExchange; steps: PeerStep[]; failAt?: number };
const router = new PeerRouter(1, exchange);
let received: string[] = [];
let calls = 0;
let k = 0;
router.handleInbound((states, residues, from, to) => {
  if (++calls === failAt) throw new Error('no room left on the disk');
  received.push(...describeRecords(states, residues, from, to, k));
});
parentPort!.on('message', (s: number) => {
  const step = steps[s];
  k = step.k;
  received = [];
  router.beginStep(k);
  const { states, residues } = peerRecords(s, 1, step.sends[1], k);
  router.send(0, states, residues, step.sends[1]);
  if (step.fills?.includes(1)) router.noteFull(s);
  try {
    router.endStep();
    parentPort!.postMessage({ received, filled: router.filledIn(s) });
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message, filled: router.filledIn(s) });
  }
});
