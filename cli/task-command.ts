/** `gocount task DIR --step S --part J`: one partition task of a partitioned count, as its driver launches it. */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { stopWithDriver } from '../lib/cluster/launcher.js';
import { runTask } from '../lib/cluster/task.js';
import { DEFAULT_FAN_IN } from '../lib/count/count-options.js';
import { defaultMemoryBudget } from '../lib/engine/budget.js';
import { InvalidOptionError } from '../lib/errors.js';
import { parseSize } from '../lib/units.js';
import { counted } from '../lib/plural.js';
import os from 'node:os';

interface TaskArgs {
  dir: string;
  step: number;
  part: number;
  memory?: string;
  'fan-in': number;
}

export const taskCommand: CommandModule<object, TaskArgs> = {
  command: 'task <dir>',
  describe:
    "run one partition task of a partitioned count (the driver launches these): expand step S's states of partition J into step S + 1",
  builder: (y) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'the count folder, the one holding count.json' })
      .option('step', { ...numberOption('step'), demandOption: true, describe: 'the step whose states the task expands' })
      .option('part', { ...numberOption('part'), demandOption: true, describe: 'the partition, from 0' })
      .option('memory', { type: 'string', describe: "the task's memory budget, like 2G (default: half the free memory)" })
      .option('fan-in', { ...numberOption('fan-in'), default: DEFAULT_FAN_IN, describe: 'the most run files one merge opens' }),
  handler: async (args) => {
    const fanIn = args['fan-in'];
    if (!Number.isInteger(fanIn) || fanIn < 2) throw new InvalidOptionError('fanIn', fanIn, 'must be an integer of at least 2');
    stopWithDriver();
    const memory = args.memory === undefined ? defaultMemoryBudget(os.freemem()) : parseSize(args.memory, 'memory');
    const { alreadyDone, marker } = await runTask({ countDir: args.dir, step: args.step, part: args.part, memory, fanIn });
    const what = alreadyDone
      ? 'was done already'
      : `done: ${counted(marker.statesIn, 'state')} expanded, ${counted(marker.runs.length, 'run')} written`;
    process.stdout.write(`task ${args.part} of step ${args.step} ${what}\n`);
  },
};
