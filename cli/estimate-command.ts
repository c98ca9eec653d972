/** `gocount estimate MxN`: L(m,n) from the asymptotic formula A·B^(m+n)·L^(mn) (paper §5.11). */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { parseBoard } from '../lib/board/shape.js';
import { UsageError } from '../lib/shared/errors.js';
import { fittedBoards, LARGEST_BASE } from '../lib/paper/estimate/constants.js';

interface EstimateArgs {
  size: (string | number)[];
  digits: number;
  from: number;
  json: boolean;
}

/** Significant digits printed: the constants are good to about 40. */
const MAX_DIGITS = 40;

/** "L(18,18), L(18,19), L(19,19)": the counts the constants at `from` come from. */
const fittedOn = (from: number) =>
  fittedBoards(from)
    .map(([a, b]) => `L(${a},${b})`)
    .join(', ');

export const estimateCommand: CommandModule<object, EstimateArgs> = {
  command: 'estimate <size..>',
  describe: 'estimate L(m,n) by the asymptotic formula A·B^(m+n)·L^(mn), with its error where the exact count is known',
  builder: (y) =>
    y
      .positional('size', { describe: 'board size as MxN or M N', type: 'string', array: true, demandOption: true })
      .option('digits', { ...numberOption('digits'), default: 14, describe: 'significant digits of the estimate' })
      .option('from', {
        ...numberOption('from'),
        default: LARGEST_BASE,
        describe: `compute A, B, L from the exact counts of n×n, n×(n+1) and (n+1)×(n+1) (1 to ${LARGEST_BASE})`,
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the estimate, constants and error as JSON' }),
  handler: async (args) => {
    const { m, n } = parseBoard(args.size);
    // Printing's own limit, checked before the estimate's: the library returns every digit.
    if (!Number.isInteger(args.digits) || args.digits < 1 || args.digits > MAX_DIGITS)
      throw new UsageError(`--digits ${args.digits}: must be a whole number from 1 to ${MAX_DIGITS}`);
    const [{ toFixed, toScientific }, { estimateBoard }] = await Promise.all([
      import('../lib/paper/estimate/big-decimal.js'),
      import('../lib/paper/estimate/estimate-board.js'),
    ]);
    const result = estimateBoard(m, n, args.from);
    const { constants } = result;
    const estimate = toScientific(result.estimate, args.digits);
    const share = toScientific(result.shareOfAll, 4);
    const k = args.from;
    const named = { A: toFixed(constants.A, 22), B: toFixed(constants.B, 22), L: toFixed(constants.L, 22) };
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({
          m,
          n,
          estimate,
          shareOfAll: share,
          exact: result.exact?.toString(),
          exactSource: result.exactSource,
          relativeError: result.relativeError,
          fitted: result.fitted,
          holdout: result.holdout,
          constants: { ...named, from: k },
        })}\n`,
      );
      return;
    }
    const [mantissa, exponent] = estimate.split('e');
    const [shareMantissa, shareExponent] = share.split('e');
    const lines = [`L(${m},${n}) ≈ ${mantissa}·10^${exponent} ≈ ${shareMantissa}·10^${shareExponent}·3^${m * n}`];
    if (result.exact !== undefined) {
      lines.push(
        `exact       ${result.exact} (${result.exactSource === 'paper' ? "the paper's Tables 3 and 5" : 'computed by the column transfer'})`,
      );
      if (!result.fitted) lines.push(`relative error of the estimate ${result.relativeError!.toExponential(2)}`);
    }
    if (result.fitted) {
      lines.push(`fitted on ${fittedOn(k)}: this board's value is one of them, so the comparison shows nothing`);
      const { holdout } = result;
      if (holdout !== undefined)
        lines.push(
          `relative error with A, B, L from ${fittedOn(holdout.from)} instead, which do not use it: ${holdout.relativeError.toExponential(2)}`,
        );
    }
    lines.push(`A = ${named.A}  B = ${named.B}  L = ${named.L}  (from ${fittedOn(k)})`);
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
