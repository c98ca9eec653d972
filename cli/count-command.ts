/** The default command: count the legal positions of one board. */

import type { CommandModule } from 'yargs';
import { parseBoard, sweepOf } from '../lib/board/shape.js';
import { countLegalOf } from '../lib/count/count-board.js';

export const DEFAULT_BOARD = '9x9';

interface CountArgs {
  size?: (string | number)[];
  _: (string | number)[];
  json: boolean;
  'keep-orientation': boolean;
}

export const countCommand: CommandModule<object, CountArgs> = {
  command: '$0 [size..]',
  describe: 'count the legal positions of a board',
  builder: (y) =>
    y
      .positional('size', {
        describe: `board size as MxN (9x9) or M N (9 9); default ${DEFAULT_BOARD}`,
        type: 'string',
        array: true,
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print {"m", "n", "legal"} as JSON, the count as a decimal string',
      })
      .option('keep-orientation', {
        type: 'boolean',
        default: false,
        describe: 'sweep the board M points wide as given, instead of along its narrower side',
      }),
  handler: (args) => {
    // Words after "--" land in args._; they are sizes too ("gocount -- -1 5" must be refused).
    const words = [...(args.size ?? []), ...args._];
    const board = parseBoard(words.length > 0 ? words : [DEFAULT_BOARD]);
    const legal = countLegalOf(sweepOf(board, args['keep-orientation']));
    if (args.json) process.stdout.write(`${JSON.stringify({ m: board.m, n: board.n, legal: legal.toString() })}\n`);
    else process.stdout.write(`${legal}\n`);
  },
};
