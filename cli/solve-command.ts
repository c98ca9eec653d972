/** `gocount solve MxN`: the value of a small board under a cycle rule, by retrograde analysis. */

import type { CommandModule } from 'yargs';
import { parseBoard } from '../lib/board/shape.js';
import { UsageError } from '../lib/shared/errors.js';
import type { SolveProgress } from '../lib/solve/option-types.js';
import {
  CYCLE_RULES,
  type CycleRule,
  DEFAULT_RULE,
  DEFAULT_SCORING,
  DEFAULT_SYMMETRY,
  DEFAULT_TO_MOVE,
  SCORINGS,
  type Scoring,
} from '../lib/solve/defaults.js';
import { refuseFlags } from './refuse-flags.js';
import { formatLookUp, formatSolve } from './solve-text.js';

interface SolveArgs {
  size?: (string | number)[];
  rule?: CycleRule;
  scoring?: Scoring;
  json: boolean;
  stats: boolean;
  db?: string;
  position?: string;
  'to-move'?: 'black' | 'white';
  'after-pass': boolean;
  ko?: string;
  quiet: boolean;
  memory?: string;
  scratch?: string;
  symmetry: boolean;
  'empty-board-only': boolean;
}

/**
 * Progress on stderr: a line when a phase ends, with the time since the start, and every few
 * seconds within a long one. --quiet silences it.
 */
function solveProgress(label: string, quiet: boolean): SolveProgress {
  if (quiet) return () => {};
  const started = Date.now();
  let shown = started;
  return (phase, done, total, detail) => {
    const now = Date.now();
    const seconds = ((now - started) / 1000).toFixed(1);
    const percent = `${Math.floor((100 * done) / total)}%${detail ? ` (${detail})` : ''}`;
    if (done >= total) process.stderr.write(`${label}: ${phase} done, ${seconds} s\n`);
    else if (now - shown >= 5000) process.stderr.write(`${label}: ${phase} ${percent}, ${seconds} s\n`);
    else return;
    shown = now;
  };
}

/** Flags of a solve that a look-up (--position) has no use for, and the other way round. */
const solveOnly = (args: SolveArgs): Array<[string, boolean]> => [
  ['--memory', args.memory !== undefined],
  ['--scratch', args.scratch !== undefined],
  ['--no-symmetry', !args.symmetry],
  ['--empty-board-only', args['empty-board-only']],
  ['--stats', args.stats],
];
const lookUpOnly = (args: SolveArgs): Array<[string, boolean]> => [
  ['--to-move', args['to-move'] !== undefined],
  ['--after-pass', args['after-pass']],
  ['--ko', args.ko !== undefined],
];
const onlyTo = (what: string) => (names: string, several: boolean) => `${names} ${several ? 'apply' : 'applies'} only to ${what}`;

/** A size, rule or scoring given with --position must be the database's: the look-up answers for the database's alone. */
function checkAgainstDatabase(args: SolveArgs, header: { m: number; n: number; rule: string; scoring: string }): void {
  const db = `${args.db} holds ${header.m}x${header.n} under ${header.rule} with ${header.scoring} scoring`;
  if (args.size !== undefined && args.size.length > 0) {
    const { m, n } = parseBoard(args.size);
    if (m !== header.m || n !== header.n) throw new UsageError(`board ${m}x${n} given, but ${db}`);
  }
  if (args.rule !== undefined && args.rule !== header.rule) throw new UsageError(`--rule ${args.rule} given, but ${db}`);
  if (args.scoring !== undefined && args.scoring !== header.scoring) throw new UsageError(`--scoring ${args.scoring} given, but ${db}`);
}

