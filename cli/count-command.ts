/** The default command: count the legal positions of one board. */

import type { CommandModule } from 'yargs';
import { parseBoard } from '../lib/board/shape.js';
import { DEFAULT_FAN_IN, DEFAULT_RETRIES, DEFAULT_SCRATCH, defaultWorkers, MAX_WORKERS } from '../lib/count/defaults.js';
import { MAX_PARTITIONED_WORKERS, MAX_PARTITIONS } from '../lib/cluster/limits.js';
import { LAUNCHERS, LauncherName } from '../lib/cluster/launcher.js';
import { UsageError } from '../lib/shared/errors.js';
import { refuseFlags } from './refuse-flags.js';
import { progressDisplay } from './progress-display.js';
import { numberOption } from './number-option.js';
import { suggestCommand } from './suggest.js';
import { stopOnSignals } from './stop-signals.js';
import { UnsavedSteps } from './unsaved-steps.js';
import type { OnProgress } from '../lib/observe/progress.js';
import { MAX_SHARD_BYTES, MIN_SHARD_BYTES } from '../lib/engine/table-limits.js';
import { formatBytes } from '../lib/shared/units.js';

export const DEFAULT_BOARD = '9x9';

interface CountArgs {
  size?: (string | number)[];
  _: (string | number)[];
  json: boolean;
  'keep-orientation': boolean;
  memory?: string;
  scratch: string;
  disk?: string;
  'fan-in': number;
  'window-rows'?: number;
  keep: boolean;
  quiet: boolean;
  stats: boolean;
  'stats-json'?: string;
  residues: boolean;
  'residues-per-pass'?: number;
  'table-memory'?: string;
  workers?: number;
  partitions?: number;
  threads?: number;
  launcher?: string;
  retries?: number;
  'task-timeout'?: number;
  'all-columns': boolean;
  oracle: boolean;
  plan: boolean;
  cores?: number;
}

