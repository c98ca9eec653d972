/**
 * The done-markers of a partitioned count's step: one from each partition task that made it (none
 * in step 0, which the driver writes), each whole (CRC-32) and about this step, the runs they list
 * being exactly the manifest's, each once and written by one of the task's own workers, and
 * dropped masses that add up to the manifest's; the states they held in memory inside a window
 * (no file) are the manifest's, worker by worker. With the count's conservation check this ties the
 * law to every task: 3 × the step's mass = the next step's mass + the dropped mass of all tasks.
 */

import path from 'node:path';
import { GocountError } from '../shared/errors.js';
import { MANIFEST_FILE, parseTaskMarkerName, taskMarkerName } from '../format/folder-names.js';
import type { StepManifest } from '../format/manifest.js';
import { readTaskMarker, TaskMarker } from '../format/task-marker.js';
import type { Problem } from './problems.js';

export function checkMarkers(dir: string, manifest: StepManifest, names: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  const markerNames = names.filter((name) => parseTaskMarkerName(name) !== undefined);
  const partitioned = manifest.runs.some((run) => run.source !== undefined) || manifest.held !== undefined;
  if (!partitioned || manifest.step === 0) {
    for (const name of markerNames) problems.push({ file: path.join(dir, name), problem: 'done-marker in a step no partition task made' });
    return problems;
  }
  for (const name of markerNames) {
    if (parseTaskMarkerName(name)! >= manifest.partitions)
      problems.push({ file: path.join(dir, name), problem: `done-marker of a task beyond the count's ${manifest.partitions} partitions` });
  }
  const listed = new Map(manifest.runs.map((run) => [run.file, run]));
  const claimed = new Set<string>();
  const heldListed = new Map((manifest.held ?? []).map((held) => [held.worker, held]));
  const heldClaimed = new Set<number>();
  const dropped = manifest.moduli.map(() => 0);
  for (let part = 0; part < manifest.partitions; part++) {
    const file = path.join(dir, taskMarkerName(part));
    const problem = (what: string) => problems.push({ file, problem: what });
    if (!names.includes(taskMarkerName(part))) {
      problem(`missing: the step has no done-marker of task ${part}`);
      continue;
    }
    let marker: TaskMarker;
    try {
      marker = readTaskMarker(file);
    } catch (error) {
      if (!(error instanceof GocountError)) throw error;
      problem(error.message.slice(file.length + 2));
      continue;
    }
    if (
      marker.step !== manifest.step ||
      marker.part !== part ||
      marker.partitions !== manifest.partitions ||
      marker.workers !== manifest.workers
    ) {
      problem('describes another task or count than its step folder');
      continue;
    }
    const first = part * manifest.workers;
    for (const run of marker.runs) {
      const summary = listed.get(run.file);
      if (!summary || summary.records !== run.records || summary.crc !== run.crc || summary.sums.join() !== run.sums.join())
        problem(`lists ${run.file} otherwise than the manifest does`);
      else if (claimed.has(run.file)) problem(`lists ${run.file}, which another done-marker lists too`);
      else if (!(run.source! >= first && run.source! < first + manifest.workers))
        problem(`lists ${run.file}, written by worker ${run.source}, not one of task ${part}'s`);
      claimed.add(run.file);
    }
    for (const held of marker.held ?? []) {
      const summary = heldListed.get(held.worker);
      if (!(held.worker >= first && held.worker < first + manifest.workers))
        problem(`holds states of worker ${held.worker}, not one of task ${part}'s`);
      else if (!summary || summary.records !== held.records || summary.sums.join() !== held.sums.join())
        problem(`gives worker ${held.worker}'s states held in memory otherwise than the manifest does`);
      heldClaimed.add(held.worker);
    }
    marker.dropped.forEach((mass, r) => (dropped[r] = (dropped[r] + mass) % manifest.moduli[r]));
  }
  for (const worker of heldListed.keys()) {
    if (!heldClaimed.has(worker))
      problems.push({
        file: path.join(dir, MANIFEST_FILE),
        problem: `gives worker ${worker}'s states as held in memory, which no done-marker does`,
      });
  }
  const manifestFile = path.join(dir, MANIFEST_FILE);
  for (const run of manifest.runs) {
    if (!claimed.has(run.file)) problems.push({ file: manifestFile, problem: `lists ${run.file}, which no done-marker lists` });
  }
  if (dropped.join() !== manifest.dropped.join())
    problems.push({ file: manifestFile, problem: "dropped mass is not the sum of the done-markers' dropped masses" });
  return problems;
}
