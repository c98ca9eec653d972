/** `gocount solve`: a solve's result and a look-up's answer, as text for stdout. */

import type { LookUpResult, RetrogradeStats, Scoring, SolveResult } from '../lib/index.js';
import { formatBytes } from '../lib/shared/units.js';
import { counted } from '../lib/shared/plural.js';

const signed = (v: number): string => (v > 0 ? `+${v}` : `${v}`);

const scoringText: Record<Scoring, string> = {
  'tromp-taylor': 'Tromp–Taylor area scoring',
  'split-shared': 'area scoring, shared points split',
};

/** A look-up's value for the player to move, and its best moves. */
export function formatLookUp(found: LookUpResult, toMove: 'black' | 'white'): string {
  const { header } = found;
  return (
    `${signed(found.value)} for ${toMove === 'black' ? 'Black' : 'White'} (to move), rule ${header.rule}, ${scoringText[header.scoring]}\n` +
    `best moves: ${found.bestMoves.join(', ')}\n`
  );
}

/** The empty board's value and best first moves, the figures, where the database went and, with `stats`, the retrograde analysis. */
export function formatSolve(result: SolveResult, db: string | undefined, stats: boolean): string {
  const { m, n, value } = result;
  const outcome = value === 0 ? 'a draw' : `${value > 0 ? 'Black' : 'White'} wins by ${Math.abs(value)}`;
  const positions =
    result.symmetries > 1
      ? `${counted(result.legalPositions, 'position')}, ${result.positions} up to the ${result.symmetries} symmetries, `
      : `${counted(result.positions, 'position')}, `;
  const lines = [
    `${m}x${n}, rule ${result.rule}: ${signed(value)} for Black, ${outcome}, with best play (${scoringText[result.scoring]}, komi 0)`,
    `best first moves: ${result.bestMoves.join(', ')}`,
    `${positions}${counted(result.states, 'state')}, ${counted(result.edges, 'move')}; ${result.seconds.toFixed(2)} s`,
  ];
  if (db !== undefined) lines.push(`database written to ${db}`);
  if (stats) lines.push(forwardChecking(result.retrograde), cycles(result), firstMoves(result), statesByValue(result));
  return `${lines.join('\n')}\n`;
}

function forwardChecking(r: RetrogradeStats): string {
  if (!r.statesOnDisk)
    return `forward checking: ${counted(r.epochs, 'epoch')}, ${counted(r.stable, 'state')} stable, ${r.unstable} unstable`;
  return (
    `forward checking: not run, the states were kept on disk (beyond --memory); threshold games: ${counted(r.rounds, 'round')}; ` +
    `working files: ${formatBytes(r.diskBytes)} at most`
  );
}

/** The positions in cycles and, under no-cycle, the history search. */
function cycles({ rule, retrograde: r }: SolveResult): string {
  if (r.movesOnDisk && rule === 'cycle-draw')
    return `positions in cycles: not found, the ${r.statesOnDisk ? 'states' : 'moves'} were kept on disk (beyond --memory)`;
  const found =
    `positions in cycles: ${r.cyclePositions} in ${counted(r.cycleComponents, 'component')} (largest ${r.largestComponent}), ` +
    counted(r.cycleStates, 'state');
  return rule === 'no-cycle' ? `${found}; ${historySearch(r)}` : found;
}

function historySearch(r: RetrogradeStats): string {
  const resumed =
    r.resumed > 0 ? `; resumed with ${counted(r.resumed, 'state')} valued, the table of earlier results ${r.tableResumed}` : '';
  return (
    `history search: ${counted(r.searchNodes, 'position')}, ${r.tableHits} bounded by earlier results ` +
    `(a table of ${r.tableEntries} entries, ${formatBytes(r.tableBytes)}), ` +
    `${counted(r.fromImages, 'state')} valued by a symmetric image, ${counted(r.revised, 'forward-checked value')} revised${resumed}`
  );
}

function firstMoves(result: SolveResult): string {
  return `first moves: ${result.moves.map((move) => `${move.move} ${move.atMost ? 'at most ' : ''}${signed(move.value)}`).join(', ')}`;
}

function statesByValue(result: SolveResult): string {
  if (result.emptyBoardOnly) return 'states by value: not found, only the empty board was valued (--empty-board-only)';
  const counts = Object.entries(result.valueCounts).filter(([, count]) => count > 0);
  return `states by value: ${counts.map(([v, count]) => `${signed(Number(v))}: ${count}`).join(', ')}`;
}
