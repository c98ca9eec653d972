/**
 * Small JSON records that carry a CRC-32 of their own content (step manifests, done-markers):
 * written whole or not at all, and refused, with the file named, when a byte changed.
 */

import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { RunFileError } from '../shared/errors.js';
import { writeFileAtomically } from './atomic.js';

/** Writes `record` with its CRC-32 as the last field. */
export function writeCheckedJson(path: string, record: object): void {
  writeFileAtomically(path, JSON.stringify({ ...record, crc: crcOf(record) }, null, 1) + '\n');
}

/** Reads a record of `format` and `version` whose CRC-32 matches; `what` names it in errors ("manifest"). */
export function readCheckedJson<T>(path: string, format: string, version: number, what: string): T {
  let record: { format?: unknown; version?: unknown; crc?: unknown } | null;
  try {
    record = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RunFileError(path, `not a readable ${what} (${(error as Error).message})`);
  }
  if (record?.format !== format) throw new RunFileError(path, `not a gocount ${what}`);
  if (record.version !== version) throw new RunFileError(path, `${what} version ${record.version}, this gocount reads ${version}`);
  if (record.crc !== crcOf(record)) throw new RunFileError(path, `CRC-32 of the ${what} does not match its content`);
  return record as T;
}

function crcOf(record: object): number {
  const { crc: _crc, ...body } = record as { crc?: number };
  return crc32(JSON.stringify(body));
}
