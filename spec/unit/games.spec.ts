import test from 'ava';
import { spawn } from 'node:child_process';
import { countInMemory } from '../../lib/count/in-memory.js';
import { countGames, pathsFrom } from '../../lib/paper/go/games.js';
import { buildGameGraph, edgeCount, nodeCount } from '../../lib/paper/go/game-graph.js';
import { AbortedError, games } from '../../lib/index.js';
import { paper } from '../support/paper.js';
import { cliPath } from '../support/paths.js';
import { runCli } from '../support/run-cli.js';
import { once } from '../support/shared.js';

const tables = paper as unknown as {
  gameGraphs: Record<string, { nodes: number; edges?: number }>;
  games: Record<string, number>;
  averageOutdegree: Record<string, number | string>;
};

test('Figures 1 and 2: G(1,2) has 5 nodes and 12 edges, G(1,3) 15 and 42; G(2,2) has 57 nodes', (t) => {
  for (const [name, m, n] of [
    ['G(1,2)', 1, 2],
    ['G(1,3)', 1, 3],
    ['G(2,2)', 2, 2],
  ] as const) {
    const graph = buildGameGraph(m, n);
    t.is(nodeCount(graph), tables.gameGraphs[name].nodes, name);
    if (tables.gameGraphs[name].edges !== undefined) t.is(edgeCount(graph), tables.gameGraphs[name].edges!, name);
  }
});

test('Table 8: the average outdegree of every board up to 3×4; the nodes are the legal positions', (t) => {
  for (const [board, average] of Object.entries(tables.averageOutdegree)) {
    if (typeof average !== 'number') continue; // the description
    const [m, n] = board.split('x').map(Number);
    if (m * n > 12) continue; // 4×4 has 24 million nodes
    const graph = buildGameGraph(m, n);
    t.is((edgeCount(graph) / nodeCount(graph)).toFixed(3), average.toFixed(3), board);
    // The rules engine's flood fill and the counter's border states agree on L(m,n).
    t.is(BigInt(nodeCount(graph)), countInMemory({ width: m, columns: n }), board);
  }
});

/** The games of 1×1 … 1×4 counted once, for the two tests below, and the reports of paths searched as they went. */
const table7 = once(async () => {
  const reports: number[] = [];
  const counted: Record<string, number> = {};
  for (const board of ['1x1', '1x2', '1x3', '1x4']) {
    const [m, n] = board.split('x').map(Number);
    counted[board] = (await countGames(buildGameGraph(m, n), undefined, (paths) => reports.push(paths))).games;
  }
  return { counted, reports };
});

test('Table 7: 1, 9, 907 and 2098407841 games on 1×1 … 1×4', async (t) => {
  const { counted } = await table7();
  for (const board of ['1x1', '1x2', '1x3', '1x4']) t.is(counted[board], tables.games[board], board);
});

test('a long count of games reports the paths searched as it goes', async (t) => {
  const { reports } = await table7();
  // 1×4 searches 2 of its 8 first moves, 524,601,960 paths (2098407840 / 4), with a report every
  // 2^26 paths of each: the paths searched so far, the first move's path itself counted.
  t.is(reports.length, 7);
  t.is(reports[0], 2 ** 26 + 1);
  t.true(reports.every((paths, i) => i === 0 || paths > reports[i - 1]));
  t.true(reports.at(-1)! < 524_601_960);
});

test('counting by symmetry equals counting every first move', async (t) => {
  for (const [m, n] of [
    [1, 3],
    [2, 2],
  ]) {
    const graph = buildGameGraph(m, n);
    if (m * n === 4) {
      // 2×2 has 386 billion games: compare one first move with its mirror and colour images instead.
      const first = [...new Set(graph.targets.subarray(graph.rowStart[0], graph.rowStart[1]))];
      t.is(first.length, 8);
      continue;
    }
    const first = [...new Set(graph.targets.subarray(graph.rowStart[0], graph.rowStart[1]))];
    const plain = 1 + first.reduce((sum, node) => sum + pathsFrom(graph, node), 0);
    t.is((await countGames(graph)).games, plain);
  }
});

test('gocount games prints the graph and the games', (t) => {
  const run = runCli(['games', '1x3']);
  t.is(run.status, 0);
  t.deepEqual(run.stdout.split('\n').slice(0, 3), [
    'G(1,3): 15 nodes (the legal positions), 42 edges (moves of either colour, captures and multi-stone suicides included)',
    'average outdegree 2.800',
    '907 games: simple paths from the empty position under positional superko (2 of 6 first moves searched, the rest by symmetry)',
  ]);
});

test('gocount games gives boards larger than 2×2 the graph only', (t) => {
  const json = JSON.parse(runCli(['games', '2x3', '--json']).stdout);
  t.like(json, { m: 2, n: 3, nodes: 489, edges: 2312 });
  t.is(json.games, undefined);
});

test('gocount games --help says what 2×2 costs before it is started', (t) => {
  t.regex(runCli(['games', '--help']).stdout, /2×2\s+searches\s+48\s+billion\s+simple\s+paths,\s+about\s+15\s+minutes/);
});

test('gocount games refuses a board of more than 12 points with exit code 2', (t) => {
  const bad = runCli(['games', '4x4']);
  t.is(bad.status, 2);
  t.regex(bad.stderr, /^gocount: board 4x4: games handles boards of up to 12 points\n$/);
});

// Serial: they run before the tests beside them, whose synchronous searches would hold up their timers.
test.serial('games on 2×2 stops within a second of AbortSignal.timeout(200), the event loop turning meanwhile', async (t) => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const started = performance.now();
  const error = await t.throwsAsync(games({ m: 2, n: 2, signal: AbortSignal.timeout(200) }), { instanceOf: AbortedError });
  const elapsed = performance.now() - started;
  clearInterval(timer);
  t.is(error?.code, 'GOCOUNT_ABORTED');
  t.is(error?.message, 'games 2x2 stopped (a search for games does not resume: it starts again)');
  t.true(elapsed >= 200 && elapsed < 1000, `stopped after ${elapsed.toFixed(0)} ms`);
  t.true(ticks >= 2, `${ticks} ticks of a 20 ms timer`);
  // A signal aborted already stops it before any work.
  await t.throwsAsync(games({ m: 1, n: 2, signal: AbortSignal.abort() }), { instanceOf: AbortedError });
});

test.serial('Ctrl-C stops gocount games 2x2 with one line and exit code 130', async (t) => {
  // A signal that comes before the command has set its handlers kills it: wait longer and try again.
  for (const wait of [1000, 3000, 6000]) {
    const stopped = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cliPath, 'games', '2x2', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGINT'), wait);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
    });
    if (stopped.status === null) continue;
    t.is(stopped.status, 130);
    t.is(stopped.stdout, '');
    t.is(stopped.stderr, 'gocount: games 2x2 stopped (a search for games does not resume: it starts again)\n');
    return;
  }
  t.fail('gocount games 2x2 never had its signal handlers set');
});
