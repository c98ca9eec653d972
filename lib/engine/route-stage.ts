/**
 * With several partitions: keeps the successors this partition owns (compacted in place in the
 * batch) and queues the rest for the peer, waiting for credit when the link is full.
 */

import through2 from 'through2';
import type { Batch } from './batch.js';
import { ownerOf, PeerLink } from './peer.js';
import type { PhaseClock } from './phase-clock.js';

export function routeTransform(partition: number, partitions: number, peer: PeerLink, residueCount: number, clock: PhaseClock, phase: number) {
  return through2.obj({ highWaterMark: 2 }, function (batch: Batch, _encoding, done) {
    const started = performance.now();
    const { states, residues } = batch;
    const k = residueCount;
    let kept = 0;
    for (let i = 0; i < batch.size; i++) {
      if (ownerOf(states[2 * i], states[2 * i + 1], partitions) !== partition) {
        peer.queue(states, residues, i);
        continue;
      }
      if (kept !== i) {
        states[2 * kept] = states[2 * i];
        states[2 * kept + 1] = states[2 * i + 1];
        for (let r = 0; r < k; r++) residues[kept * k + r] = residues[i * k + r];
      }
      kept++;
    }
    batch.size = kept;
    clock.add(phase, performance.now() - started);
    peer.ready().then(() => done(null, batch), done);
  });
}
