/**
 * The toolkit's computations that take a board, for the library and the command alike: each checks
 * its input once, here. (validStates, recurrence and estimate take theirs directly.)
 */

import { boardOf, sweepOf } from './board/shape.js';
import { InvalidOptionError, UsageError } from './errors.js';
import { countGames, GameCount, MAX_GAME_POINTS } from './go/count-games.js';
import { buildGameGraph, edgeCount, MAX_GRAPH_POINTS, nodeCount } from './go/game-graph.js';
import { HeuristicSampler, MAX_SAMPLE_POINTS, SampleResult, seededRandom } from './sample/heuristic-sampling.js';

export interface SampleOptions {
  readonly m: number;
  readonly n: number;
  /** Probes to average, at least 2. */
  readonly runs: number;
  /** Seed of the generator, 0 to 2^32 − 1: the same seed gives the same sample. */
  readonly seed: number;
}

/** An unbiased estimate of L(m,n) by Heuristic Sampling, with its standard error. */
export function sample(options: SampleOptions): SampleResult {
  const board = boardOf(options.m, options.n);
  if (board.m * board.n > MAX_SAMPLE_POINTS) {
    throw new UsageError(`board ${board.m}x${board.n}: sample handles boards of up to ${MAX_SAMPLE_POINTS} points`, 'GOCOUNT_INVALID_SIZE');
  }
  if (!Number.isInteger(options.runs) || options.runs < 2)
    throw new InvalidOptionError('runs', options.runs, 'must be a whole number of at least 2');
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed >= 2 ** 32) {
    throw new InvalidOptionError('seed', options.seed, 'must be a whole number from 0 to 4294967295');
  }
  return new HeuristicSampler(sweepOf(board), seededRandom(options.seed)).sample(options.runs);
}

export interface GamesResult {
  /** The legal positions, and the moves of either colour between them. */
  readonly nodes: number;
  readonly edges: number;
  /** Games under positional superko, on boards of up to MAX_GAME_POINTS points. */
  readonly games?: GameCount;
}

/**
 * The game graph of a tiny board, and its number of games where that can be counted (2×2 takes
 * minutes: `onProgress` hears the simple paths searched so far every few seconds).
 */
export function games(m: number, n: number, onProgress?: (pathsSearched: number) => void): GamesResult {
  const board = boardOf(m, n);
  if (board.m * board.n > MAX_GRAPH_POINTS) {
    throw new UsageError(`board ${board.m}x${board.n}: games handles boards of up to ${MAX_GRAPH_POINTS} points`, 'GOCOUNT_INVALID_SIZE');
  }
  const graph = buildGameGraph(board.m, board.n);
  return {
    nodes: nodeCount(graph),
    edges: edgeCount(graph),
    games: board.m * board.n <= MAX_GAME_POINTS ? countGames(graph, onProgress) : undefined,
  };
}
