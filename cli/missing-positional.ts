/**
 * yargs's "Not enough non-option arguments: got 0, need at least 1" in gocount's words: the command,
 * the positional it needs as its usage line names it, and what that is, as its --help says
 * (`verify needs <path>: a .run file, …`).
 */

/** The required positional of the command being parsed, and its description; its builder sets them. */
let needed: { command: string; positional: string; describe: string } | undefined;

export function setRequiredPositional(command: string, positional: string, describe: string): void {
  needed = { command, positional, describe };
}

/** A new command line: the last one's command is forgotten. */
export function forgetRequiredPositional(): void {
  needed = undefined;
}

/** The error line for yargs's `message`, when it is that a required positional is missing. */
export function missingPositionalLine(message: string): string | undefined {
  if (!needed || !/^Not enough non-option arguments/.test(message)) return undefined;
  const { command, positional, describe } = needed;
  return `${command} needs <${positional}>${describe ? `: ${describe}` : ''}`;
}
