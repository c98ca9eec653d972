// Records for peer.spec: those worker `sender` sends in a step, and the records a handler took in,
// each as "hi lo residues…", so that two lists compare exactly.

export interface PeerStep {
  /** Residues a record carries. */
  readonly k: number;
  /** Records each worker sends to the other. */
  readonly sends: readonly number[];
  /** The workers whose tables fill in the step: each tells the others (noteFull) before it ends the step. */
  readonly fills?: readonly number[];
}

export function peerRecords(step: number, sender: number, n: number, k: number): { states: Uint32Array; residues: Uint32Array } {
  const states = new Uint32Array(2 * n);
  const residues = new Uint32Array(k * n);
  for (let i = 0; i < n; i++) {
    states[2 * i] = step;
    states[2 * i + 1] = sender * 100_000 + i;
    for (let r = 0; r < k; r++) residues[k * i + r] = 1000 * step + 10 * i + r;
  }
  return { states, residues };
}

export function describeRecords(states: Uint32Array, residues: Uint32Array, from: number, to: number, k: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) out.push([states[2 * i], states[2 * i + 1], ...residues.subarray(k * i, k * i + k)].join(' '));
  return out;
}