export const countCommand: CommandModule<object, CountArgs> = {
  command: '$0 [size..]',
  describe: 'count the legal positions of a board',
  builder: (y) =>
    y
      .positional('size', {
        describe: `board size as MxN (9x9) or M N (9 9) (default: ${DEFAULT_BOARD})`,
        type: 'string',
        array: true,
      })
      .option('memory', {
        alias: ['S', 'buffer-size'],
        type: 'string',
        describe:
          "memory budget for the engine's buffers, like 512M, 4G or 50% (of the memory available to the process: " +
          'the cgroup limit when lower than physical memory); peak RSS stays within it plus a fixed overhead (default: half the free memory)',
      })
      .option('scratch', {
        alias: ['T', 'temporary-directory'],
        type: 'string',
        default: DEFAULT_SCRATCH,
        describe:
          'folder for run files; each board and modulus set gets its own subfolder, and a rerun with the same folder resumes an interrupted count',
      })
      .option('disk', {
        type: 'string',
        describe: 'disk budget, like 20G: refuse to start when the count may need more',
      })
      .option('fan-in', {
        ...numberOption('fan-in'),
        default: DEFAULT_FAN_IN,
        describe: 'the most run files one merge opens; more are merged in several rounds',
      })
      .option('window-rows', {
        ...numberOption('window-rows'),
        describe:
          'with several workers: rows per window; a worker keeps the states it makes for that many steps (default: with up to 4 workers 4, or half the width from width 11 on; else 2)',
      })
      .option('keep', {
        type: 'boolean',
        default: false,
        describe: "keep every step's run files and manifests (normally a step's are deleted once a later step is on disk)",
      })
      .option('residues-per-pass', {
        ...numberOption('residues-per-pass'),
        describe: 'moduli per pass: fewer cut memory and disk per pass, at the price of more passes (default: all in one)',
      })
      .option('table-memory', {
        type: 'string',
        describe:
          "the most bytes of records in one WebAssembly memory of a worker's state table, like 1G or 64K; a larger table " +
          `spans several memories; ${formatBytes(MIN_SHARD_BYTES)} to ${formatBytes(MAX_SHARD_BYTES)}, not with --partitions (default: ${formatBytes(MAX_SHARD_BYTES)})`,
      })
      .option('workers', {
        ...numberOption('workers'),
        describe:
          `worker threads, 1 to ${MAX_WORKERS}: N splits the states between N threads, each with 1/N of --memory; ` +
          `1 counts in the main thread (default: the number recorded by the count being resumed, else one per core, ${defaultWorkers()} here); ` +
          `with --partitions, the workers of each task, each a share of the states (P × N at most ${MAX_PARTITIONED_WORKERS}), which its --threads serve`,
      })
      .option('partitions', {
        ...numberOption('partitions'),
        describe:
          `split the count into P partition tasks, 1 to ${MAX_PARTITIONS}, that exchange their states through files in --scratch ` +
          '(on a cluster, a folder every node shares); --memory and --workers are then per task (default: --workers 1)',
      })
      .option('threads', {
        ...numberOption('threads'),
        describe:
          "with --partitions: the threads of each task's process, 1 to --workers, each serving some of its workers in turn " +
          `(default: --workers, at most one per core, ${defaultWorkers()} here)`,
      })
      .option('launcher', {
        type: 'string',
        choices: LAUNCHERS,
        describe:
          'how partition tasks run, each a process that serves every step: local (child processes, as many as cores) or slurm (one job array per pass) (default: local)',
      })
      .option('retries', {
        ...numberOption('retries'),
        describe: `launches of a step's unfinished partition tasks after the first (default: ${DEFAULT_RETRIES})`,
      })
      .option('task-timeout', {
        ...numberOption('task-timeout'),
        describe:
          'with --partitions: seconds a task may show no sign of life before it is killed (or cancelled) and launched again ' +
          "(default: at least 60, 3 × the longest step so far, and 1 s per 64 MiB of a task's --memory)",
      })
      .option('all-columns', {
        type: 'boolean',
        default: false,
        describe:
          'also print L(w,1) … L(w,c), the count of every column prefix of the sweep, from the same run: ' +
          "w is the board's narrower side (the first with --keep-orientation) and c the other",
      })
      .option('residues', {
        type: 'boolean',
        default: false,
        describe: 'also print the count modulo each modulus',
      })
      .option('stats', {
        type: 'boolean',
        default: false,
        describe:
          'print per-step figures (states, runs, redundancy, bytes written), ' +
          'the cost model (ns per state in each phase of each step) and totals on stderr',
      })
      .option('stats-json', {
        type: 'string',
        describe:
          'also write the per-step log (one JSON line per step, every pass) to FILE, rewritten after each step; FILE outlives the count folder',
      })
      .option('quiet', {
        type: 'boolean',
        default: false,
        describe: 'no progress on stderr (notes and warnings are still printed)',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe:
          'print {"m", "n", "legal"} as JSON, the count as a decimal string (plus "columns", "residues", and with --stats "stats" and the step log as "steps")',
      })
      .option('keep-orientation', {
        type: 'boolean',
        default: false,
        describe: 'sweep the board M points wide as given, instead of along its narrower side',
      })
      .option('plan', {
        type: 'boolean',
        default: false,
        describe:
          'print what the count would do (memory plan, moduli and passes, states per column, disk, bytes written and time estimates) and the warnings it would give, and exit',
      })
      .option('cores', {
        ...numberOption('cores'),
        describe:
          "with --plan: plan for a machine of N cores, its workers (one per core unless --workers says) and its time (default: this machine's)",
      })
      .option('oracle', {
        type: 'boolean',
        default: false,
        describe: 'count with the exact in-memory BigInt counter instead of the engine (small boards; for checking)',
      }),
  handler: async (args) => {
    // Words after "--" land in args._; they are sizes too ("gocount -- -1 5" must be refused).
    const words = [...(args.size ?? []), ...args._];
    refuseCommandTypo(words);
    const board = parseBoard(words.length > 0 ? words : [DEFAULT_BOARD]);
    const { countLegal, countLegalInMemory, planCount, diskText, formatPlan, formatCostTable, formatStepTable, formatSummary } =
      await countModules();
    const display = progressDisplay(process.stderr, args.quiet);
    const unsaved = new UnsavedSteps();
    const onProgress: OnProgress = (event) => {
      unsaved.track(event);
      display(event);
    };
    const stop = stopOnSignals(
      (message) => onProgress({ type: 'note', message }),
      () => unsaved.lost(),
    );
    const options = {
      m: board.m,
      n: board.n,
      memory: args.memory,
      scratch: args.scratch,
      disk: args.disk,
      fanIn: args['fan-in'],
      keep: args.keep,
      keepOrientation: args['keep-orientation'],
      residuesPerPass: args['residues-per-pass'],
      tableMemory: args['table-memory'],
      workers: args.workers,
      windowRows: args['window-rows'],
      partitions: args.partitions,
      threads: args.threads,
      launcher: args.launcher as LauncherName | undefined,
      retries: args.retries,
      taskTimeout: args['task-timeout'],
      allColumns: args['all-columns'],
      statsJson: args['stats-json'],
      onProgress,
      signal: stop.signal,
    };
    const out: Record<string, unknown> = { m: board.m, n: board.n };
    const lines: string[] = [];

    if (args.cores !== undefined && !args.plan)
      throw new UsageError('--cores: only with --plan, which plans for a machine of that many cores');
    if (args.oracle) refuseEngineFlags(args);
    if (args.plan) {
      stop.dispose();
      const plan = planCount({ ...options, cores: args.cores });
      // The count's own warnings, on stderr as the count gives them (and, as there, not silenced by --quiet).
      for (const message of plan.warnings) onProgress({ type: 'note', message });
      process.stdout.write(args.json ? `${JSON.stringify(plan)}\n` : formatPlan(plan));
      return;
    }
    if (args.disk !== undefined && !args.quiet) {
      // A count over the budget is refused with the estimate in its message.
      const { disk, diskBudget } = planCount(options);
      if (disk.bytes <= diskBudget!) process.stderr.write(`gocount: disk for this count: ${diskText(disk)}\n`);
    }
    if (args.oracle) {
      stop.dispose(); // the oracle does not stop between steps: a signal ends it as usual
      const legal = countLegalInMemory({ m: board.m, n: board.n, keepOrientation: args['keep-orientation'] });
      out.legal = legal.toString();
      lines.push(String(legal));
    } else {
      // The handlers stay on a failure until the process exits: a second signal meanwhile still exits 130 or 143.
      const result = await countLegal(options).then(
        (counted) => {
          stop.dispose();
          return counted;
        },
        (error) => Promise.reject(stop.exitCodeFor(error)),
      );
      out.legal = result.legal.toString();
      if (result.columns) {
        out.columns = result.columns.map((column) => ({ ...column, legal: column.legal.toString() }));
        for (const column of result.columns) lines.push(`${column.m}x${column.n} ${column.legal}`);
      } else {
        lines.push(String(result.legal));
      }
      if (args.residues) {
        out.residues = result.residues;
        for (const { modulus, residue } of result.residues) lines.push(`mod ${modulus}: ${residue}`);
      }
      if (args.stats) {
        out.stats = result.stats;
        out.steps = result.log;
        process.stderr.write(
          `${formatStepTable(result.steps, result.sweep.width)}\n${formatCostTable(result.steps)}\n${formatSummary(result.stats)}\n`,
        );
      }
    }
    process.stdout.write(args.json ? `${JSON.stringify(out)}\n` : `${lines.join('\n')}\n`);
  },
};

