/**
 * The toolkit's computations that take a board (`sample`, `games`), for the library and the command
 * alike: each checks its options once, here, and runs as a Promise that gives the event loop a turn
 * every few tens of milliseconds, so that a signal stops it and a progress callback is heard.
 */

import { callbackOption, checkOptionNames, OptionNames, signalOption, wholeNumber } from '../shared/arguments.js';
import { boardOf, sweepOf } from '../board/shape.js';
import { AbortedError, UsageError } from '../shared/errors.js';
import { EventLoopTurns } from '../shared/event-loop-turns.js';
import { countGames, GameCount } from './go/games.js';
import { DEFAULT_RUNS } from './defaults.js';
import { buildGameGraph, edgeCount, nodeCount } from './go/game-graph.js';
import { MAX_GAME_POINTS, MAX_GRAPH_POINTS } from './defaults.js';
import { HeuristicSampler, MAX_SAMPLE_POINTS, SampleResult, seededRandom } from './sample/heuristic-sampling.js';

export interface SampleOptions {
  readonly m: number;
  readonly n: number;
  /** Probes to average, at least 2 (default DEFAULT_RUNS, 1000). */
  readonly runs?: number;
  /** Seed of the generator, 0 to 2^32 − 1: the same seed gives the same sample (default: from the clock, given in the result). */
  readonly seed?: number;
  /** Stops the sample (an AbortedError) within a few tens of milliseconds. */
  readonly signal?: AbortSignal;
  /** Hears the probes done so far, and `runs`, every few tens of milliseconds, and once all are done. */
  readonly onProgress?: (probesDone: number, runs: number) => void;
}

const SAMPLE_OPTIONS: OptionNames<SampleOptions> = { m: true, n: true, runs: true, seed: true, signal: true, onProgress: true };

/** A sample's estimate, and the seed that repeats it. */
export interface SampleOutcome extends SampleResult {
  readonly seed: number;
}

/** Board points swept between two readings of the clock: a few microseconds of probing. */
const POINTS_PER_CLOCK = 1024;

/** An unbiased estimate of L(m,n) by Heuristic Sampling, with its standard error. */
export async function sample(options: SampleOptions): Promise<SampleOutcome> {
  checkOptionNames('sample', options, SAMPLE_OPTIONS);
  const board = boardOf(options.m, options.n);
  if (board.m * board.n > MAX_SAMPLE_POINTS) {
    throw new UsageError(`board ${board.m}x${board.n}: sample handles boards of up to ${MAX_SAMPLE_POINTS} points`, 'GOCOUNT_INVALID_SIZE');
  }
  const runs = wholeNumber('runs', options.runs ?? DEFAULT_RUNS, 2);
  const seed = wholeNumber('seed', options.seed ?? Date.now() % 2 ** 32, 0, 2 ** 32 - 1);
  const signal = signalOption(options.signal);
  const onProgress = callbackOption('onProgress', options.onProgress);
  const sampler = new HeuristicSampler(sweepOf(board), seededRandom(seed));
  const mean = sampler.runningMean();
  const stopped = () => new AbortedError(`sample ${board.m}x${board.n} stopped after ${mean.count} of ${runs} probes`);
  const turns = new EventLoopTurns(signal, stopped, Math.ceil(POINTS_PER_CLOCK / (board.m * board.n)));
  for (let run = 1; run <= runs; run++) {
    mean.add(sampler.probe());
    if (turns.due()) {
      onProgress?.(run, runs);
      await turns.take();
    }
  }
  onProgress?.(runs, runs);
  return { ...mean.result(), seed };
}

export interface GamesOptions {
  readonly m: number;
  readonly n: number;
  /** Stops the search for games (an AbortedError) within a few tens of milliseconds. */
  readonly signal?: AbortSignal;
  /** Hears the simple paths searched so far every few seconds while the games are counted. */
  readonly onProgress?: (pathsSearched: number) => void;
}

const GAMES_OPTIONS: OptionNames<GamesOptions> = { m: true, n: true, signal: true, onProgress: true };

export interface GamesResult {
  /** The legal positions, and the moves of either colour between them. */
  readonly nodes: number;
  readonly edges: number;
  /** Games under positional superko, on boards of up to MAX_GAME_POINTS points. */
  readonly games?: GameCount;
}

/** The game graph of a tiny board, and its number of games where that can be counted (2×2 takes about 15 minutes). */
export async function games(options: GamesOptions): Promise<GamesResult> {
  checkOptionNames('games', options, GAMES_OPTIONS);
  const board = boardOf(options.m, options.n);
  if (board.m * board.n > MAX_GRAPH_POINTS) {
    throw new UsageError(`board ${board.m}x${board.n}: games handles boards of up to ${MAX_GRAPH_POINTS} points`, 'GOCOUNT_INVALID_SIZE');
  }
  const signal = signalOption(options.signal);
  const onProgress = callbackOption('onProgress', options.onProgress);
  const stopped = () => new AbortedError(`games ${board.m}x${board.n} stopped (a search for games does not resume: it starts again)`);
  const turns = new EventLoopTurns(signal, stopped);
  const graph = buildGameGraph(board.m, board.n);
  return {
    nodes: nodeCount(graph),
    edges: edgeCount(graph),
    games: board.m * board.n <= MAX_GAME_POINTS ? await countGames(graph, turns, onProgress) : undefined,
  };
}
