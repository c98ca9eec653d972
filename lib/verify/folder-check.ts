/**
 * Checks a count's folder (the one holding count.json): every step folder, then what ties the
 * steps together. Every state has three one-point extensions (paper §5.3), so for each residue
 *   3 × (sum of step k) = (sum of step k+1) + (sum step k sent to dropped successors)   mod p,
 * and the legal states at each column boundary, summed, are the column sums the later manifests
 * and result.json carry.
 */

import path from 'node:path';
import fse from 'fs-extra';
import {
  COUNT_FILE,
  COUNT_FORMAT,
  COUNT_VERSION,
  LOCK_FILE,
  PARTITIONED_COUNT_VERSION,
  CountIdentity,
  MANIFEST_FILE,
  moduliFolderName,
  RESULT_FILE,
  resultCrc,
  stepFolderName,
  stepOfFolder,
  sweepFolderName,
} from '../format/folder-names.js';

/** The name of a sweep's folder: 9x9, 13x19. */
const SWEEP_NAME = /^\d+x\d+$/;
import type { StepManifest } from '../format/manifest.js';
import type { Problem } from './problems.js';
import { isStale, readLockHolder } from '../folder/lock.js';
import { checkStep, NO_MANIFEST, StepCheck } from './step-check.js';

export interface CountCheck {
  readonly dir: string;
  readonly identity?: CountIdentity;
  readonly steps: StepCheck[];
  readonly problems: Problem[];
}

