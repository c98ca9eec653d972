/** `gocount recurrence M`: the minimal linear recurrence of L(M,n) in n, with λ_M and a_M. */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { writeFileAtomically } from '../lib/format/atomic.js';
import { writableFile } from '../lib/format/writable-file.js';
import { DEFAULT_DIGITS, MAX_DIGITS } from '../lib/paper/defaults.js';

interface RecurrenceArgs {
  height: number;
  digits: number;
  coefficients?: string;
  json: boolean;
}

/** Recurrences up to this order are printed in full; longer ones go to --coefficients FILE. */
const INLINE_ORDER = 20;

export const recurrenceCommand: CommandModule<object, RecurrenceArgs> = {
  command: 'recurrence <height>',
  describe: 'the minimal linear recurrence of L(M,n) in n (paper §5.4, Table 2), with λ_M and a_M',
  builder: (y) =>
    y
      .positional('height', { ...numberOption('height', 'height'), demandOption: true, describe: 'M, the board height (1 to 6)' })
      .option('digits', {
        ...numberOption('digits'),
        default: DEFAULT_DIGITS,
        describe: `decimal digits of λ_M, λ_M^(1/M) and a_M (1 to ${MAX_DIGITS})`,
      })
      .option('coefficients', { type: 'string', describe: 'write the coefficients to FILE, one per line (c1 first)' })
      .option('json', { type: 'boolean', default: false, describe: 'print everything as JSON, coefficients as decimal strings' }),
  handler: async (args) => {
    const { recurrenceOf } = await import('../lib/paper/recurrence/recurrence-report.js');
    const coefficientsFile = args.coefficients === undefined ? undefined : writableFile('coefficients', args.coefficients);
    const started = performance.now();
    const r = recurrenceOf(args.height, args.digits);
    const seconds = (performance.now() - started) / 1000;
    const coefficients = r.coefficients.map(String);
    if (coefficientsFile !== undefined) writeFileAtomically(coefficientsFile, coefficients.join('\n') + '\n');
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ ...r, coefficients, numerator: r.numerator.map(String), seconds })}\n`);
      return;
    }
    const M = r.height;
    const order = r.coefficients.length;
    const lines = [
      `L(${M},n) has a minimal linear recurrence of order ${order} (the column transfer has ${r.transferStates} border states)`,
      `found from L(${M},1) … L(${M},${r.termsUsed}) modulo ${r.primesUsed} primes, checked on the next ${r.termsChecked} terms modulo 2 more`,
    ];
    if (order <= INLINE_ORDER) {
      lines.push(
        `L(${M},n) = ${r.coefficients.map((c, i) => `${c < 0n ? '− ' : i > 0 ? '+ ' : ''}${c < 0n ? -c : c}·L(${M},n−${i + 1})`).join(' ')}`,
      );
    } else {
      lines.push(
        args.coefficients ? `coefficients written to ${args.coefficients}` : `${order} coefficients: write them with --coefficients FILE`,
      );
    }
    lines.push(
      `λ_${M}        = ${r.lambda}`,
      `λ_${M}^(1/${M})  = ${r.lambdaRoot}`,
      `a_${M}        = ${r.a}   (L(${M},n) ~ a_${M}·λ_${M}^n)`,
      `${seconds.toFixed(2)} s`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
