/**
 * Decodes and checks a stream of run records — a run file's records, or one owner's section of a
 * split run — with the `varint` package, sharing no decoding with the engine's readers: strictly
 * increasing states, each a valid border state for its step (and, where given, owned by the
 * right worker), residues below their moduli. It sums the residues, and at a column boundary those
 * of the legal final states. Also the header checks both kinds of run file share.
 *
 * Independent on purpose: the engine's encoders and decoders (lib/engine/record-codec.as.ts,
 * lib/format/varint.ts) would otherwise judge their own output, and a fault common to both
 * sides of one codec would pass its own check.
 */

import varint from 'varint';
import type { RunHeader } from '../format/layout.js';
import { isLegalFinal } from '../border/border.js';
import { HIGH_UNIT, MAX_WIDTH } from '../border/layout.js';
import { counted } from '../shared/plural.js';
import type { StateCheck } from './state-check.js';

/** What the run should be, when its step folder says so. */
export interface RunExpectation {
  readonly width: number;
  readonly columns: number;
  readonly step: number;
  readonly moduli: readonly number[];
}

/** next()'s answers when a record cannot be decoded: nothing of it is counted. */
export const DAMAGED_VARINT = -1;
export const CUT_SHORT = -2;

export class RecordStream {
  /** Records decoded so far. */
  records = 0;
  readonly sums: number[];
  private hi = 0;
  private lo = 0;

  /** `ownerProblem` adds a check of each state's owner. */
  constructor(
    private readonly moduli: readonly number[],
    private readonly states: StateCheck,
    private readonly legal: number[] | undefined,
    private readonly ownerProblem?: (hi: number, lo: number) => string | undefined,
  ) {
    this.sums = moduli.map(() => 0);
  }

  /**
   * Decodes the record at bytes[pos], telling `report` what is wrong with it (before it is counted);
   * returns the position after it, or DAMAGED_VARINT or CUT_SHORT (its residues pass the end).
   */
  next(bytes: Buffer, pos: number, report: (problem: string) => void): number {
    const { moduli, sums, legal } = this;
    const k = moduli.length;
    let at = pos;
    let a: number;
    let d = 0;
    try {
      a = varint.decode(bytes, at);
      at += varint.decode.bytes!;
      if (a % 2 === 1) {
        d = varint.decode(bytes, at);
        at += varint.decode.bytes!;
      }
    } catch {
      return DAMAGED_VARINT;
    }
    if (at + 4 * k > bytes.length) return CUT_SHORT;
    const { hi, lo } = this;
    const nextHi = a % 2 === 1 ? hi + d : hi;
    const nextLo = a % 2 === 1 ? (a - 1) / 2 : lo + a / 2;
    if (this.records > 0 && !(nextHi > hi || (nextHi === hi && nextLo > lo))) report('state is not above the one before');
    this.hi = nextHi;
    this.lo = nextLo;
    if (nextHi >= HIGH_UNIT || nextLo >= HIGH_UNIT) report('state is out of range');
    else {
      const problem = this.states.problem(nextHi, nextLo) ?? this.ownerProblem?.(nextHi, nextLo);
      if (problem) report(problem);
    }
    const isLegal = legal !== undefined && isLegalFinal(nextHi, nextLo);
    for (let r = 0; r < k; r++) {
      const residue = bytes.readUInt32LE(at + 4 * r);
      if (residue >= moduli[r]) report(`residue ${residue} is not below its modulus ${moduli[r]}`);
      sums[r] = (sums[r] + residue) % moduli[r];
      if (isLegal) legal[r] = (legal[r] + residue) % moduli[r];
    }
    this.records++;
    return at + 4 * k;
  }
}

/**
 * What is wrong with a run's header: `usable` is false for a board or step that cannot be, which
 * leaves nothing else to check; `problems` also names every field that differs from `expect`.
 */
export function headerProblems(header: RunHeader, expect?: RunExpectation): { usable: boolean; problems: string[] } {
  if (header.width < 1 || header.width > MAX_WIDTH || header.columns < 1)
    return { usable: false, problems: [`header gives an impossible board: ${header.width} wide, ${counted(header.columns, 'column')}`] };
  if (header.step > header.width * header.columns)
    return { usable: false, problems: [`header gives step ${header.step}, past the board's ${header.width * header.columns} points`] };
  if (!expect) return { usable: true, problems: [] };
  const wrong: string[] = [];
  if (header.width !== expect.width || header.columns !== expect.columns)
    wrong.push(`a ${header.width}-wide sweep of ${counted(header.columns, 'column')}, not ${expect.width} of ${expect.columns}`);
  if (header.step !== expect.step) wrong.push(`step ${header.step}, not ${expect.step}`);
  if (header.moduli.join() !== expect.moduli.join()) wrong.push(`moduli ${header.moduli.join(', ')}, not ${expect.moduli.join(', ')}`);
  return { usable: true, problems: wrong.map((what) => `header gives ${what}`) };
}
