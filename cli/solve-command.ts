/** `gocount solve MxN`: the value of a small board under a cycle rule, by retrograde analysis. */

import { existsSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { parseBoard } from '../lib/board/shape.js';
import { scratchOption } from '../lib/count/count-options.js';
import { UsageError } from '../lib/errors.js';
import { refuseFlags } from './refuse-flags.js';
import { writableFile } from '../lib/format/writable-file.js';
import { lookUp } from '../lib/solve/look-up.js';
import { checkpointFile } from '../lib/solve/files/search-checkpoint.js';
import { SCORINGS, type Scoring } from '../lib/solve/rules/solve-board.js';
import { writeSolveDb } from '../lib/solve/files/solve-db.js';
import { checkSolveOptions } from '../lib/solve/solve-options.js';
import { solveResult, solveBoard, type SolveProgress } from '../lib/solve/solve.js';
import { CYCLE_RULES, type CycleRule } from '../lib/solve/rules/state-space.js';
import { formatBytes } from '../lib/units.js';
import { counted } from '../lib/plural.js';

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

const signed = (v: number): string => (v > 0 ? `+${v}` : `${v}`);

const scoringText: Record<Scoring, string> = {
  'tromp-taylor': 'Tromp–Taylor area scoring',
  'split-shared': 'area scoring, shared points split',
};

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
          'no-cycle (the default): no move may repeat a position (situational superko); cycle-draw: simple ko, a longer cycle is a draw',
      })
      .option('scoring', {
        choices: SCORINGS,
        describe:
          'tromp-taylor (the default): empty points reaching both colours count for nobody; split-shared: they are split, an odd one to the player who passed first (the paper)',
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
        describe: 'with --position: the player to move (default black)',
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
        default: true,
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
  handler: (args) => {
    if (args.position !== undefined) {
      if (args.db === undefined) throw new UsageError('--position needs --db FILE, a database written by gocount solve MxN --db FILE');
      refuseFlags(solveOnly(args), onlyTo('a solve, not to a look-up with --position'));
      const toMove = args['to-move'] ?? 'black';
      const found = lookUp(args.db, { position: args.position, toMove, afterPass: args['after-pass'], ko: args.ko });
      checkAgainstDatabase(args, found.header);
      if (args.json) {
        process.stdout.write(
          `${JSON.stringify({ ...found.header, value: found.value, bestMoves: found.bestMoves, moves: found.moves })}\n`,
        );
        return;
      }
      process.stdout.write(
        `${signed(found.value)} for ${toMove === 'black' ? 'Black' : 'White'} (to move), rule ${found.header.rule}, ${scoringText[found.header.scoring]}\n` +
          `best moves: ${found.bestMoves.join(', ')}\n`,
      );
      return;
    }
    if (args.size === undefined || args.size.length === 0)
      throw new UsageError('solve needs a board size (MxN), or --db FILE with --position');
    refuseFlags(lookUpOnly(args), onlyTo('a look-up with --position'));
    const rule = args.rule ?? 'no-cycle';
    const { m, n } = parseBoard(args.size);
    if (args['empty-board-only'] && rule === 'no-cycle' && args.db !== undefined)
      throw new UsageError('--db needs every state valued: leave out --empty-board-only');
    // Checked before the solve, which may take hours: not after it.
    if (args.db !== undefined) writableFile('db', args.db);
    const started = performance.now();
    const scoring = args.scoring ?? 'tromp-taylor';
    const options = {
      m,
      n,
      rule,
      scoring,
      memory: args.memory,
      scratch: args.scratch,
      symmetry: args.symmetry,
      emptyBoardOnly: args['empty-board-only'],
      onProgress: solveProgress(`solve ${m}x${n}`, args.quiet || args.json),
    };
    checkSolveOptions(options); // a bad --memory is refused before anything is said of a resume
    const checkpoint = checkpointFile(scratchOption(args.scratch), m, n, rule, scoring);
    if (rule === 'no-cycle' && !args['empty-board-only'] && !args.quiet && !args.json && existsSync(checkpoint))
      process.stderr.write(`solve ${m}x${n}: resuming from ${checkpoint}\n`);
    const solved = solveBoard(options);
    let result;
    try {
      if (args.db !== undefined) writeSolveDb(args.db, solved);
      result = solveResult(solved, (performance.now() - started) / 1000);
      solved.checkpoint?.remove();
    } finally {
      solved.dispose();
    }
    if (args.json) {
      // The process's peak resident size, for npm run bench -- --solve.
      process.stdout.write(`${JSON.stringify({ ...result, peakRss: process.resourceUsage().maxRSS * 1024 })}\n`);
      return;
    }
    const { value } = result;
    const outcome = value === 0 ? 'a draw' : `${value > 0 ? 'Black' : 'White'} wins by ${Math.abs(value)}`;
    const lines = [
      `${m}x${n}, rule ${result.rule}: ${signed(value)} for Black, ${outcome}, with best play (${scoringText[result.scoring]}, komi 0)`,
      `best first moves: ${result.bestMoves.join(', ')}`,
      (result.symmetries > 1
        ? `${counted(result.legalPositions, 'position')}, ${result.positions} up to the ${result.symmetries} symmetries, `
        : `${counted(result.positions, 'position')}, `) +
        `${counted(result.states, 'state')}, ${counted(result.edges, 'move')}; ${result.seconds.toFixed(2)} s`,
    ];
    if (args.db !== undefined) lines.push(`database written to ${args.db}`);
    if (args.stats) {
      const r = result.retrograde;
      lines.push(
        r.statesOnDisk
          ? `forward checking: not run, the states were kept on disk (beyond --memory); threshold games: ${counted(r.rounds, 'round')}; ` +
              `working files: ${formatBytes(r.diskBytes)} at most`
          : `forward checking: ${counted(r.epochs, 'epoch')}, ${counted(r.stable, 'state')} stable, ${r.unstable} unstable`,
        r.movesOnDisk && result.rule === 'cycle-draw'
          ? `positions in cycles: not found, the ${r.statesOnDisk ? 'states' : 'moves'} were kept on disk (beyond --memory)`
          : `positions in cycles: ${r.cyclePositions} in ${counted(r.cycleComponents, 'component')} (largest ${r.largestComponent}), ` +
              counted(r.cycleStates, 'state') +
              (result.rule === 'no-cycle'
                ? `; history search: ${counted(r.searchNodes, 'position')}, ${r.tableHits} bounded by earlier results ` +
                  `(a table of ${r.tableEntries} entries, ${formatBytes(r.tableBytes)}), ` +
                  `${counted(r.fromImages, 'state')} valued by a symmetric image, ${counted(r.revised, 'forward-checked value')} revised` +
                  (r.resumed > 0
                    ? `; resumed with ${counted(r.resumed, 'state')} valued, the table of earlier results ${r.tableResumed}`
                    : '')
                : ''),
        `first moves: ${result.moves.map((move) => `${move.move} ${move.atMost ? 'at most ' : ''}${signed(move.value)}`).join(', ')}`,
        result.emptyBoardOnly
          ? 'states by value: not found, only the empty board was valued (--empty-board-only)'
          : `states by value: ${Object.entries(result.valueCounts)
              .filter(([, count]) => count > 0)
              .map(([v, count]) => `${signed(Number(v))}: ${count}`)
              .join(', ')}`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
