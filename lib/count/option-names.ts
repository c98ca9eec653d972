/** The names of a count's options (CountOptions), for refusing any other: the compiler keeps the list and the type alike. */

import type { OptionNames } from '../shared/arguments.js';
import type { CountOptions } from './option-types.js';

export const COUNT_OPTION_NAMES: OptionNames<CountOptions> = {
  m: true,
  n: true,
  memory: true,
  scratch: true,
  disk: true,
  workers: true,
  windowRows: true,
  residuesPerPass: true,
  fanIn: true,
  keep: true,
  keepOrientation: true,
  allColumns: true,
  partitions: true,
  launcher: true,
  retries: true,
  threads: true,
  taskTimeout: true,
  signal: true,
  onProgress: true,
  statsJson: true,
  tableMemory: true,
};
