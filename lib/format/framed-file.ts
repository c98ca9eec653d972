/**
 * Binary files framed as a header line of JSON, whose first field is the format's name, then a
 * body of bytes, then the CRC-32 of everything before it, 4 bytes little-endian (the solver's
 * database and checkpoint, lib/solve/files; its table of earlier results starts with the same
 * header line). Written under a temporary name and renamed, so a file with its name is whole. The
 * checked JSON of small records is lib/format/checked-json.ts.
 */

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { writeFileAtomically } from './atomic.js';
import { counted } from '../shared/plural.js';

/**
 * Writes a header line of JSON, the bytes of `parts` and the CRC-32 of all that, under a
 * temporary name (`temp`, else the file's own) renamed into place.
 */
export function writeFramedFile(file: string, header: object, parts: ArrayBufferView[], temp?: string): void {
  const head = Buffer.from(`${JSON.stringify(header)}\n`);
  const bodies = parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength));
  let crc = crc32(head);
  for (const body of bodies) crc = crc32(body, crc);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(crc);
  writeFileAtomically(file, Buffer.concat([head, ...bodies, trailer]), temp);
}

/**
 * The header line at the start of a framed file of this format, parsed, and where it ends; or
 * what is wrong with it (`data` may hold only the file's first bytes).
 */
export function headerLine<H>(data: Buffer, format: string): { header: H; newline: number } | string {
  const magic = magicOf(format);
  const newline = data.indexOf(10);
  const start = data.subarray(0, magic.length).toString('latin1');
  if (newline < 0 && start.length > 0 && start === magic.slice(0, start.length))
    return `cut short in its header (${counted(data.length, 'byte')})`;
  if (newline < 0 || start !== magic) return `not a ${format} file`;
  try {
    return { header: JSON.parse(data.subarray(0, newline).toString()) as H, newline };
  } catch {
    return 'its header is not JSON';
  }
}

/** How a framed file of this format starts: the header's first bytes. */
const magicOf = (format: string): string => `{"format":"${format}"`;

/** Whether a file starts as a framed file of this format does (or is one cut short). */
export function startsAsFramedFile(file: string, format: string): boolean {
  const magic = magicOf(format);
  const fd = openSync(file, 'r');
  try {
    const start = Buffer.alloc(magic.length);
    const read = readSync(fd, start, 0, start.length, 0);
    // A file cut inside its magic is still one (a damaged one): at least the format's first letter.
    return read >= '{"format":"'.length + 1 && start.subarray(0, read).toString() === magic.slice(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a framed file whole: its header, as `checked` gives it back (upgraded to the current
 * version, say) or what `checked` finds wrong with it, and its body, the `bodyBytes(header)` bytes
 * between the header line and the CRC-32; or the one thing wrong with the file.
 */
export function readFramedFile<H>(
  file: string,
  format: string,
  checked: (header: H) => H | string,
  bodyBytes: (header: H) => number,
): { header: H; body: Buffer } | string {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return code === 'ENOENT' ? 'no such file' : `cannot be read (${message})`;
  }
  const line = headerLine<H>(data, format);
  if (typeof line === 'string') return line;
  const { newline } = line;
  const header = checked(line.header);
  if (typeof header === 'string') return header;
  const expected = newline + 1 + bodyBytes(header) + 4;
  if (data.length !== expected) return `${counted(data.length, 'byte')} where the header promises ${expected}`;
  const crc = data.readUInt32LE(data.length - 4);
  if (crc32(data.subarray(0, data.length - 4)) !== crc) return 'CRC-32 mismatch: the file is damaged';
  return { header, body: data.subarray(newline + 1, data.length - 4) };
}

/** A copy of `length` bytes of a body from `start`, as signed bytes. */
export function signedBytes(body: Buffer, start: number, length: number): Int8Array {
  const bytes = new Int8Array(length);
  bytes.set(new Int8Array(body.buffer, body.byteOffset + start, length));
  return bytes;
}
