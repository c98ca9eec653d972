/**
 * A working file of a solve, in its scratch folder. Its name is removed as soon as it is open: its
 * space lasts as long as the descriptor, so a solve that is stopped or killed leaves nothing behind.
 */

import { closeSync, ftruncateSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { diskError } from '../../folder/scratch.js';
import { makeFolder } from '../../format/make-folder.js';

const ADVICE = 'free some space, or give --scratch a folder with more, and solve again';

export class ScratchFile {
  /** Bytes written so far: where append() writes next. */
  length = 0;

  private constructor(
    private fd: number,
    private readonly folder: string,
    /** A folder left where the system keeps open files' names: removed by close(). */
    private readonly leftover: string | undefined,
  ) {}

  static open(folder: string): ScratchFile {
    try {
      makeFolder(folder, 'scratch folder');
      const own = mkdtempSync(path.join(folder, 'solve-'));
      const fd = openSync(path.join(own, 'work'), 'w+');
      try {
        rmSync(own, { recursive: true });
        return new ScratchFile(fd, folder, undefined);
      } catch {
        return new ScratchFile(fd, folder, own);
      }
    } catch (error) {
      throw diskError(error, folder, ADVICE);
    }
  }

  /** The bytes the file holds on disk (none once closed). */
  get bytes(): number {
    return this.fd < 0 ? 0 : this.length;
  }

  /** Writes a typed array's bytes at the end. */
  append(data: ArrayBufferView): void {
    this.writeAt(data, this.length);
  }

  writeAt(data: ArrayBufferView, position: number): void {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    try {
      for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done, bytes.length - done, position + done);
    } catch (error) {
      throw diskError(error, this.folder, ADVICE);
    }
    this.length = Math.max(this.length, position + bytes.length);
  }

  /** Fills a typed array from the file's bytes at position; the file must hold them. */
  readAt(into: ArrayBufferView, position: number): void {
    const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
    for (let done = 0; done < bytes.length;) {
      const read = readSync(this.fd, bytes, done, bytes.length - done, position + done);
      if (read === 0) throw new Error(`scratch file: ends at byte ${position + done}, ${bytes.length - done} bytes short`);
      done += read;
    }
  }

  /** Empties the file for reuse. */
  clear(): void {
    ftruncateSync(this.fd, 0);
    this.length = 0;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    if (this.leftover) rmSync(this.leftover, { recursive: true, force: true });
  }
}
