/**
 * The output side every run file kind shares: a file written under a temporary name through a
 * buffer the caller lends, with the CRC-32 of every byte so far; committed (synced, closed and
 * renamed into place) only when whole, ending with that CRC, or discarded on an error.
 * RunWriter encodes records straight into `buffer` from `used` on; SplitRunWriter puts chunks.
 */

import { openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { commitTempFile, discardTempFile, writeAll } from './atomic.js';
import { tempPath } from './folder-names.js';
import type { PendingCommits } from './pending-commits.js';

export class BufferedTempFile {
  readonly path: string;
  readonly buffer: Buffer;
  /** Bytes of `buffer` not yet written. */
  used = 0;
  /** Bytes written to the file so far (the buffer's come after them). */
  written = 0;
  private readonly tempPath: string;
  private fd: number;
  private crc = 0;

  constructor(path: string, buffer: Buffer) {
    this.path = path;
    this.buffer = buffer;
    this.tempPath = tempPath(path);
    this.fd = openSync(this.tempPath, 'w');
  }

  /** Where the next byte goes in the file. */
  get offset(): number {
    return this.written + this.used;
  }

  /** Appends bytes: gathered in the buffer, or written as they are when larger than it. */
  put(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buffer.length) this.drain();
    if (bytes.length > this.buffer.length) {
      this.write(bytes);
      return;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** Appends bytes from the memory they are in, after what the buffer holds. */
  putDirect(bytes: Uint8Array): void {
    this.drain();
    this.write(bytes);
  }

  /** Writes out what the buffer holds. */
  drain(): void {
    if (this.used === 0) return;
    const data = this.buffer.subarray(0, this.used);
    this.used = 0;
    this.write(data);
  }

  /**
   * Appends the CRC-32 of every byte before it, then syncs, closes and renames into place, or hands
   * those to `later`, which does them while the caller goes on; returns that CRC.
   */
  commit(later?: PendingCommits): number {
    const crc = crc32(this.buffer.subarray(0, this.used), this.crc);
    const tail = Buffer.alloc(4);
    tail.writeUInt32LE(crc, 0);
    this.put(tail);
    this.drain();
    if (later) later.add(this.fd, this.tempPath, this.path);
    else commitTempFile(this.fd, this.tempPath, this.path);
    this.fd = -1;
    return crc;
  }

  /** Closes and removes the temporary file; for errors. */
  abort(): void {
    discardTempFile(this.fd, this.tempPath);
    this.fd = -1;
  }

  private write(data: Uint8Array): void {
    writeAll(this.fd, data);
    this.crc = crc32(data, this.crc);
    this.written += data.length;
  }
}
