/**
 * The per-step log: one JSON line per finished step, appended to steps.jsonl in the count folder
 * (and, with --stats-json, copied whole to a file that outlives the folder). A step is numbered by
 * the points placed once it is done, 1 … width × columns, as the progress bar and --stats number it.
 *
 * A line is appended after the step's manifest, so a crash can leave a step unlogged or a last line
 * cut short, never a logged step that was not complete; readers skip an unparsable line and keep
 * the latest line of a step that a resume ran twice. The library's parseStepLog and readStepLog
 * refuse a text with no step-log line at all (a last line cut short aside): it is not a step log.
 *
 * A finished pass ends its log with one more line, of another format: the count of the whole board
 * modulo each of the pass's moduli, so that a log (a --stats-json file above all, which outlives
 * the count folders) holds the count's result. Readers of steps pass over it.
 */

import { appendFileSync, readFileSync } from 'node:fs';
import { stringArgument } from '../shared/arguments.js';
import { systemProblem, UsageError } from '../shared/errors.js';

/** The phases of a step whose thread time a line gives per state: the cost model's (the engine's PhaseClock times them). */
export const PHASES = ['read', 'expand', 'aggregate', 'sort', 'write', 'drain'] as const;
export type Phase = (typeof PHASES)[number];

export const STEP_LOG_FILE = 'steps.jsonl';
/** The `format` field of every line. */
export const STEP_LOG_FORMAT = 'gocount-step';
export const STEP_LOG_VERSION = 1;
/** The `format` field of a pass's result line. */
export const PASS_RESULT_FORMAT = 'gocount-result';
export const PASS_RESULT_VERSION = 1;

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
  /** The threads that share the states (a partitioned count's tasks' in all); absent in older logs. */
  readonly workers?: number;
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
  /**
   * With several worker threads: records sent to another thread (at a window's first step), and
   * the busiest thread's input states over the mean. Absent in older logs and partitioned counts.
   */
  readonly moved?: number;
  readonly busiest?: number;
  /** When the step finished, ISO 8601. */
  readonly finishedAt: string;
}

/** The line a finished pass ends its log with. */
export interface PassResultLine {
  readonly format: typeof PASS_RESULT_FORMAT;
  readonly version: number;
  readonly width: number;
  readonly columns: number;
  /** 1-based, of `passes`. */
  readonly pass: number;
  readonly passes: number;
  readonly moduli: number[];
  /** L(width, columns) modulo each of `moduli`. */
  readonly residues: number[];
}

export function appendStepLog(file: string, entry: StepLogEntry | PassResultLine): void {
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/** The lines of step-log text that parse as entries, the latest of each step, in pass and step order. */
export function stepLogEntries(text: string): StepLogEntry[] {
  const byStep = new Map<string, StepLogEntry>();
  for (const line of text.split('\n')) {
    const entry = parseLine(line);
    if (entry) byStep.set(`${entry.pass}:${entry.step}`, entry);
  }
  return [...byStep.values()].sort((a, b) => a.pass - b.pass || a.step - b.step);
}

/** The entries of a step log's file, as stepLogEntries finds them. */
export function readStepLogEntries(file: string): StepLogEntry[] {
  return stepLogEntries(readFileSync(file, 'utf8'));
}

/**
 * The entries of a step log's text, as stepLogEntries finds them; a text with content but no
 * entry is refused, unless that content is a first line cut short by a crash.
 */
export function parseStepLog(text: string): StepLogEntry[] {
  return logEntries(stringArgument('text', text), 'the text');
}

/** parseStepLog of a file, refused with the file named. */
export function readStepLog(file: string): StepLogEntry[] {
  let text: string;
  try {
    text = readFileSync(stringArgument('file', file), 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file}: cannot be read: ${systemProblem(error)}`);
  }
  return logEntries(text, file);
}

/** stepLogEntries, or a UsageError when the text has content but no entry; `what` names the text. */
function logEntries(text: string, what: string): StepLogEntry[] {
  const entries = stepLogEntries(text);
  if (entries.length === 0 && !blankOrCutShort(text))
    throw new UsageError(`${what}: not a gocount step log (no line of format ${STEP_LOG_FORMAT})`);
  return entries;
}

/** How every line of a step log starts: the first line of a log cut short by a crash starts as a prefix of it. */
const LINE_START = `{"format":"${STEP_LOG_FORMAT}"`;

/** Whether a text without entries is empty, or only the start of a first line that a crash cut short. */
function blankOrCutShort(text: string): boolean {
  const content = text.trim();
  return (
    content === '' ||
    (!text.endsWith('\n') && !content.includes('\n') && (LINE_START.startsWith(content) || content.startsWith(LINE_START)))
  );
}

/** The result lines of step-log text that parse, the latest of each pass, in pass order. */
export function parsePassResults(text: string): PassResultLine[] {
  const byPass = new Map<number, PassResultLine>();
  for (const line of text.split('\n')) {
    const result = parseResultLine(line);
    if (result) byPass.set(result.pass, result);
  }
  return [...byPass.values()].sort((a, b) => a.pass - b.pass);
}

export function formatStepLog(entries: readonly (StepLogEntry | PassResultLine)[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}

function parseJson(line: string): unknown {
  if (line.trim() === '') return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined; // a line cut short by a crash
  }
}

function parseResultLine(line: string): PassResultLine | undefined {
  const result = parseJson(line) as Partial<PassResultLine> | null | undefined;
  if (result?.format !== PASS_RESULT_FORMAT || result.version !== PASS_RESULT_VERSION) return undefined;
  const { moduli, residues } = result;
  const counts = [result.width, result.columns, result.pass, result.passes].every((x) => Number.isSafeInteger(x) && (x as number) >= 1);
  const valid =
    counts &&
    Array.isArray(moduli) &&
    Array.isArray(residues) &&
    moduli.length > 0 &&
    residues.length === moduli.length &&
    moduli.every((m, i) => Number.isSafeInteger(m) && m > 1 && Number.isSafeInteger(residues[i]) && residues[i] >= 0 && residues[i] < m);
  return valid ? (result as PassResultLine) : undefined;
}

function parseLine(line: string): StepLogEntry | undefined {
  const entry = parseJson(line) as Partial<StepLogEntry> | null | undefined;
  if (entry?.format !== STEP_LOG_FORMAT || entry.version !== STEP_LOG_VERSION) return undefined;
  const whole = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  const fields = [entry.width, entry.columns, entry.pass, entry.passes, entry.step, entry.steps, entry.states];
  return fields.every(whole) && typeof entry.seconds === 'number' ? (entry as StepLogEntry) : undefined;
}
