/**
 * Runs command lines one after another in this one process, each as the `gocount` command would,
 * and prints, as JSON, what each printed and its exit code: a refusal table costs one process
 * instead of one a line (spec/support/refusals.ts). Run as a script: its argument is a JSON array
 * of argument lists. process.exit ends a command line here (it throws); what a line prints after
 * that, up to the event loop's next turn, is reported as `late`, since its own process would have
 * ended. The signal handlers a refused count set are removed before the next line.
 */
import { fail, runCommandLine } from '../../cli/command-line.js';
import type { CliLineResult } from './run-cli.js';

/** The signals whose handlers a count keeps until its process exits (cli/stop-signals.ts). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Thrown by process.exit while a command line runs. */
class Exit {
  constructor(readonly code: number) {}
}

async function run(args: string[]): Promise<CliLineResult> {
  let stdout = '';
  let stderr = '';
  let late = '';
  let status: number | undefined;
  const saved = { exit: process.exit, out: process.stdout.write, err: process.stderr.write };
  const handlers = STOP_SIGNALS.map((signal) => new Set(process.listeners(signal)));
  const capture = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (status === undefined) append(text);
      else late += text;
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture((text) => (stdout += text));
  process.stderr.write = capture((text) => (stderr += text));
  process.exit = ((code?: number) => {
    status ??= code ?? 0;
    throw new Exit(status);
  }) as typeof process.exit;
  try {
    await runCommandLine(args);
  } catch (error) {
    if (!(error instanceof Exit)) {
      try {
        fail(error);
      } catch {
        // fail exited: its code is the status.
      }
    }
  }
  // What the command line left to the event loop runs now, as it would before its process ended.
  await new Promise((resolve) => setTimeout(resolve, 0));
  process.exit = saved.exit;
  // Its process would have ended here, taking the handlers it set with it: the next line starts without them.
  STOP_SIGNALS.forEach((signal, i) => {
    for (const handler of process.listeners(signal)) if (!handlers[i].has(handler)) process.off(signal, handler);
  });
  process.stdout.write = saved.out;
  process.stderr.write = saved.err;
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  return { status: status ?? Number(exitCode ?? 0), stdout, stderr, late };
}

const results = [];
for (const args of JSON.parse(process.argv[2]) as string[][]) results.push(await run(args));
process.stdout.write(JSON.stringify(results));
// Work a command line started and did not finish would keep the process alive: end it here, the
// tests see `late` and the statuses.
process.exit(0);
