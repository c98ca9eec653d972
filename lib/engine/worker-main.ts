/**
 * A worker (worker_threads): runs one WorkerRunner and answers the pass coordinator's
 * calls, { id, op, … } → { id, result } or { id, error }. Its peer links are MessagePorts to every
 * other worker, handed over in workerData (null at its own index).
 */

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { GocountError } from '../errors.js';
import { PeerLink, PeerRouter } from './peer.js';
import { WorkerOptions, WorkerRunner } from './worker-runner.js';
import { MAX_SUCCESSORS } from '../state/border.js';

const { options, peerPorts } = workerData as { options: WorkerOptions; peerPorts: Array<MessagePort | null> };
const port = parentPort!;
const links = peerPorts.map((peerPort) =>
  peerPort ? new PeerLink(peerPort, options.moduli.length, MAX_SUCCESSORS * options.plan.batchRecords) : undefined,
);
const runner = new WorkerRunner(options, options.partitioned ? undefined : new PeerRouter(options.worker, links));

let lastProgress = 0;
function progress(states: number): void {
  const now = Date.now();
  if (now - lastProgress < 250) return;
  lastProgress = now;
  port.postMessage({ progress: states });
}

port.on('message', async (message: { id: number; op: string; step: number; files: string[] | null; toFiles: boolean; workers: number[] }) => {
  try {
    let result: unknown;
    if (message.op === 'begin') result = runner.begin(message.toFiles);
    else if (message.op === 'expand') result = await runner.expand(message.step, message.files, progress);
    else if (message.op === 'finish') result = runner.finish(message.toFiles);
    else if (message.op === 'legal') result = runner.legalSums(message.step, message.files);
    else if (message.op === 'act-as') runner.actAs(message.workers);
    port.postMessage({ id: message.id, result });
  } catch (error) {
    const exitCode = error instanceof GocountError ? error.exitCode : 1;
    const text =
      error instanceof Error ? (error instanceof GocountError ? error.message : `${error.stack ?? error.message}`) : String(error);
    port.postMessage({ id: message.id, error: { message: text, exitCode, internal: !(error instanceof GocountError) } });
  }
});
