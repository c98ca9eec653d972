/** What `verify` reports: one problem per line, naming the file and, where it applies, the record. */

export interface Problem {
  readonly file: string;
  readonly record?: number;
  readonly problem: string;
  /**
   * Not damage but the mark of a count running or stopped before its end (a lock, a step without
   * its manifest yet, a temporary file or merge folder): running the count again resumes it.
   */
  readonly unfinished?: boolean;
}

/** What verify found in all: nothing, only the marks of an unfinished count, or damage. */
export type VerifyStatus = 'clean' | 'unfinished' | 'damaged';

export function statusOf(problems: readonly Problem[]): VerifyStatus {
  if (problems.length === 0) return 'clean';
  return problems.every((problem) => problem.unfinished) ? 'unfinished' : 'damaged';
}

export function formatProblem({ file, record, problem }: Problem): string {
  // One line a problem, whatever a parser's message holds.
  const text = problem.replace(/\s*\n\s*/g, ' ');
  return record === undefined ? `${file}: ${text}` : `${file}: record ${record}: ${text}`;
}
