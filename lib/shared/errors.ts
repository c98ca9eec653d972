/**
 * The errors gocount raises on purpose. Each carries a stable `code` to branch on and the exit code
 * the command returns: 2 for input that cannot be used (bad options, wrong files), 1 for a run that
 * failed. Messages name library options (`fanIn`), never command-line flags: the command puts its
 * own flag names on an InvalidOptionError (cli/errors.ts).
 */

export type GocountErrorCode =
  | 'GOCOUNT_FAILED'
  | 'GOCOUNT_INVALID_INPUT'
  | 'GOCOUNT_INVALID_OPTION'
  | 'GOCOUNT_INVALID_SIZE'
  | 'GOCOUNT_BAD_FILE'
  | 'GOCOUNT_SCRATCH_UNUSABLE'
  | 'GOCOUNT_SCRATCH_LOCKED'
  | 'GOCOUNT_DISK_FULL'
  | 'GOCOUNT_UNTRUSTED_COUNT'
  | 'GOCOUNT_TOO_LARGE'
  | 'GOCOUNT_ABORTED'
  | 'GOCOUNT_TASKS_FAILED';

/** A path longer than this is shown shortened in messages (shortPath). */
const LONG_PATH = 200;

/** A long path as a message shows it: its first 60 and last 100 characters with "…" between. */
export function shortPath(text: string): string {
  return text.length > LONG_PATH ? `${text.slice(0, 60)}…${text.slice(-100)}` : text;
}

/** A message with every path in it over LONG_PATH characters shortened, so that it stays one readable line. */
export function shortenPaths(message: string): string {
  return message.replace(new RegExp(`[^\\s"]{${LONG_PATH + 1},}`, 'g'), (word) => (word.includes('/') ? shortPath(word) : word));
}

export class GocountError extends Error {
  readonly exitCode: number;
  readonly code: GocountErrorCode;
  constructor(message: string, exitCode: number, code: GocountErrorCode = 'GOCOUNT_FAILED') {
    super(shortenPaths(message));
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.code = code;
  }
}

/** Bad arguments or unusable input: exit code 2. */
export class UsageError extends GocountError {
  constructor(message: string, code: GocountErrorCode = 'GOCOUNT_INVALID_INPUT') {
    super(message, 2, code);
  }
}

/** An option's value that cannot be used: `option` is its name in the library's options. */
export class InvalidOptionError extends UsageError {
  readonly option: string;
  readonly value: string;
  readonly problem: string;
  constructor(option: string, value: unknown, problem: string) {
    super(`${option} ${String(value)}: ${problem}`, 'GOCOUNT_INVALID_OPTION');
    this.option = option;
    this.value = String(value);
    this.problem = problem;
  }
}

/** A run file or manifest that cannot be used: damaged, cut short, or of another count. */
export class RunFileError extends GocountError {
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`, 1, 'GOCOUNT_BAD_FILE');
    this.file = file;
  }
}

/**
 * A count stopped by its AbortSignal; its finished steps stay in the scratch folder for a resume.
 * The exit code is the shell's for the signal that stopped it: 130 for SIGINT, 143 for SIGTERM.
 */
export class AbortedError extends GocountError {
  constructor(message: string, exitCode = 130) {
    super(message, exitCode, 'GOCOUNT_ABORTED');
  }
}

/** An error of the operating system (a file that cannot be opened, a full disk), as Node raises it. */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string; syscall: string; dest?: string } {
  const e = error as NodeJS.ErrnoException | undefined;
  return error instanceof Error && typeof e?.code === 'string' && typeof e.syscall === 'string';
}

/** What went wrong, in a few words: "permission denied (EACCES)"; for any other error its message. */
export function systemProblem(error: unknown): string {
  if (isSystemError(error)) {
    // Node's messages read "EACCES: permission denied, open '/x'".
    const words = /^[A-Z0-9_]+: ([^,]+)/.exec(error.message)?.[1];
    return words === undefined ? error.code : `${words} (${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Errors that say the path given cannot be used, as against a failure while using it (a full disk). */
const PATH_PROBLEMS = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'ELOOP', 'ENAMETOOLONG', 'EEXIST', 'ENXIO']);

/** The exit code of a system error: 2 when the path given cannot be used, 1 when a run failed. */
export function systemExitCode(error: NodeJS.ErrnoException): number {
  return PATH_PROBLEMS.has(error.code ?? '') ? 2 : 1;
}
