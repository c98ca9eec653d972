/**
 * The engine's oracle, the in-memory BigInt counter (lib/count/in-memory.ts), counted once per board
 * in a spec file's process: 8×6 takes it more than a second, and the window specs' tests all ask it
 * for the same board.
 */
import type { Sweep } from '../../lib/board/shape.js';
import { countInMemory } from '../../lib/count/in-memory.js';

const counted = new Map<string, bigint>();

export function oracleCount(sweep: Sweep): bigint {
  const board = `${sweep.width}x${sweep.columns}`;
  const known = counted.get(board);
  if (known !== undefined) return known;
  const legal = countInMemory(sweep);
  counted.set(board, legal);
  return legal;
}