export const solveCommand: CommandModule<object, SolveArgs> = {
  command: 'solve [size..]',
  describe: 'the value of the empty board and its best first moves, by retrograde analysis over every legal position (up to 16 points)',
  builder: (y) =>
    y
      .positional('size', { describe: 'board size as MxN or M N', type: 'string', array: true })
      .option('rule', {
        choices: CYCLE_RULES,
        describe:
          'no-cycle: no move may repeat a position (situational superko); cycle-draw: simple ko, a longer cycle is a draw (default: no-cycle)',
      })
      .option('scoring', {
        choices: SCORINGS,
        describe:
          'tromp-taylor: empty points reaching both colours count for nobody; split-shared: they are split, an odd one to the player who passed first (the paper) (default: tromp-taylor)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON (its value field is the value)' })
      .option('stats', {
        type: 'boolean',
        default: false,
        describe:
          'also print the retrograde analysis: epochs, cycles, the history search and its table of earlier results, states by value',
      })
      .option('db', { type: 'string', describe: 'with a size: write the database to FILE; with --position: read it from FILE' })
      .option('position', { type: 'string', describe: 'look a position up in --db: rows from the top, separated by /, of X, O and .' })
      .option('to-move', {
        choices: ['black', 'white'] as const,
        describe: 'with --position: the player to move (default: black)',
      })
      .option('after-pass', { type: 'boolean', default: false, describe: 'with --position: the last move was a pass' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress lines on stderr' })
      .option('memory', {
        type: 'string',
        describe:
          "memory budget, like 512M, 4G or 50%: moves beyond it are kept in files under --scratch and read in blocks, and under cycle-draw the states too when they do not fit; under no-cycle what it leaves holds the search's table of earlier results (default: half the free memory)",
      })
      .option('scratch', {
        type: 'string',
        describe:
          "folder for the files of moves and states beyond --memory, and for a no-cycle solve's checkpoint, from which the same command resumes (default: ./scratch)",
      })
      .option('symmetry', {
        type: 'boolean',
        default: DEFAULT_SYMMETRY,
        describe: "cycle-draw: keep one position per orbit of the board's rotations and reflections; --no-symmetry keeps them all",
      })
      .option('empty-board-only', {
        type: 'boolean',
        default: false,
        describe:
          'no-cycle: value only the empty board, and which first moves achieve it (the others get a bound), not every state (far less search; no --db, no states by value)',
      })
      .option('ko', {
        type: 'string',
        describe: 'with --position, cycle-draw: the point (a1, b2, …) the player to move may not retake at once',
      }),
  handler: async (args) => {
    if (args.position !== undefined) {
      if (args.db === undefined) throw new UsageError('--position needs --db FILE, a database written by gocount solve MxN --db FILE');
      refuseFlags(solveOnly(args), onlyTo('a solve, not to a look-up with --position'));
      const toMove = args['to-move'] ?? DEFAULT_TO_MOVE;
      const { lookUp } = await import('../lib/solve/look-up.js');
      const found = lookUp(args.db, { position: args.position, toMove, afterPass: args['after-pass'], ko: args.ko });
      checkAgainstDatabase(args, found.header);
      const { header, value, bestMoves, moves } = found;
      process.stdout.write(args.json ? `${JSON.stringify({ ...header, value, bestMoves, moves })}\n` : formatLookUp(found, toMove));
      return;
    }
    if (args.size === undefined || args.size.length === 0)
      throw new UsageError('solve needs a board size (MxN), or --db FILE with --position');
    refuseFlags(lookUpOnly(args), onlyTo('a look-up with --position'));
    const rule = args.rule ?? DEFAULT_RULE;
    const { m, n } = parseBoard(args.size);
    if (args['empty-board-only'] && rule === 'no-cycle' && args.db !== undefined)
      throw new UsageError('--db needs every state valued: leave out --empty-board-only');
    const said = !args.quiet && !args.json;
    const { solve } = await import('../lib/solve/solve.js');
    const result = solve({
      m,
      n,
      rule,
      scoring: args.scoring ?? DEFAULT_SCORING,
      memory: args.memory,
      scratch: args.scratch,
      symmetry: args.symmetry,
      emptyBoardOnly: args['empty-board-only'],
      db: args.db,
      onResume: said ? (checkpoint) => process.stderr.write(`solve ${m}x${n}: resuming from ${checkpoint}\n`) : undefined,
      onProgress: solveProgress(`solve ${m}x${n}`, !said),
    });
    // The process's peak resident size, for npm run bench -- --solve.
    if (args.json) process.stdout.write(`${JSON.stringify({ ...result, peakRss: process.resourceUsage().maxRSS * 1024 })}\n`);
    else process.stdout.write(formatSolve(result, args.db, args.stats));
  },
};
