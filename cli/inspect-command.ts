/** `gocount inspect FILE`: a run file's header, trailer and records, human-readably. */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { DEFAULT_LIMIT, DEFAULT_SKIP } from '../lib/verify/defaults.js';
import type { Inspection } from '../lib/verify/inspect.js';
import { counted } from '../lib/shared/plural.js';
import { crcText } from '../lib/format/crc-text.js';
import { runFileChecksum } from '../lib/format/layout.js';
import { splitChecksum, type SplitRule } from '../lib/format/split-layout.js';

interface InspectArgs {
  file: string;
  first: number;
  skip: number;
  json: boolean;
}

export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect <file>',
  describe: "print a run file's header, trailer and records, each state rendered; of a split run file, also the sections of its index",
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'a .run file' })
      .option('first', { ...numberOption('first'), default: DEFAULT_LIMIT, describe: 'how many records to print' })
      .option('skip', { ...numberOption('skip'), default: DEFAULT_SKIP, describe: 'records to pass over before printing' })
      .option('json', { type: 'boolean', default: false, describe: 'print the inspection as JSON' })
      .epilog(
        'States, top to bottom: # edge, . empty, X O black and white stones with a liberty, letters libertyless strings (upper case black).',
      ),
  handler: async (args) => {
    const { inspectRun } = await import('../lib/verify/inspect.js');
    const found = inspectRun(args.file, args.skip, args.first);
    if (args.json) {
      process.stdout.write(`${JSON.stringify(found)}\n`);
    } else {
      const { header, trailer, sections } = found;
      const stateWidth = Math.max(header.width, 'state'.length);
      // A split run's records are numbered within their worker's section: a column more.
      const worker = (r: { worker?: number }) => (sections ? `${String(r.worker).padStart(6)}  ` : '');
      const checksumName = (sections ? splitChecksum(header.version) : runFileChecksum(header.version)).name;
      const lines = [
        `file     ${found.file} (${found.bytes} bytes)`,
        `format   gocount ${sections ? 'split ' : ''}run file, version ${header.version}`,
        `sweep    ${header.width} wide, ${counted(header.columns, 'column')}`,
        `step     ${counted(header.step, 'point')} placed ` +
          `(column ${Math.floor(header.step / header.width) + 1}, next point at y = ${header.step % header.width})`,
        `run      ${header.run}`,
        ...('owners' in header ? [`owners   ${header.owners}, written by worker ${header.writer}`] : []),
        ...('window' in header && header.window ? [windowLine(header.window, header.width)] : []),
        `moduli   ${header.moduli.join(' ')}`,
        typeof trailer === 'string'
          ? `trailer  ${trailer}`
          : `${'indexOffset' in trailer ? 'footer ' : 'trailer'}  ${counted(trailer.records, 'record')}, residue sums ${trailer.sums.join(' ')}, ${checksumName} ${crcText(trailer.crc)}` +
            ('indexOffset' in trailer ? `; index at byte ${trailer.indexOffset}, ${counted(trailer.chunks, 'chunk')}` : ''),
        ...(sections
          ? [
              '',
              `${'worker'.padStart(6)}  ${'records'.padStart(9)}  ${'chunks'.padStart(7)}  ${'bytes'.padStart(11)}  ${checksumName}`,
              ...sections.map(
                (s) =>
                  `${String(s.worker).padStart(6)}  ${String(s.records).padStart(9)}  ${String(s.chunks).padStart(7)}  ${String(s.bytes).padStart(11)}  ${crcText(s.crc)}`,
              ),
            ]
          : []),
        '',
        ...(pastTheEnd(args.skip, found)
          ? [`--skip ${args.skip} is past the last record: the file holds ${counted(found.trailer.records, 'record')}`]
          : [
              `${sections ? `${'worker'.padStart(6)}  ` : ''}${'record'.padStart(8)}  ${'state'.padEnd(stateWidth)}  code${' '.repeat(22)}residues`,
              ...found.records.map(
                (r) =>
                  `${worker(r)}${String(r.record).padStart(8)}  ${r.state.padEnd(stateWidth)}  ${r.code.padEnd(26)}${r.residues.join(' ')}`,
              ),
            ]),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    if (found.error) {
      process.stderr.write(`gocount: ${found.error}\n`);
      process.exitCode = 1;
    }
  },
};

/** Whether --skip passed over every record of a sound file: an empty table would not say why. */
function pastTheEnd(skip: number, found: Inspection): found is Inspection & { trailer: { records: number } } {
  return skip > 0 && found.error === undefined && typeof found.trailer !== 'string' && skip >= found.trailer.records;
}

/** A split run's window: its states belong to the owners of their keys' buckets (lib/border/window-key.ts). */
function windowLine(window: SplitRule, width: number): string {
  const last = Math.min(width, window.r + window.rows) - 1;
  const rows = last > window.r ? `rows ${window.r}–${last}` : `row ${window.r}`;
  return `window   ${rows} of ${window.lastColumn ? 'the last column' : 'an inner column'}; each state is the owner of its key's bucket, of ${window.owners.length} in the header`;
}
