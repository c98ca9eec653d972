/**
 * The output side every run file kind shares: a file written under a temporary name through a
 * buffer the caller lends, with a checksum of every byte so far (run-sum.ts: a run file's by its
 * version, a split run's CRC-32); committed (synced, closed and renamed into place) only when whole,
 * ending with that checksum, or discarded on an error.
 * RunWriter encodes records straight into `buffer` from `used` on; SplitRunWriter puts chunks.
 */

import { openSync } from 'node:fs';
import { commitTempFile, discardTempFile, writeAll } from './atomic.js';
import { tempPath } from './folder-names.js';
import type { PendingCommits } from './pending-commits.js';
import type { FileChecksum } from './run-sum.js';

export class BufferedTempFile {
  readonly path: string;
  readonly buffer: Buffer;
  /** Bytes of `buffer` not yet written. */
  used = 0;
  /** Bytes written to the file so far (the buffer's come after them). */
  written = 0;
  private readonly tempPath: string;
  private fd: number;
  private readonly checksum: FileChecksum;

  constructor(path: string, buffer: Buffer, checksum: FileChecksum) {
    this.path = path;
    this.buffer = buffer;
    this.checksum = checksum;
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
   * Appends the checksum of every byte before it, then syncs, closes and renames into place, or
   * hands those to `later`, which does them while the caller goes on; returns that checksum.
   */
  commit(later?: PendingCommits): number {
    if (this.used + 4 > this.buffer.length) this.drain();
    // The buffer's bytes go into the checksum here, so that they and the checksum go out in one write.
    this.checksum.update(this.buffer.subarray(0, this.used));
    const value = this.checksum.value();
    this.buffer.writeUInt32LE(value, this.used);
    writeAll(this.fd, this.buffer.subarray(0, this.used + 4));
    this.written += this.used + 4;
    this.used = 0;
    if (later) later.add(this.fd, this.tempPath, this.path);
    else commitTempFile(this.fd, this.tempPath, this.path);
    this.fd = -1;
    return value;
  }

  /** Closes and removes the temporary file; for errors. */
  abort(): void {
    discardTempFile(this.fd, this.tempPath);
    this.fd = -1;
  }

  private write(data: Uint8Array): void {
    writeAll(this.fd, data);
    this.checksum.update(data);
    this.written += data.length;
  }
}
