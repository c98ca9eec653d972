/**
 * `gocount task DIR --part J`: a task process of a partitioned count, as its launcher starts it,
 * serving its parts for every step; with `--step S`, one step, by hand.
 */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { DISK_FULL_EXIT, stopWithDriver } from '../lib/cluster/launcher.js';
import { DEFAULT_FAN_IN } from '../lib/count/defaults.js';
import { InvalidOptionError, UsageError } from '../lib/shared/errors.js';
import { parseSize } from '../lib/shared/units.js';
import os from 'node:os';

interface TaskArgs {
  dir: string;
  step?: number;
  part: number[];
  memory?: string;
  'fan-in': number;
  threads?: number;
}

export const taskCommand: CommandModule<object, TaskArgs> = {
  command: 'task <dir>',
  describe:
    'run a task process of a partitioned count (the driver launches these): expand the states of partition J step after step, as the driver commits each step; with --step S, only step S',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'the count folder, the one holding count.json' })
      .option('step', { ...numberOption('step'), describe: 'only this step, then exit (default: every step, as the driver commits it)' })
      .option('part', {
        type: 'string',
        demandOption: true,
        coerce: partList,
        describe: 'the partition, from 0; several, comma-separated, take turns in each step',
      })
      .option('memory', { type: 'string', describe: "the task's memory budget, like 2G (default: half the free memory)" })
      .option('fan-in', { ...numberOption('fan-in'), default: DEFAULT_FAN_IN, describe: 'the most run files one merge opens' })
      .option('threads', {
        ...numberOption('threads'),
        describe: "the process's threads, each serving some of a part's workers in turn (default: the workers, at most one per core)",
      }),
  handler: async (args) => {
    const fanIn = args['fan-in'];
    if (!Number.isInteger(fanIn) || fanIn < 2) throw new InvalidOptionError('fanIn', fanIn, 'must be an integer of at least 2');
    const { threads } = args;
    if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1))
      throw new InvalidOptionError('threads', threads, 'must be a positive integer');
    stopWithDriver();
    const [{ runTask }, { outcomeLine, serveTask }, { defaultMemoryBudget }, { isDiskFull }] = await Promise.all([
      import('../lib/cluster/task.js'),
      import('../lib/cluster/task-loop.js'),
      import('../lib/engine/budget.js'),
      import('../lib/folder/scratch.js'),
    ]);
    const memory = args.memory === undefined ? defaultMemoryBudget(os.freemem()) : parseSize(args.memory, 'memory');
    const say = (line: string) => process.stdout.write(`${line}\n`);
    if (args.step === undefined) {
      try {
        const { reason } = await serveTask({ countDir: args.dir, parts: args.part, memory, fanIn, threads, onLine: say });
        say(`task ${args.part.join(', ')}: stopped, ${reason}`);
      } catch (error) {
        // The driver tells a full disk from other ends by this exit code, and spends no retries on it.
        if (!isDiskFull(error)) throw error;
        process.stderr.write(`gocount: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(DISK_FULL_EXIT);
      }
      return;
    }
    for (const part of args.part)
      say(outcomeLine(part, args.step, await runTask({ countDir: args.dir, step: args.step, part, memory, fanIn, threads })));
  },
};

/** `--part 3` or `--part 1,3`: whole numbers, comma-separated, each once. */
function partList(given: unknown): number[] {
  const text = String(Array.isArray(given) ? given.at(-1) : given);
  if (!/^\d+(,\d+)*$/.test(text))
    throw new UsageError(`--part ${text}: not a partition number, nor numbers separated by commas`, 'GOCOUNT_INVALID_OPTION');
  return [...new Set(text.split(',').map(Number))];
}
