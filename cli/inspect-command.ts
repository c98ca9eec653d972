/** `gocount inspect FILE`: a run file's header, trailer and records, human-readably. */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { inspectRun } from '../lib/verify/inspect.js';
import { counted } from '../lib/plural.js';

interface InspectArgs {
  file: string;
  first: number;
  skip: number;
  json: boolean;
}

export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect <file>',
  describe: "print a run file's header, trailer and records, each state rendered",
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'a .run file' })
      .option('first', { ...numberOption('first'), default: 10, describe: 'how many records to print' })
      .option('skip', { ...numberOption('skip'), default: 0, describe: 'records to pass over before printing' })
      .option('json', { type: 'boolean', default: false, describe: 'print the inspection as JSON' })
      .epilog(
        'States, top to bottom: # edge, . empty, X O black and white stones with a liberty, letters libertyless strings (upper case black).',
      ),
  handler: (args) => {
    const found = inspectRun(args.file, args.skip, args.first);
    if (args.json) {
      process.stdout.write(`${JSON.stringify(found)}\n`);
    } else {
      const { header, trailer } = found;
      const stateWidth = Math.max(header.width, 'state'.length);
      const lines = [
        `file     ${found.file} (${found.bytes} bytes)`,
        `format   gocount run file, version ${header.version}`,
        `sweep    ${header.width} wide, ${counted(header.columns, 'column')}`,
        `step     ${counted(header.step, 'point')} placed ` +
          `(column ${Math.floor(header.step / header.width) + 1}, next point at y = ${header.step % header.width})`,
        `run      ${header.run}`,
        `moduli   ${header.moduli.join(' ')}`,
        typeof trailer === 'string'
          ? `trailer  ${trailer}`
          : `trailer  ${counted(trailer.records, 'record')}, residue sums ${trailer.sums.join(' ')}, CRC-32 0x${trailer.crc.toString(16).padStart(8, '0')}`,
        '',
        `${'record'.padStart(8)}  ${'state'.padEnd(stateWidth)}  code${' '.repeat(22)}residues`,
        ...found.records.map(
          (r) => `${String(r.record).padStart(8)}  ${r.state.padEnd(stateWidth)}  ${r.code.padEnd(26)}${r.residues.join(' ')}`,
        ),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    if (found.error) {
      process.stderr.write(`gocount: ${found.error}\n`);
      process.exitCode = 1;
    }
  },
};
