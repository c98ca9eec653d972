/** `gocount states M`: the number of valid border state classes of height M at each y (Table 1). */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { classesOf, statesHeight, validStates } from '../lib/paper/valid-classes.js';
import { FIELD_BITS, MAX_WIDTH } from '../lib/border/layout.js';

interface StatesArgs {
  height: number;
  json: boolean;
}

export const statesCommand: CommandModule<object, StatesArgs> = {
  command: 'states <height>',
  describe: 'the number of valid border state classes of height M at each y (paper §5.2, Table 1), and the bits a state needs',
  builder: (y) =>
    y
      .positional('height', {
        ...numberOption('height', 'height'),
        demandOption: true,
        describe: `M, the board height (1 to ${MAX_WIDTH})`,
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the counts as JSON' }),
  handler: (args) => {
    const m = statesHeight(args.height);
    const started = performance.now();
    const rows = validStates(m).map((states, y) => ({ y, states, classes: classesOf(states) }));
    const seconds = (performance.now() - started) / 1000;
    const most = Math.max(...rows.map((row) => row.classes));
    const bits = { fields: FIELD_BITS * m, dense: Math.ceil(Math.log2(most)) };
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ m, rows, y0: rows[0].classes, ymax: rows[m - 1].classes, bits, seconds })}\n`);
      return;
    }
    const lines = [
      `valid border states of height ${m} (a class is a state and its colour reversal)`,
      `${'y'.padStart(3)}  ${'states'.padStart(15)}  ${'classes'.padStart(15)}`,
    ];
    for (const row of rows)
      lines.push(`${String(row.y).padStart(3)}  ${String(row.states).padStart(15)}  ${String(row.classes).padStart(15)}`);
    lines.push(
      `Table 1: ${rows[0].classes} classes at y = 0, ${rows[m - 1].classes} at y = ${m - 1}`,
      `bits: ${bits.fields} in the ${FIELD_BITS}-bit field encoding gocount and the paper use` +
        `${bits.fields > 53 ? ' (more than a JS number holds exactly: two 32-bit words)' : ''}; ${bits.dense} would number the classes densely`,
      `${seconds.toFixed(3)} s`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
