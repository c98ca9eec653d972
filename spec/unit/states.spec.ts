import test from 'ava';
import { distinctStatesByColumn } from '../support/reachable.js';
import { validClasses, validStates } from '../../lib/paper/valid-classes.js';
import { paper } from '../support/paper.js';
import { runCli } from '../support/run-cli.js';

test('Table 1: valid border state classes at y = 0 and y = M − 1, for every height up to 19', (t) => {
  for (const [m, { y0, ymax }] of Object.entries(paper.validBorderStateClasses.byHeight)) {
    t.is(validClasses(Number(m), 0), y0, `height ${m}, y = 0`);
    t.is(validClasses(Number(m), Number(m) - 1), ymax, `height ${m}, y = ${Number(m) - 1}`);
  }
});

test('the balanced paths by hand: 5 states of height 1, 17 of height 2 at y = 0 and 25 at y = 1', (t) => {
  t.is(validStates(1, 0), 5); // empty, two stones with a liberty, two without
  t.is(validStates(2, 0), 17);
  t.is(validStates(2, 1), 25);
});

test("valid is a superset of constructible: the sweep reaches all but the paper's unconstructible classes", (t) => {
  // The classes a sweep reaches at column boundaries are the constructible 0-classes (§5.2):
  // height 3 has exactly one valid class that no position makes (Figure 6a).
  const reached = [1, 2, 3, 4, 5].map((m) => distinctStatesByColumn(m, 2 * m + 2).at(-1)!);
  t.deepEqual(reached, [3, 9, 31, 110, 436]);
  t.deepEqual(
    [1, 2, 3, 4, 5].map((m) => validClasses(m, 0)),
    [3, 9, 32, 117, 444],
  );
});

test("gocount states prints every y, Table 1's columns and the bits", (t) => {
  const run = runCli(['states', '3']);
  t.is(run.status, 0);
  t.deepEqual(run.stdout.split('\n').slice(0, 7), [
    'valid border states of height 3 (a class is a state and its colour reversal)',
    '  y           states          classes',
    '  0               63               32',
    '  1               89               45',
    '  2               91               46',
    'Table 1: 32 classes at y = 0, 46 at y = 2',
    'bits: 9 in the 3-bit field encoding gocount and the paper use; 6 would number the classes densely',
  ]);
});

test('gocount states --json gives the counts, the bits and a row per y', (t) => {
  const json = JSON.parse(runCli(['states', '19', '--json']).stdout);
  t.like(json, { m: 19, y0: 248661924718, ymax: 363324268018, bits: { fields: 57, dense: 39 } });
  t.is(json.rows.length, 19);
});

test('gocount states refuses a height over 19 with exit code 2', (t) => {
  const bad = runCli(['states', '20']);
  t.is(bad.status, 2);
  t.regex(bad.stderr, /^gocount: height 20: states handles heights 1 to 19\n$/);
});
