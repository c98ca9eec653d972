/**
 * The per-step log: one JSON line per finished step, appended to steps.jsonl in the count folder
 * (and, with --stats-json, copied whole to a file that outlives the folder). A step is numbered by
 * the points placed once it is done, 1 … width × columns, as the progress bar and --stats number it.
 *
 * A line is appended after the step's manifest, so a crash can leave a step unlogged or a last line
 * cut short, never a logged step that was not complete; readers skip an unparsable line and keep
 * the latest line of a step that a resume ran twice.
 */

import { appendFileSync, readFileSync } from 'node:fs';
import type { Phase } from '../engine/phase-clock.js';

export const STEP_LOG_FILE = 'steps.jsonl';
/** The `format` field of every line. */
export const STEP_LOG_FORMAT = 'gocount-step';
export const STEP_LOG_VERSION = 1;

export interface StepLogEntry {
  readonly format: typeof STEP_LOG_FORMAT;
  readonly version: number;
  readonly width: number;
  readonly columns: number;
  /** 1-based, of `passes`. */
  readonly pass: number;
  readonly passes: number;
  /** 1-based: the points placed once this step is done; a pass has width × columns steps. */
  readonly step: number;
  readonly steps: number;
  /** Distinct input states of the step, and records read for them from `runsIn` run files. */
  readonly states: number;
  readonly recordsIn: number;
  readonly runsIn: number;
  /** Records read per distinct state (1 when the states came from memory). */
  readonly redundancy: number;
  readonly successors: number;
  /** Run files written and their bytes (0 when the step's output stayed in memory). */
  readonly runsOut: number;
  readonly bytesOut: number;
  /** Wall time of the step. */
  readonly seconds: number;
  /** Thread nanoseconds per input state in each phase (the cost model). */
  readonly nsPerState: Record<Phase, number>;
  /** When the step finished, ISO 8601. */
  readonly finishedAt: string;
}

export function appendStepLog(file: string, entry: StepLogEntry): void {
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/** The lines of step-log text that parse as entries, the latest of each step, in pass and step order. */
export function parseStepLog(text: string): StepLogEntry[] {
  const byStep = new Map<string, StepLogEntry>();
  for (const line of text.split('\n')) {
    const entry = parseLine(line);
    if (entry) byStep.set(`${entry.pass}:${entry.step}`, entry);
  }
  return [...byStep.values()].sort((a, b) => a.pass - b.pass || a.step - b.step);
}

export function readStepLog(file: string): StepLogEntry[] {
  return parseStepLog(readFileSync(file, 'utf8'));
}

export function formatStepLog(entries: readonly StepLogEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}

function parseLine(line: string): StepLogEntry | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined; // a line cut short by a crash
  }
  const entry = value as Partial<StepLogEntry> | null;
  if (entry?.format !== STEP_LOG_FORMAT || entry.version !== STEP_LOG_VERSION) return undefined;
  const whole = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  const fields = [entry.width, entry.columns, entry.pass, entry.passes, entry.step, entry.steps, entry.states];
  return fields.every(whole) && typeof entry.seconds === 'number' ? (entry as StepLogEntry) : undefined;
}
