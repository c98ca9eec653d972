/**
 * A worker (worker_threads): runs one WorkerRunner and answers the pass coordinator's
 * calls, { id, op, … } → { id, result } or { id, error }. The rings to and from the other workers
 * are in the shared memory of the exchange handed over in workerData (none in a partitioned count).
 */

import { parentPort, workerData } from 'node:worker_threads';
import { GocountError } from '../shared/errors.js';
import { type PeerExchange, PeerRouter } from './peer.js';
import { WorkerOptions, WorkerRunner } from './worker-runner.js';

const { options, exchange } = workerData as { options: WorkerOptions; exchange?: PeerExchange };
const port = parentPort!;
const runner = new WorkerRunner(options, exchange && new PeerRouter(options.worker, exchange));

let lastProgress = 0;
function progress(states: number): void {
  const now = Date.now();
  if (now - lastProgress < 250) return;
  lastProgress = now;
  port.postMessage({ progress: states });
}

port.on(
  'message',
  async (message: {
    id: number;
    op: string;
    step: number;
    files: string[] | null;
    toFiles: boolean;
    workers: number[];
    owners?: Uint16Array;
  }) => {
    try {
      let result: unknown;
      if (message.op === 'begin') result = await runner.begin(message.toFiles);
      else if (message.op === 'expand') result = await runner.expand(message.step, message.files, progress, message.owners);
      else if (message.op === 'finish') result = await runner.finish(message.toFiles);
      else if (message.op === 'legal') result = runner.legalSums(message.step, message.files);
      else if (message.op === 'save') result = await runner.save(message.step);
      else if (message.op === 'act-as') runner.actAs(message.workers);
      port.postMessage({ id: message.id, result });
    } catch (error) {
      const exitCode = error instanceof GocountError ? error.exitCode : 1;
      const text =
        error instanceof Error ? (error instanceof GocountError ? error.message : `${error.stack ?? error.message}`) : String(error);
      const code = error instanceof GocountError ? error.code : undefined;
      port.postMessage({ id: message.id, error: { message: text, exitCode, code, internal: !(error instanceof GocountError) } });
    }
  },
);
