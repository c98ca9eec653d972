import test from 'ava';
import { BLACK, EMPTY, GoBoard, WHITE } from '../../lib/paper/go/rules.js';

const _ = EMPTY;
const X = BLACK;
const O = WHITE;

test('legality: every string needs a liberty', (t) => {
  const board = new GoBoard(2, 2);
  t.true(board.isLegal(board.encode([_, _, _, _])));
  t.true(board.isLegal(board.encode([X, O, _, _])));
  t.false(board.isLegal(board.encode([X, O, O, _]))); // X at the corner has no liberty
  t.false(board.isLegal(board.encode([X, X, X, X])));
});

test('a move captures the enemy strings it takes the last liberty of, then its own (suicide)', (t) => {
  const line = new GoBoard(1, 4);
  // O X . . : white at 2 captures X at 1.
  t.deepEqual(line.decode(line.play(line.encode([O, X, _, _]), 2, WHITE)), [O, _, O, _]);
  // . O . X : black at 2 has no liberty and takes none from O: a two-stone suicide.
  t.deepEqual(line.decode(line.play(line.encode([_, O, _, X]), 2, BLACK)), [_, O, _, _]);
  // A one-stone suicide leaves the position as it was: X at 3 has no liberty, O at 2 keeps one.
  const start = line.encode([_, _, O, _]);
  t.is(line.play(start, 3, BLACK), start);
  // X at 1 between two lone white stones captures the one it leaves without a liberty.
  t.deepEqual(line.decode(line.play(line.encode([O, _, O, _]), 1, BLACK)), [_, X, O, _]);
  // Capture comes before suicide: X at 0 has no liberty, but it takes O's last one, so O goes and X lives.
  t.deepEqual(line.decode(line.play(line.encode([_, O, X, _]), 0, BLACK)), [X, _, X, _]);
});

test('neighbours follow the board: corners have 2, edges 3, the centre 4', (t) => {
  const board = new GoBoard(3, 3);
  t.deepEqual(
    board.neighbours.map((list) => list.length),
    [2, 3, 2, 3, 4, 3, 2, 3, 2],
  );
});
