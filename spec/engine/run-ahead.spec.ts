// A worker whose step ended in run files begins the next one inside a window without waiting for
// the others (lib/engine/pass.ts, workerStep): at most one step ahead, never into a window's first
// step, and the count, who holds what and the steps on disk are as if it had waited. Worker 1 is
// held at the end of its expansions so that worker 0 is ahead whenever it may be.
import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PassRunner, type PassOptions } from '../../lib/engine/pass.js';
import type { WorkerHandle } from '../../lib/engine/worker-handle.js';
import { planMemory } from '../../lib/engine/budget.js';
import { MOST_RESIDUES } from '../../lib/engine/state-table.js';
import { moduliFor, splitIntoPasses } from '../../lib/residues/moduli.js';
import { MANIFEST_FILE, stepFolderName } from '../../lib/format/folder-names.js';
import { ScratchFolder } from '../../lib/folder/scratch.js';
import { AbortedError } from '../../lib/shared/errors.js';
import { ignoreProgress, type OnProgress } from '../../lib/observe/progress.js';
import { oracleCount } from '../support/oracle.js';
import { SWEEP_8X6 } from '../support/kept-count.js';
import { heldTwice, holders } from '../support/holders.js';
import { tempScratch } from '../support/scratch.js';

const { width: WIDTH, columns: COLUMNS } = SWEEP_8X6;
const STEPS = WIDTH * COLUMNS;
const ROWS = 4;
const MODULI = splitIntoPasses(moduliFor(STEPS), MOST_RESIDUES)[0];
/** How long worker 1 waits at most for worker 0 to begin the next step: a failing test, not a hang. */
const HOLD_MS = 2000;

interface Call {
  readonly worker: number;
  readonly op: 'expand' | 'finish';
  readonly step: number;
  readonly at: 'start' | 'end';
}

const insideWindow = (step: number) => step < STEPS && (step % WIDTH) % ROWS !== 0;

/**
 * A pass of 8×6 in two threads whose workers' calls are logged; worker 1, after expanding a step,
 * is held until worker 0 began the next or waits for the coordinator; onAhead(step) as worker 0
 * begins a step before worker 1 ended the one before.
 */
class WatchedPass extends PassRunner {
  readonly calls: Call[] = [];
  private readonly onAhead: (step: number) => void;

  constructor(options: PassOptions, onAhead: (step: number) => void = () => {}) {
    super(options);
    this.onAhead = onAhead;
  }

  protected override openWorkers(): WorkerHandle[] {
    return super.openWorkers().map((handle, worker) => this.watched(handle, worker));
  }

  private watched(handle: WorkerHandle, worker: number): WorkerHandle {
    const { calls } = this;
    let expanding = -1;
    return {
      begin: (toFiles) => handle.begin(toFiles),
      expand: async (step, files, onProgress, owners) => {
        expanding = step;
        calls.push({ worker, op: 'expand', step, at: 'start' });
        if (
          worker === 0 &&
          calls.some((c) => c.worker === 1 && c.op === 'expand' && c.step === step - 1 && c.at === 'start' && !ended(1, step - 1))
        )
          this.onAhead(step);
        const part = await handle.expand(step, files, onProgress, owners);
        // Worker 0, once its expansion ended, either ends the step at once and begins the next, or waits for the coordinator.
        if (worker === 1 && insideWindow(step + 1)) await this.until(() => started(0, step + 1) || (ended(0, step) && !finishing(0, step)));
        calls.push({ worker, op: 'expand', step, at: 'end' });
        return part;
      },
      finish: async (toFiles) => {
        const step = expanding;
        calls.push({ worker, op: 'finish', step, at: 'start' });
        const end = await handle.finish(toFiles);
        calls.push({ worker, op: 'finish', step, at: 'end' });
        return end;
      },
      legalSums: (step, files) => handle.legalSums(step, files),
      save: (step) => handle.save(step),
      actAs: (workers) => handle.actAs(workers),
      close: () => handle.close(),
    };

    function started(w: number, step: number): boolean {
      return calls.some((c) => c.worker === w && c.op === 'expand' && c.step === step && c.at === 'start');
    }
    function ended(w: number, step: number): boolean {
      return calls.some((c) => c.worker === w && c.op === 'expand' && c.step === step && c.at === 'end');
    }
    function finishing(w: number, step: number): boolean {
      return calls.some((c) => c.worker === w && c.op === 'finish' && c.step === step && c.at === 'start');
    }
  }

  private async until(ready: () => boolean): Promise<void> {
    const from = performance.now();
    while (!ready() && performance.now() - from < HOLD_MS) await new Promise((resolve) => setTimeout(resolve, 2));
  }

  /** Where in the log a call is: −1 if never made. */
  at(worker: number, op: Call['op'], step: number, at: Call['at']): number {
    return this.calls.findIndex((c) => c.worker === worker && c.op === op && c.step === step && c.at === at);
  }
}

