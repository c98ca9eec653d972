/**
 * Errors the command reports as one clear line. Each carries the exit code the command returns:
 * 2 for input that cannot be used (bad arguments, wrong files), 1 for a run that failed.
 */

export class GocountError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** Bad arguments or unusable input: exit code 2. */
export class UsageError extends GocountError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A run file or manifest that cannot be used: damaged, cut short, or of another count. */
export class RunFileError extends GocountError {
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`, 1);
    this.file = file;
  }
}
