/** What `verify` reports: one problem per line, naming the file and, where it applies, the record. */

export interface Problem {
  readonly file: string;
  readonly record?: number;
  readonly problem: string;
}

export function formatProblem({ file, record, problem }: Problem): string {
  // One line a problem, whatever a parser's message holds.
  const text = problem.replace(/\s*\n\s*/g, ' ');
  return record === undefined ? `${file}: ${text}` : `${file}: record ${record}: ${text}`;
}