/** `onStep` hears of each step folder once it is checked (verify's progress). */
export function checkCount(dir: string, onStep?: (step: StepCheck) => void): CountCheck {
  const problems: Problem[] = [];
  const countFile = path.join(dir, COUNT_FILE);
  const found = fse.readJsonSync(countFile, { throws: false }) as
    (CountIdentity & { format?: string; version?: number; partitions?: number }) | null;
  const versions = [COUNT_VERSION, PARTITIONED_COUNT_VERSION];
  if (found?.format !== COUNT_FORMAT || !versions.includes(found.version!) || !Array.isArray(found.moduli)) {
    problems.push({ file: countFile, problem: `not a readable ${COUNT_FORMAT} file of version ${versions.join(' or ')}` });
    return { dir, steps: [], problems };
  }
  // Version 3 of a partitioned count split its runs into a file per owner, which gocount no longer reads.
  if (found.version === COUNT_VERSION && (found.partitions ?? 1) > 1) {
    const problem = `a partitioned count of format version ${COUNT_VERSION}, this gocount reads ${PARTITIONED_COUNT_VERSION}: its steps were not checked`;
    problems.push({ file: countFile, problem });
    return { dir, steps: [], problems };
  }
  const identity: CountIdentity = { width: found.width, columns: found.columns, moduli: found.moduli };
  // A folder moved or archived on its own keeps its name but may lose its <width>x<columns> parent.
  const here = path.resolve(dir);
  const parent = path.basename(path.dirname(here));
  const named =
    path.basename(here) === moduliFolderName(identity.moduli) && (!SWEEP_NAME.test(parent) || parent === sweepFolderName(identity));
  if (!named) problems.push({ file: countFile, problem: "describes another count than its folder's name (board or moduli changed)" });
  const lockFile = path.join(dir, LOCK_FILE);
  const holder = readLockHolder(dir);
  // The lock of a count that was killed on this host is taken over by the next count: not a count running.
  if (fse.pathExistsSync(lockFile) && !(holder && isStale(holder))) {
    const who = holder ? `process ${holder.pid} on ${holder.host} since ${holder.started}` : 'a process whose lock file is unreadable';
    // Its files change while the count runs: checking them now would report changes, not damage.
    problems.push({
      file: lockFile,
      problem: `locked by ${who}: a count is running here, so its steps were not checked`,
      unfinished: true,
    });
    return { dir, identity, steps: [], problems };
  }
  const steps = fse
    .readdirSync(dir)
    .filter((name) => stepOfFolder(name) !== undefined)
    .sort()
    .map((name) => {
      const step = checkStep(path.join(dir, name), identity);
      onStep?.(step);
      return step;
    });
  const complete = steps.filter((step) => step.manifest).map((step) => step.manifest!);
  // A count writes its steps in order: a step without its manifest before a complete one lost it.
  const latest = complete.at(-1)?.step ?? -1;
  for (const step of steps) {
    const lost = (stepOfFolder(step.dir) ?? Infinity) < latest;
    problems.push(
      ...step.problems.map((problem) => (lost && problem.problem === NO_MANIFEST ? { ...problem, unfinished: false } : problem)),
    );
  }
  for (let i = 0; i + 1 < complete.length; i++) {
    const [before, after] = [complete[i], complete[i + 1]];
    if (after.step !== before.step + 1) continue;
    // A step carries the same moduli as the one before, more, or fewer (growth.ts): compare on the shared ones.
    const shared = before.moduli.slice(0, after.moduli.length);
    const broken = shared.filter((p, r) => (3 * before.sums[r]) % p !== (after.sums[r] + after.dropped[r]) % p);
    if (broken.length > 0) {
      problems.push({
        file: path.join(dir, stepFolderName(after.step)),
        problem: `conservation fails from step ${before.step}: 3 × its sum ≠ this step's sum + the dropped sum, modulo ${broken.join(', ')}`,
      });
    }
  }

  // Column sums: each manifest's list extends the one before, and boundary steps' legal states give them.
  const resultFile = path.join(dir, RESULT_FILE);
  const result = fse.pathExistsSync(resultFile)
    ? (fse.readJsonSync(resultFile, { throws: false }) as { perColumn?: number[][]; crc?: number } | null)
    : undefined;
  if (result === null) problems.push({ file: resultFile, problem: 'not readable JSON' });
  else if (result && result.crc !== resultCrc(result.perColumn))
    problems.push({ file: resultFile, problem: 'CRC-32 of its residues does not match' });
  const carried: { file: string; sums: number[][] }[] = complete.map((manifest) => ({
    file: manifestPath(dir, manifest),
    sums: manifest.columnSums,
  }));
  if (result?.perColumn) carried.push({ file: resultFile, sums: result.perColumn });
  for (let i = 0; i + 1 < carried.length; i++) {
    const [a, b] = [carried[i], carried[i + 1]];
    if (a.sums.some((sums, k) => b.sums[k]?.join() !== sums.join()))
      problems.push({ file: b.file, problem: `column sums disagree with ${a.file}` });
  }
  for (const step of steps) {
    if (!step.legal || step.problems.length > 0) continue;
    const column = step.manifest!.step / identity.width;
    const later = carried.find((c) => c.sums.length >= column);
    if (later && later.sums[column - 1].join() !== liftedResidues(step.legal, identity.moduli).join()) {
      problems.push({
        file: later.file,
        problem: `L(${identity.width},${column}) residues differ from the legal states of step ${step.manifest!.step}`,
      });
    }
  }
  return { dir, identity, steps, problems };
}

function manifestPath(dir: string, manifest: StepManifest): string {
  return path.join(dir, stepFolderName(manifest.step), MANIFEST_FILE);
}

/**
 * The residues, for every modulus of the count, of a sum given by its residues for the leading
 * moduli (exact there, being below their product): by the Chinese Remainder Theorem, in BigInt.
 */
function liftedResidues(residues: readonly number[], moduli: readonly number[]): number[] {
  let value = 0n;
  let product = 1n;
  for (let r = 0; r < residues.length; r++) {
    const p = BigInt(moduli[r]);
    // value + product·t ≡ residues[r] (mod p): t = (residues[r] − value) · product⁻¹ mod p
    let inverse = 1n;
    for (let e = p - 2n, base = product % p; e > 0n; e >>= 1n, base = (base * base) % p) if (e & 1n) inverse = (inverse * base) % p;
    const t = (((((BigInt(residues[r]) - value) % p) + p) % p) * inverse) % p;
    value += product * t;
    product *= p;
  }
  return moduli.map((p) => Number(value % BigInt(p)));
}
