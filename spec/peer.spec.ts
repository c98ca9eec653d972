import test from 'ava';
import { MessageChannel } from 'node:worker_threads';
import { PeerLink } from '../lib/engine/peer.js';

test('a batch for a step the receiver has not begun waits for beginStep, and ends are kept per step', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const sender = new PeerLink(port1, 1, 2);
  const receiver = new PeerLink(port2, 1, 2);
  const received: number[] = [];
  receiver.handleInbound((states, residues, size) => {
    for (let i = 0; i < size; i++) received.push(states[2 * i + 1] * 1000 + residues[i]);
  });
  sender.beginStep(5);
  const states = Uint32Array.from([0, 7, 0, 8, 0, 9]);
  const residues = Uint32Array.from([1, 2, 3]);
  for (let i = 0; i < 3; i++) sender.queueRecord(states[2 * i], states[2 * i + 1], residues, i);
  await sender.end(5);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.deepEqual(received, [], 'held while the receiver is before step 5');
  receiver.beginStep(5);
  await receiver.peerEnded(5);
  t.deepEqual(received, [7001, 8002, 9003]);
  sender.close();
  receiver.close();
});

test('poll takes in a sent batch at once, and its acknowledgement returns the credit', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const sender = new PeerLink(port1, 1, 1);
  const receiver = new PeerLink(port2, 1, 1);
  const received: number[] = [];
  receiver.handleInbound((states, residues, size) => {
    for (let i = 0; i < size; i++) received.push(states[2 * i + 1] * 1000 + residues[i]);
  });
  sender.beginStep(0);
  receiver.beginStep(0);
  // Capacity 1: each record is a batch; five fill the four credits and queue one.
  for (let i = 0; i < 5; i++) sender.queueRecord(0, i, Uint32Array.of(i + 1), 0);
  t.deepEqual(received, [], 'nothing before a poll or an event-loop turn');
  receiver.poll();
  t.deepEqual(received, [1, 1002, 2003, 3004], 'the four batches in flight, synchronously');
  sender.poll();
  receiver.poll();
  t.deepEqual(received, [1, 1002, 2003, 3004, 4005], 'the acknowledgements freed credit for the fifth');
  await sender.ready();
  sender.close();
  receiver.close();
});
