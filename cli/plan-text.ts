/** `gocount --plan`: what a count will do, as text for stdout. */

import type { CountPlan } from '../lib/count/plan.js';
import type { DiskEstimate } from '../lib/count/engine-types.js';
import { formatBytes, formatCount, formatDuration } from '../lib/shared/units.js';
import { counted } from '../lib/shared/plural.js';
import { shardsFor } from '../lib/engine/state-table.js';

export function formatPlan(plan: CountPlan): string {
  const { board, sweep, perWorker } = plan;
  const shards = shardsFor(perWorker.tableCapacity, plan.passes[0].length, perWorker.tableShardBytes);
  const workers = counted(plan.workers, 'worker');
  const split = plan.partitions > 1 ? `${counted(plan.partitions, 'partition task')} of ${workers}` : workers;
  const lines = [
    `board     ${board.m}x${board.n}, swept ${counted(sweep.width, 'point')} wide over ${counted(sweep.columns, 'column')}: ` +
      `${counted(plan.steps, 'step')} a pass`,
    `memory    ${formatBytes(plan.memory)} for ${split}` + ` (${formatBytes(plan.available.bytes)} available, ${plan.available.source})`,
    `          each worker: a state table of ${formatCount(perWorker.tableCapacity)} slots${shards > 1 ? ` in ${shards} WebAssembly memories` : ''}, ` +
      `steps of up to ${formatCount(perWorker.memoryRunCapacity)} states kept in memory, ` +
      `batches of ${perWorker.batchRecords} records`,
    `moduli    ${plan.moduli.length}: ${plan.moduli.join(' ')}`,
    `passes    ${plan.passes.length}${plan.passes.length > 1 ? `: ${plan.passes.map((p) => p.length).join(' + ')} moduli` : ', all moduli at once'}`,
    `disk      ${diskText(plan.disk)}${plan.diskFree ? ` (${formatBytes(plan.diskFree.bytes)} free in ${plan.diskFree.at})` : ''}`,
    `written   about ${formatBytes(plan.bytesWritten)} of runs in all` +
      (plan.stepsHeld === undefined
        ? ''
        : `, all through the scratch folder: the tasks keep ${plan.stepsHeld} of the ${plan.steps} steps in memory`),
    `time      about ${formatDuration(plan.seconds)} on ${counted(plan.cores, 'core')} like the reference machine's (the states expected of each step at its measured cost per state)`,
    '',
    'states per column (Table 1 bound on its largest step):',
    ...plan.columns.map(
      (column) =>
        `  column ${String(column.column).padStart(2)}  ${formatCount(column.maxStates).padStart(8)}  ${column.inMemory ? 'in memory' : 'on disk'}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** The disk estimate in words, as --plan and --disk print it. */
export function diskText(disk: DiskEstimate): string {
  if (disk.bytes === 0) return 'none: every step fits in memory';
  return `up to ${formatBytes(disk.bytes)}, first at its peak after step ${disk.peakStep}`;
}
