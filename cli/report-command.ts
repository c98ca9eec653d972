/** `gocount report PATH`: a self-contained HTML page with charts of a count's per-step log. */

import type { CommandModule } from 'yargs';
import { systemProblem, UsageError } from '../lib/shared/errors.js';
import { writeFileAtomically } from '../lib/format/atomic.js';
import { writableFile } from '../lib/format/writable-file.js';

interface ReportArgs {
  path: string;
  output: string;
  json: boolean;
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <path>',
  describe: "write an HTML page with charts of a count's per-step log",
  builder: (y) =>
    y
      .positional('path', {
        type: 'string',
        demandOption: true,
        describe: 'a count folder, a folder holding the folders of one count (such as scratch/9x9/), or a --stats-json file',
      })
      .option('output', { alias: 'o', type: 'string', default: 'report.html', describe: 'the HTML file to write' })
      .option('json', { type: 'boolean', default: false, describe: 'print a summary of the report as JSON' })
      .example('gocount report scratch/9x9', 'write report.html about the 9×9 count kept in scratch/')
      .example('gocount report stats.jsonl -o 13x13.html', 'the same from a file written by --stats-json'),
  handler: async (args) => {
    const [{ renderReport }, { loadReport }] = await Promise.all([
      import('../lib/report/html-report.js'),
      import('../lib/report/report-data.js'),
    ]);
    const data = loadReport(args.path);
    const output = writableFile('output', args.output);
    try {
      writeFileAtomically(output, renderReport(data));
    } catch (error) {
      throw new UsageError(`--output ${args.output}: cannot be written: ${systemProblem(error)}`);
    }
    if (!args.json) {
      process.stdout.write(`${output}\n`);
      return;
    }
    const summary = {
      path: data.path,
      output,
      width: data.width,
      columns: data.columns,
      passes: data.passes,
      steps: data.stepsDone,
      stepsTotal: data.stepsTotal,
      status: data.status,
      legal: data.legal?.toString() ?? null,
      seconds: data.totals.seconds,
      states: data.totals.states,
      bytesOut: data.totals.bytesOut,
      secondsLeft: data.secondsLeft ?? null,
      expectedEnd: data.expectedEnd ?? null,
      logs: data.files,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  },
};