/** The engine, its plan, and the text of both. */
async function countModules() {
  const [counting, plan, planText, statsTables] = await Promise.all([
    import('../lib/count/count-legal.js'),
    import('../lib/count/plan.js'),
    import('./plan-text.js'),
    import('./stats-tables.js'),
  ]);
  return { ...counting, ...plan, ...planText, ...statsTables };
}

/** A word, not a size, where the size goes: a mistyped command ("verfy") is named as one. */
function refuseCommandTypo(words: (string | number)[]): void {
  const word = String(words[0] ?? '');
  if (!/^[a-z]{2,}$/i.test(word)) return;
  const meant = suggestCommand(word);
  throw new UsageError(
    meant ? `unknown command "${word}": did you mean "${meant}"?` : `"${word}" is neither a command nor a board size (see gocount --help)`,
  );
}

/** --oracle counts in memory, without the engine: the engine's flags, and its plan, would be ignored, so they are refused. */
function refuseEngineFlags(args: CountArgs): void {
  const given: Array<[string, boolean]> = [
    ['--memory', args.memory !== undefined],
    ['--scratch', args.scratch !== DEFAULT_SCRATCH],
    ['--disk', args.disk !== undefined],
    ['--fan-in', args['fan-in'] !== DEFAULT_FAN_IN],
    ['--keep', args.keep],
    ['--residues-per-pass', args['residues-per-pass'] !== undefined],
    ['--table-memory', args['table-memory'] !== undefined],
    ['--workers', args.workers !== undefined],
    ['--window-rows', args['window-rows'] !== undefined],
    ['--partitions', args.partitions !== undefined],
    ['--threads', args.threads !== undefined],
    ['--launcher', args.launcher !== undefined],
    ['--retries', args.retries !== undefined],
    ['--task-timeout', args['task-timeout'] !== undefined],
    ['--all-columns', args['all-columns']],
    ['--residues', args.residues],
    ['--stats', args.stats],
    ['--stats-json', args['stats-json'] !== undefined],
    ['--plan', args.plan],
    ['--cores', args.cores !== undefined],
  ];
  refuseFlags(
    given,
    (names, several) => `--oracle counts in memory without the engine: ${names} ${several ? 'do' : 'does'} not apply to it`,
  );
}
