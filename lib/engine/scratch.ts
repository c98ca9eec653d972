/**
 * Where a count keeps its files: one folder per sweep and modulus set under the scratch directory,
 *   <scratch>/<width>x<columns>/moduli-<K>-<hash>/count.json     what this folder counts
 *                                                /step-00042/     the states after 42 points:
 *                                                   manifest.json, run-00001.run, …, merge/ (temporary)
 * so passes with other moduli, and other boards, never share files.
 */

import { createHash } from 'node:crypto';
import path from 'node:path';
import fse from 'fs-extra';
import { GocountError, UsageError } from '../errors.js';
import { FORMAT_VERSION } from '../format/layout.js';

export interface CountIdentity {
  readonly width: number;
  readonly columns: number;
  readonly moduli: readonly number[];
}

export class ScratchFolder {
  readonly root: string;

  constructor(
    scratchDir: string,
    readonly identity: CountIdentity,
  ) {
    const hash = createHash('sha256').update(identity.moduli.join(',')).digest('hex').slice(0, 10);
    this.root = path.resolve(scratchDir, `${identity.width}x${identity.columns}`, `moduli-${identity.moduli.length}-${hash}`);
  }

  stepDir(step: number): string {
    return path.join(this.root, `step-${String(step).padStart(5, '0')}`);
  }

  /** A run file; with several partitions, each names its own: run-p1-00003.run. */
  runPath(step: number, run: number, partition?: number): string {
    const owner = partition === undefined ? '' : `p${partition}-`;
    return path.join(this.stepDir(step), `run-${owner}${String(run).padStart(5, '0')}.run`);
  }

  /** Creates the folder afresh, checking it can be written. */
  prepare(): void {
    try {
      fse.removeSync(this.root);
      fse.ensureDirSync(this.root);
      fse.writeJsonSync(path.join(this.root, 'count.json'), { format: 'gocount-count', version: FORMAT_VERSION, ...this.identity }, { spaces: 1 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EEXIST') {
        throw new UsageError(`scratch folder ${this.root} cannot be written (${code})`);
      }
      throw error;
    }
  }

  removeStep(step: number): void {
    fse.removeSync(this.stepDir(step));
  }

  /** Removes this count's folder, and the sweep's folder above it when nothing else is left there. */
  removeAll(): void {
    fse.removeSync(this.root);
    const sweep = path.dirname(this.root);
    try {
      if (fse.readdirSync(sweep).length === 0) fse.rmdirSync(sweep);
    } catch {
      // gone already, or in use by another count: leave it
    }
  }
}

/** Turns ENOSPC and friends into one clear line. */
export function diskError(error: unknown, where: string): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new GocountError(`disk full while writing ${where}; finished steps are kept`, 1);
  return error;
}
