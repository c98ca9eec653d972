import test from 'ava';
import { Worker } from 'node:worker_threads';
import { planMemory } from '../../lib/engine/budget.js';
import { peerExchange, PeerRouter } from '../../lib/engine/peer.js';
import { describeRecords, peerRecords, type PeerStep } from '../support/peer-records.js';

// Batches of one record between two workers: rings of 16 records of 3 residues (one slot stays
// empty), more of fewer residues.
const tinyExchange = () => peerExchange(2, { batchRecords: 1, ringBytes: 0 }, 3);

test('poll takes in a ring of 16 records once it holds 9: 5 wait, 10 and then 12 come in order with their residues, the 12 across its end', (t) => {
  const exchange = tinyExchange();
  t.is(exchange.ringRecords, 17);
  const sender = new PeerRouter(0, exchange);
  const receiver = new PeerRouter(1, exchange);
  const taken: string[] = [];
  const calls: Array<[number, number]> = [];
  receiver.handleInbound((states, residues, from, to) => {
    calls.push([from, to]);
    taken.push(...describeRecords(states, residues, from, to, 3));
  });
  sender.beginStep(3);
  receiver.beginStep(3);
  const { states, residues } = peerRecords(0, 0, 22, 3);
  sender.send(1, states, residues, 5);
  receiver.poll();
  t.deepEqual(taken, [], 'not while the ring is less than half full');
  sender.send(1, states.subarray(10), residues.subarray(15), 5);
  t.deepEqual(taken, [], 'nothing before a poll');
  receiver.poll();
  sender.send(1, states.subarray(20), residues.subarray(30), 12);
  receiver.poll();
  t.deepEqual(calls, [
    [0, 10],
    [10, 17],
    [0, 5],
  ]);
  t.deepEqual(taken, describeRecords(states, residues, 0, 22, 3));
  t.is(taken[21], '0 21 210 211 212');
});

test("the rings of 16 workers take 15 times the memory of 2 workers' rings, not 120 times", (t) => {
  const bytes = (workers: number) => peerExchange(workers, { batchRecords: 4096, ringBytes: 0 }, 6).data.byteLength;
  t.deepEqual([bytes(2), bytes(4), bytes(16)], [2 * 24577 * 32, 12 * 12289 * 32, 240 * 3073 * 32]);
  t.is(Math.round(bytes(16) / bytes(2)), 15);
});

test("where a table can fill mid-step, a worker's rings in take half the sort keys' unused share, at most 64 MiB, and the table keeps its size", (t) => {
  const MiB = 2 ** 20;
  // 13×13 at --memory 512M: 3,906,425 slots a worker, as without the rings; rings of 15.6 MiB.
  const plan13 = planMemory(512 * MiB, 9, 64, 13, 2);
  t.true(plan13.mayOverflow);
  t.is(plan13.tableCapacity, 3906425);
  t.is(plan13.ringBytes, Math.floor((3906425 * 0.7 * 12) / 2));
  const exchange = peerExchange(2, plan13, 9);
  t.is(exchange.ringRecords, Math.floor(plan13.ringBytes / 44) + 1);
  t.is(exchange.data.byteLength, 2 * 4 * 11 * exchange.ringRecords, 'two rings of 11 words a record: each worker its ringBytes');
  // Four workers: each worker's three rings in share its ringBytes.
  const plan4 = planMemory(1024 * MiB, 9, 64, 13, 4);
  t.is(peerExchange(4, plan4, 9).ringRecords, Math.floor(plan4.ringBytes / 3 / 44) + 1);
  // 14×14 at --memory 20G: 164,519,632 slots, rings at their most.
  const plan14 = planMemory(20 * 1024 * MiB, 10, 64, 14, 2);
  t.deepEqual([plan14.tableCapacity, plan14.ringBytes], [164519632, 64 * MiB]);
});

