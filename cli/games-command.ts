/** `gocount games MxN`: the game graph of a tiny board and its number of games (paper §4, §7). */

import type { CommandModule } from 'yargs';
import { parseBoard } from '../lib/board/shape.js';
import { MAX_GAME_POINTS, MAX_GRAPH_POINTS } from '../lib/paper/defaults.js';
import { counted } from '../lib/shared/plural.js';
import { stoppedBySignals } from './stop-signals.js';

interface GamesArgs {
  size: (string | number)[];
  json: boolean;
  quiet: boolean;
}

export const gamesCommand: CommandModule<object, GamesArgs> = {
  command: 'games <size..>',
  describe:
    `the game graph of a tiny board (nodes, edges, average outdegree; up to ${MAX_GRAPH_POINTS} points) ` +
    `and its number of games (up to ${MAX_GAME_POINTS} points; 2×2 searches 48 billion simple paths, about 15 minutes)`,
  builder: (y) =>
    y
      .positional('size', { describe: 'board size as MxN or M N', type: 'string', array: true, demandOption: true })
      .option('json', { type: 'boolean', default: false, describe: 'print the figures as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress lines on stderr while the games are counted' }),
  handler: async (args) => {
    const { m, n } = parseBoard(args.size);
    const { games } = await import('../lib/paper/toolkit.js');
    const started = performance.now();
    // The search reports every few seconds; a line every 5 s at most.
    let shown = started;
    const progress = (paths: number) => {
      const now = performance.now();
      if (now - shown < 5000) return;
      shown = now;
      process.stderr.write(`games ${m}x${n}: ${paths.toExponential(2)} simple paths searched, ${((now - started) / 1000).toFixed(0)} s\n`);
    };
    const onProgress = args.quiet || args.json ? undefined : progress;
    const { nodes, edges, games: gamesFound } = await stoppedBySignals((signal) => games({ m, n, signal, onProgress }));
    const seconds = (performance.now() - started) / 1000;
    const outdegree = nodes > 0 ? edges / nodes : 0;
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ m, n, nodes, edges, averageOutdegree: outdegree, games: gamesFound?.games, seconds })}\n`);
      return;
    }
    const lines = [
      `G(${m},${n}): ${counted(nodes, 'node')} (the legal positions), ${counted(edges, 'edge')} (moves of either colour, captures and multi-stone suicides included)`,
      `average outdegree ${outdegree.toFixed(3)}`,
      gamesFound
        ? `${counted(gamesFound.games, 'game')}: simple paths from the empty position under positional superko ` +
          `(${gamesFound.firstMovesSearched} of ${counted(gamesFound.firstMoves, 'first move')} searched, the rest by symmetry)`
        : `games: not counted above ${MAX_GAME_POINTS} points (the next boards have about 10^31 and more)`,
      `${seconds.toFixed(2)} s`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
