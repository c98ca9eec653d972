/**
 * A step's manifest: the run files that hold the states after `step` points, their totals, and
 * the residues the step before sent to dropped successors. A step is complete exactly when its
 * manifest exists; it is written under a temporary name and renamed.
 */

import { RunFileError } from '../shared/errors.js';
import { readCheckedJson, writeCheckedJson } from './checked-json.js';
import type { RunSummary } from './run-writer.js';
import { sumResidueVectors } from '../residues/sums.js';

export const MANIFEST_FORMAT = 'gocount-step';
/**
 * 2: the worker count, the column sums so far and a CRC were added. 3: a step carries only the
 * leading moduli its counts need (moduli), and countModuli lists them all. 4: `partitions` became
 * `workers`, and each run's `partition` its `worker`; `partitions` now counts the tasks of a
 * partitioned count, whose runs also name the worker that wrote them (`source`).
 */
export const MANIFEST_VERSION = 4;

export interface StepManifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly version: number;
  readonly width: number;
  readonly columns: number;
  readonly step: number;
  /** The moduli this step's records carry residues for: a prefix of countModuli. */
  readonly moduli: number[];
  /** Every modulus of the pass; the column sums are given for all of them. */
  readonly countModuli: number[];
  /** Workers per partition; each run names the worker whose states it holds, from 0 to partitions × workers − 1. */
  readonly workers: number;
  /** Partition tasks (lib/cluster), each with its workers: 1 for a count in one process. */
  readonly partitions: number;
  readonly runs: RunSummary[];
  readonly records: number;
  /** Per residue: the sum over all runs of this step. */
  readonly sums: number[];
  readonly bytes: number;
  /** Per residue of this step: what the step before sent to successors it dropped (zeros at step 0). */
  readonly dropped: number[];
  /** columnSums[k − 1]: L(width, k) per modulus of countModuli, for the columns finished before this step. */
  readonly columnSums: number[][];
  /**
   * A partitioned count: the window the step's states are expanded in (lib/border/window-key.ts),
   * its rows, and each key bucket's owner, the u16 table in base64 (window-owners.ts); absent in
   * folders of earlier versions, whose tasks then deal the buckets out in turn.
   */
  readonly window?: ManifestWindow;
  /**
   * A partitioned count inside a window: the states its tasks kept in memory instead of writing
   * (lib/cluster/task.ts), each worker's record count and residue sums as its task gives them. The
   * manifest's records and sums include them; absent when every state is in the runs.
   */
  readonly held?: HeldStates[];
  /** CRC-32 of the manifest's JSON without this field. */
  readonly crc?: number;
}

/** One worker's states of a step that its task holds in memory: how many, and their residue sums. */
export interface HeldStates {
  readonly worker: number;
  readonly records: number;
  readonly sums: number[];
}

export interface ManifestWindow {
  readonly rows: number;
  readonly owners: string;
}

export function buildManifest(
  identity: {
    width: number;
    columns: number;
    step: number;
    moduli: readonly number[];
    countModuli: readonly number[];
    workers: number;
    partitions: number;
  },
  runs: RunSummary[],
  dropped: ArrayLike<number>,
  columnSums: number[][],
  window?: ManifestWindow,
  held: HeldStates[] = [],
): StepManifest {
  const { moduli } = identity;
  const sums = sumResidueVectors(
    moduli,
    [...runs, ...held].map((part) => part.sums),
  );
  return {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    width: identity.width,
    columns: identity.columns,
    step: identity.step,
    moduli: [...moduli],
    countModuli: [...identity.countModuli],
    workers: identity.workers,
    partitions: identity.partitions,
    runs,
    records: [...runs, ...held].reduce((n, part) => n + part.records, 0),
    sums,
    bytes: runs.reduce((n, run) => n + run.bytes, 0),
    dropped: Array.from(dropped),
    columnSums: columnSums.map((sums) => [...sums]),
    ...(window ? { window } : {}),
    ...(held.length > 0 ? { held } : {}),
  };
}

export function writeManifest(path: string, manifest: StepManifest): void {
  writeCheckedJson(path, manifest);
}

export function readManifest(path: string): StepManifest {
  const manifest = readCheckedJson<StepManifest>(path, MANIFEST_FORMAT, MANIFEST_VERSION, 'manifest');
  const problem = shapeProblem(manifest);
  if (problem) throw new RunFileError(path, problem);
  return manifest;
}

/** What is missing or malformed in a manifest whose CRC matched (one written by a faulty program). */
function shapeProblem(manifest: StepManifest): string | undefined {
  const integer = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  const residuesFor = (moduli: number[]) => (x: unknown) =>
    Array.isArray(x) && x.length === moduli.length && x.every((r, i) => integer(r) && r < moduli[i]);
  const residues = residuesFor(manifest.moduli);
  if (!Array.isArray(manifest.countModuli) || manifest.countModuli.length === 0 || !manifest.countModuli.every(integer))
    return 'moduli missing';
  if (
    !Array.isArray(manifest.moduli) ||
    manifest.moduli.length === 0 ||
    manifest.moduli.join() !== manifest.countModuli.slice(0, manifest.moduli.length).join()
  )
    return 'moduli missing';
  if (
    ![manifest.width, manifest.columns, manifest.step, manifest.records, manifest.bytes, manifest.workers, manifest.partitions].every(
      integer,
    )
  )
    return 'a count is missing';
  if (!residues(manifest.sums) || !residues(manifest.dropped)) return 'residue sums missing';
  if (!Array.isArray(manifest.columnSums) || !manifest.columnSums.every(residuesFor(manifest.countModuli))) return 'column sums missing';
  // A run of one worker's states names it; a split run (worker undefined) names the worker that wrote it.
  const runOk = (run: RunSummary) =>
    typeof run?.file === 'string' &&
    integer(run.records) &&
    integer(run.bytes) &&
    integer(run.crc) &&
    (run.worker === undefined ? integer(run.source) : integer(run.worker) && run.worker < manifest.workers * manifest.partitions) &&
    (run.source === undefined || integer(run.source)) &&
    residues(run.sums);
  if (!Array.isArray(manifest.runs) || !manifest.runs.every(runOk)) return 'run list malformed';
  const owners = manifest.workers * manifest.partitions;
  const heldOk = (part: HeldStates) => integer(part?.worker) && part.worker < owners && integer(part.records) && residues(part.sums);
  if (manifest.held !== undefined && !(Array.isArray(manifest.held) && manifest.held.every(heldOk))) return 'held states malformed';
  const { window } = manifest;
  if (
    window !== undefined &&
    !(integer(window.rows) && window.rows >= 1 && window.rows <= Math.max(1, manifest.width - 1) && typeof window.owners === 'string')
  )
    return 'window malformed';
  return undefined;
}