test('a table that holds every step, one worker and a partitioned count take no rings beyond a few batches', (t) => {
  const MiB = 2 ** 20;
  const inMemory = planMemory(16 * 1024 * MiB, 9, 64, 13, 2);
  t.false(inMemory.mayOverflow);
  t.is(inMemory.ringBytes, 0);
  t.is(planMemory(512 * MiB, 9, 64, 13, 1).ringBytes, 0);
  t.is(planMemory(512 * MiB, 9, 64, 13, 2, { owners: 4 }).ringBytes, 0);
  t.is(peerExchange(2, inMemory, 9).ringRecords, (4 * 3 * 4096) / 2 + 1);
});

/**
 * Runs `steps` between this thread (worker 0) and a thread of its own (worker 1), each step begun
 * once both ended the one before, as the engine's coordinator does; what each took in, step by step.
 */
async function exchangeSteps(
  steps: PeerStep[],
  failAt?: number,
): Promise<{ here: string[][]; there: Array<{ received?: string[]; error?: string }>; filled: boolean[][] }> {
  const exchange = tinyExchange();
  const thread = new Worker(new URL('../support/peer-thread.js', import.meta.url), { workerData: { exchange, steps, failAt } });
  const there: Array<{ received?: string[]; error?: string }> = [];
  const filled: boolean[][] = [];
  let answered = () => {};
  thread.on('message', ({ filled: filledThere, ...message }: { received?: string[]; error?: string; filled: boolean }) => {
    there.push(message);
    filled.at(-1)!.push(filledThere);
    answered();
  });
  const router = new PeerRouter(0, exchange);
  const here: string[][] = [];
  let k = 0;
  router.handleInbound((states, residues, from, to) => here.at(-1)!.push(...describeRecords(states, residues, from, to, k)));
  for (const [s, step] of steps.entries()) {
    const answer = new Promise<void>((resolve) => (answered = resolve));
    thread.postMessage(s);
    k = step.k;
    here.push([]);
    router.beginStep(k);
    const { states, residues } = peerRecords(s, 0, step.sends[0], k);
    router.send(1, states, residues, step.sends[0]);
    if (step.fills?.includes(0)) router.noteFull(s);
    router.endStep();
    filled.push([router.filledIn(s)]);
    await answer;
  }
  await thread.terminate();
  return { here, there, filled };
}

const sent = (step: number, sender: number, n: number, k: number) => {
  const { states, residues } = peerRecords(step, sender, n, k);
  return describeRecords(states, residues, 0, n, k);
};

test('senders whose rings fill wait for their receivers; over steps of 1, 3 and 2 residues every record arrives once, in order', async (t) => {
  const steps: PeerStep[] = [
    { k: 1, sends: [1000, 700] },
    { k: 3, sends: [50, 0] },
    { k: 2, sends: [0, 300] },
  ];
  const { here, there } = await exchangeSteps(steps);
  t.deepEqual(
    here,
    steps.map((step, s) => sent(s, 1, step.sends[1], step.k)),
  );
  t.deepEqual(
    there,
    steps.map((step, s) => ({ received: sent(s, 0, step.sends[0], step.k) })),
  );
  t.is(here[0][699], '0 100699 6990');
});

test('a worker that fails to take records in drops the rest, so that its sender ends the step, and ends its own with the error', async (t) => {
  const { here, there } = await exchangeSteps([{ k: 1, sends: [1000, 5] }], 3);
  t.deepEqual(here, [sent(0, 1, 5, 1)]);
  t.deepEqual(there, [{ error: 'no room left on the disk' }]);
});

test('a table that fills in a step is known to every worker once it has ended that step, and only in that step', async (t) => {
  const steps: PeerStep[] = [
    { k: 2, sends: [300, 200], fills: [0] },
    { k: 2, sends: [10, 10] },
    { k: 2, sends: [200, 300], fills: [1] },
    { k: 2, sends: [5, 0], fills: [0, 1] },
    { k: 2, sends: [0, 0] },
  ];
  const { filled } = await exchangeSteps(steps);
  t.deepEqual(filled, [
    [true, true],
    [false, false],
    [true, true],
    [true, true],
    [false, false],
  ]);
});
