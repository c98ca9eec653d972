/**
 * `gocount inspect FILE`: a run file's header, trailer and selected records, each state rendered
 * with the core's rendering (render.ts) beside its raw code and residues; of a split run file, its
 * header, footer, the sections of its index that hold records, and their records, owner by owner.
 */

import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { readSectionEntry, readSplitIndex, readSplitRun, SectionReader } from '../format/section-reader.js';
import { SplitFooter, SplitHeader, SPLIT_MAGIC } from '../format/split-layout.js';
import { stringArgument, wholeNumber } from '../shared/arguments.js';
import { GocountError, RunFileError, UsageError } from '../shared/errors.js';
import { decodeTrailer, HEADER_MAGIC, RunHeader, RunTrailer, trailerBytes } from '../format/layout.js';
import { RUN_SUFFIX } from '../format/folder-names.js';
import { pathProblem } from '../format/make-folder.js';
import { MAX_WIDTH } from '../border/layout.js';
import { RunReader } from '../format/run-reader.js';
import { BorderStates } from '../border/border.js';
import { describeCode, renderState } from '../border/render.js';
import { DEFAULT_LIMIT, DEFAULT_SKIP } from './defaults.js';

export interface InspectedRecord {
  /** 1-based, as verify's messages count them: in a split run, within its worker's section. */
  readonly record: number;
  /** In a split run: the worker whose section holds it. */
  readonly worker?: number;
  readonly state: string;
  readonly code: string;
  readonly residues: number[];
}

/** A section of a split run's index that holds records. */
export interface InspectedSection {
  readonly worker: number;
  readonly records: number;
  readonly chunks: number;
  readonly bytes: number;
  readonly crc: number;
}

export interface Inspection {
  readonly file: string;
  readonly bytes: number;
  readonly header: RunHeader | SplitHeader;
  /** A run file's trailer, or a split run's footer (its index's place, chunks and totals). */
  readonly trailer: RunTrailer | SplitFooter | string;
  /** In a split run: the sections that hold records. */
  readonly sections?: InspectedSection[];
  readonly records: InspectedRecord[];
  /** Set when the file is damaged anywhere: a record, the trailer's count or sums, the checksum. */
  readonly error?: string;
}

/** The header, trailer and records skip + 1 … skip + limit of a run file, which is read and checked whole. */
export function inspectRun(file: string, skip = DEFAULT_SKIP, limit = DEFAULT_LIMIT): Inspection {
  stringArgument('file', file);
  wholeNumber('skip', skip, 0);
  wholeNumber('limit', limit, 0);
  // Opening a pipe would wait for a writer: only plain files are read.
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) throw new UsageError(`${file}: not a file${stat.isDirectory() ? ' but a folder' : ''}`);
  if (stat && startsWith(file, SPLIT_MAGIC)) return inspectSplitRun(file, skip, limit);
  let reader: RunReader;
  try {
    reader = new RunReader(file, Buffer.allocUnsafe(1 << 16));
  } catch (error) {
    const code = error instanceof GocountError ? undefined : (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${file}: no such file`);
    if (code !== undefined) throw new UsageError(`${file}: cannot be read: ${pathProblem(code)}`);
    const notOurs = error instanceof GocountError && / magic|too short/.test(error.message) && !file.endsWith(RUN_SUFFIX);
    if (notOurs) throw new UsageError(`${file}: not a gocount run file (it does not start with ${HEADER_MAGIC} or ${SPLIT_MAGIC})`);
    throw error;
  }
  const { header } = reader;
  if (header.width < 1 || header.width > MAX_WIDTH) {
    reader.close();
    throw new RunFileError(file, `header gives an impossible width ${header.width}`);
  }
  const states = new BorderStates(header.width);
  const y = header.step % header.width;
  const records: InspectedRecord[] = [];
  let error: string | undefined;
  try {
    while (records.length < limit && reader.next()) {
      if (reader.records <= skip) continue;
      let state: string;
      try {
        state = renderState(states, reader.hi, reader.lo, y);
      } catch {
        state = '(not a well-formed state)';
      }
      records.push({ record: reader.records, state, code: describeCode(reader.hi, reader.lo), residues: Array.from(reader.residues) });
    }
    // The rest is read too, unprinted: the records shown are then known to come from a sound file
    // (its records, count, sums and checksum checked), or the problem is reported.
    while (reader.next());
  } catch (failure) {
    if (!(failure instanceof GocountError)) throw failure;
    error = failure.message;
  } finally {
    reader.close();
  }
  const end = readTrailer(file, header.moduli.length);
  // A file without its trailer is damaged however few records were asked for.
  return { file, header, records, error: error ?? (typeof end.trailer === 'string' ? end.trailer : undefined), ...end };
}

/** The file's size and its trailer, read straight from the end (whatever the records hold). */
function readTrailer(file: string, residueCount: number): { bytes: number; trailer: RunTrailer | string } {
  const fd = openSync(file, 'r');
  try {
    const bytes = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(bytes, trailerBytes(residueCount)));
    readSync(fd, buf, 0, buf.length, bytes - buf.length);
    return { bytes, trailer: decodeTrailer(buf, residueCount) };
  } finally {
    closeSync(fd);
  }
}

/**
 * inspectRun of a split run: the sections that hold records, and records skip + 1 … skip + limit
 * of them in owner order, each numbered within its section. The file is read and checked whole.
 */
function inspectSplitRun(file: string, skip: number, limit: number): Inspection {
  const fd = openSync(file, 'r');
  let index: ReturnType<typeof readSplitIndex>;
  const sections: InspectedSection[] = [];
  try {
    index = readSplitIndex(file, fd);
    for (let worker = 0; worker < index.header.owners; worker++) {
      const entry = readSectionEntry(file, fd, index, worker);
      if (entry.chunks > 0) sections.push({ worker, records: entry.records, chunks: entry.chunks, bytes: 0, crc: entry.crc });
    }
  } finally {
    closeSync(fd);
  }
  const { header, footer, size } = index;
  const states = header.width >= 1 && header.width <= MAX_WIDTH ? new BorderStates(header.width) : undefined;
  const y = header.step % header.width;
  const records: InspectedRecord[] = [];
  const bytesOf = new Map<number, number>();
  let seen = 0;
  let error: string | undefined;
  try {
    readSplitRun(file, Buffer.allocUnsafe(1 << 16), (reader: SectionReader) => {
      bytesOf.set(reader.owner, reader.sectionBytes);
      if (++seen <= skip || records.length >= limit) return;
      let state = '(not a well-formed state)';
      try {
        if (states) state = renderState(states, reader.hi, reader.lo, y);
      } catch {
        // left as not well-formed
      }
      const residues = Array.from(reader.residues);
      records.push({ record: reader.records, worker: reader.owner, state, code: describeCode(reader.hi, reader.lo), residues });
    });
  } catch (failure) {
    if (!(failure instanceof GocountError)) throw failure;
    error = failure.message;
  }
  return {
    file,
    bytes: size,
    header,
    trailer: footer,
    sections: sections.map((section) => ({ ...section, bytes: bytesOf.get(section.worker) ?? 0 })),
    records,
    error,
  };
}

/** Whether a file starts with `magic`. */
function startsWith(file: string, magic: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(magic.length);
    return readSync(fd, buf, 0, buf.length, 0) === buf.length && buf.toString('latin1') === magic;
  } finally {
    closeSync(fd);
  }
}