function passOptions(
  scratchDir: string,
  options: { memory: number; keep: boolean; signal?: AbortSignal; onProgress?: OnProgress },
): PassOptions {
  return {
    width: WIDTH,
    columns: COLUMNS,
    moduli: MODULI,
    plan: planMemory(options.memory, MODULI.length, 16, WIDTH, 2),
    fanIn: 16,
    record: { keep: options.keep, madeAbove: 0 },
    scratchDir,
    workers: 2,
    windowRows: ROWS,
    onProgress: options.onProgress ?? ignoreProgress,
    signal: options.signal,
    pass: 0,
    passes: 1,
  };
}

const exact = () => MODULI.map((p) => Number(oracleCount(SWEEP_8X6) % BigInt(p)));

test('8×6 in two threads, every step kept: worker 0 runs one step ahead inside each window, never further nor into a window, exact', async (t) => {
  const scratchDir = tempScratch(t);
  const pass = new WatchedPass(passOptions(scratchDir, { memory: 8 << 20, keep: true }));
  const result = await pass.run();
  t.deepEqual(result.perColumn[COLUMNS - 1], exact());
  for (let step = 1; step < STEPS; step++) {
    const begun = pass.at(0, 'expand', step, 'start');
    if (insideWindow(step))
      t.true(begun < pass.at(1, 'expand', step - 1, 'end'), `step ${step + 1}: worker 0 began it before worker 1 ended the one before`);
    // Every worker's step before has ended before a window's first step begins, and the one before that before any step.
    const last = insideWindow(step) ? step - 2 : step - 1;
    for (const worker of [0, 1])
      for (let before = 0; before <= last; before++)
        t.true(pass.at(worker, 'finish', before, 'end') < Math.min(begun, pass.at(1, 'expand', step, 'start')), `step ${step + 1}`);
  }
  // Who holds what is the windows' ownership: no state in two workers' runs at any step.
  const folder = new ScratchFolder(scratchDir, { width: WIDTH, columns: COLUMNS, moduli: MODULI });
  for (let step = 1; step <= STEPS; step++) {
    t.deepEqual(heldTwice(step, holders(folder.stepDir(step))), []);
  }
});

test('8×6 in two threads whose tables fill: the steps written while a worker runs ahead give L(8,6)', async (t) => {
  const pass = new WatchedPass(passOptions(tempScratch(t), { memory: 1 << 20, keep: false }));
  const result = await pass.run();
  t.deepEqual(result.perColumn[COLUMNS - 1], exact());
  const ahead = Array.from({ length: STEPS }, (_, step) => step).filter(
    (step) => step > 0 && pass.at(0, 'expand', step, 'start') < pass.at(1, 'expand', step - 1, 'end'),
  );
  t.true(ahead.length > 10, `worker 0 ran ahead into steps ${ahead.map((s) => s + 1).join(', ')}`);
  t.true(
    ahead.every((step) => insideWindow(step)),
    `${ahead}`,
  );
});

test('8×6 stopped while worker 0 runs ahead: its step without a manifest goes, the count resumes after the last complete one, exact', async (t) => {
  const scratchDir = tempScratch(t);
  const controller = new AbortController();
  // Asked to stop as worker 0 begins step 11 (placing row 2 of column 2) ahead of worker 1, the
  // count ends step 10 with both, writes its manifest, and stops there.
  const stopping = new WatchedPass(passOptions(scratchDir, { memory: 8 << 20, keep: true, signal: controller.signal }), (step) => {
    if (step === 10) controller.abort();
  });
  const error = await t.throwsAsync(stopping.run(), { instanceOf: AbortedError });
  t.regex(error!.message, /step 11/);
  t.true(stopping.at(0, 'expand', 10, 'start') >= 0, 'worker 0 began step 11');
  const folder = new ScratchFolder(scratchDir, { width: WIDTH, columns: COLUMNS, moduli: MODULI });
  t.true(existsSync(path.join(folder.stepDir(10), MANIFEST_FILE)));
  t.false(existsSync(folder.stepDir(11)), `${stepFolderName(11)} was removed`);
  t.deepEqual(
    readdirSync(scratchDir, { recursive: true }).filter((name) => String(name).includes('.tmp')),
    [],
  );
  const notes: string[] = [];
  const onProgress: OnProgress = (event) => event.type === 'note' && notes.push(event.message);
  const resumed = await new PassRunner(passOptions(scratchDir, { memory: 8 << 20, keep: true, onProgress })).run();
  t.deepEqual(resumed.perColumn[COLUMNS - 1], exact());
  t.true(
    notes.some((note) => /steps 1–10 of 48 are complete in .*: resuming at step 11/.test(note)),
    notes.join('\n'),
  );
});
