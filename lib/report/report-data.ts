/**
 * What the report shows, worked out from a count's per-step log: its status, totals, its result
 * when finished, and the time left that the ETA model would have predicted after each finished
 * step, replayed over the log.
 */

import { EtaModel } from '../observe/eta.js';
import type { PassResultLine, StepLogEntry } from '../format/step-log.js';
import { joinResidues } from '../residues/crt.js';
import { LoadedLog, loadStepLog } from './load-log.js';

export type CountStatus = 'finished' | 'running' | 'stopped';

export interface ReportTotals {
  readonly steps: number;
  readonly seconds: number;
  readonly states: number;
  readonly successors: number;
  readonly recordsIn: number;
  readonly runsOut: number;
  readonly bytesOut: number;
  /** The most states a step's input held. */
  readonly peakStates: number;
}

export interface EtaPoint {
  /** The finished step, as its index over the whole count (see countStep). */
  readonly index: number;
  /** Seconds left to the end of the count, as the model predicted once this step was done. */
  readonly predicted: number;
  /** Seconds the later steps took, for a finished count. */
  readonly actual?: number;
}

export interface ReportData {
  readonly path: string;
  readonly files: readonly string[];
  readonly width: number;
  readonly columns: number;
  readonly passes: number;
  /** Steps of one pass (width × columns). */
  readonly steps: number;
  readonly entries: readonly StepLogEntry[];
  readonly status: CountStatus;
  /** Who holds the count's lock, when one is held. */
  readonly lockHolder?: string;
  readonly stepsDone: number;
  readonly stepsTotal: number;
  /** Steps before the last logged one that have no line (a crash between a step and its line). */
  readonly stepsUnlogged: number;
  readonly totals: ReportTotals;
  readonly perPass: readonly ReportTotals[];
  readonly eta: readonly EtaPoint[];
  /**
   * L(width, columns), for a finished count whose log ends each pass with its result line (logs
   * written before those lines were have none).
   */
  readonly legal?: bigint;
  /** For an unfinished count: the predicted seconds left after its last step. */
  readonly secondsLeft?: number;
  /** For a running count: when it is expected to end (a stopped one ends only once it is run again). */
  readonly expectedEnd?: string;
}

export function loadReport(target: string): ReportData {
  return reportData(loadStepLog(target));
}

/** A step's index over the whole count: step s of pass p is (p − 1) × steps + s. */
export function countStep(entry: StepLogEntry): number {
  return (entry.pass - 1) * entry.steps + entry.step;
}

/** The report of a loaded log (entries of one count, in pass and step order, at least one). */
export function reportData(log: LoadedLog): ReportData {
  const entries = log.entries;
  const last = entries[entries.length - 1];
  const { width, columns, passes, steps } = last;
  const finished = last.pass === passes && last.step === steps;
  const status: CountStatus = finished ? 'finished' : log.lock?.alive ? 'running' : 'stopped';
  const eta = replayEta(entries, finished);
  const secondsLeft = finished ? undefined : eta[eta.length - 1].predicted;
  const expectedEnd =
    status !== 'running' || secondsLeft === undefined || !Number.isFinite(secondsLeft)
      ? undefined
      : new Date(Date.parse(last.finishedAt) + secondsLeft * 1000).toISOString();
  return {
    path: log.path,
    files: log.files,
    width,
    columns,
    passes,
    steps,
    entries,
    status,
    lockHolder: log.lock?.holder,
    stepsDone: entries.length,
    stepsTotal: passes * steps,
    stepsUnlogged: countStep(last) - entries.length,
    totals: totalsOf(entries),
    perPass: Array.from({ length: passes }, (_, p) => totalsOf(entries.filter((entry) => entry.pass === p + 1))),
    eta,
    legal: finished ? joinPasses(log.results, passes) : undefined,
    secondsLeft,
    expectedEnd,
  };
}

/** The count from every pass's residues, by the CRT; undefined unless each of the passes has its line. */
function joinPasses(results: readonly PassResultLine[], passes: number): bigint | undefined {
  if (results.length !== passes || results.some((result, p) => result.pass !== p + 1)) return undefined;
  const residues = results.flatMap((result) => result.moduli.map((modulus, i) => ({ modulus, residue: result.residues[i] })));
  try {
    return joinResidues(residues);
  } catch {
    return undefined; // moduli with a common factor: not a log the engine wrote
  }
}

/**
 * The model's prediction after each step, fed the steps in the order they ran; for a finished
 * count also the truth: the seconds the remaining steps took (step time only, as the model counts).
 */
export function replayEta(entries: readonly StepLogEntry[], finished: boolean): EtaPoint[] {
  if (entries.length === 0) return [];
  const { width, steps, passes, workers } = entries[0];
  const model = new EtaModel(width, steps, passes, workers ?? 1);
  // Seconds after step i, summed from the end so the last is exactly 0.
  const after = new Array<number>(entries.length).fill(0);
  for (let i = entries.length - 2; i >= 0; i--) after[i] = after[i + 1] + entries[i + 1].seconds;
  return entries.map((entry, i) => {
    model.stepDone(entry.step - 1, entry.states, entry.seconds);
    // The next input: this step's output in this pass, or the first step of the next pass.
    const [pass, step] = entry.step < steps ? [entry.pass - 1, entry.step] : [entry.pass, 0];
    const predicted = pass >= passes ? 0 : model.secondsLeft(pass, step);
    return finished ? { index: countStep(entry), predicted, actual: after[i] } : { index: countStep(entry), predicted };
  });
}

function totalsOf(entries: readonly StepLogEntry[]): ReportTotals {
  const sum = (field: (entry: StepLogEntry) => number) => entries.reduce((total, entry) => total + field(entry), 0);
  return {
    steps: entries.length,
    seconds: sum((e) => e.seconds),
    states: sum((e) => e.states),
    successors: sum((e) => e.successors),
    recordsIn: sum((e) => e.recordsIn),
    runsOut: sum((e) => e.runsOut),
    bytesOut: sum((e) => e.bytesOut),
    peakStates: entries.reduce((peak, entry) => Math.max(peak, entry.states), 0),
  };
}
