/** What `verify` reports: one problem per line, naming the file and, where it applies, the record. */

export interface Problem {
  readonly file: string;
  readonly record?: number;
  readonly problem: string;
}

export function formatProblem({ file, record, problem }: Problem): string {
  return record === undefined ? `${file}: ${problem}` : `${file}: record ${record}: ${problem}`;
}
