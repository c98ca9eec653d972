/**
 * The help text, as yargs writes it unwrapped, made to read like a Unix manual's: each option that
 * takes a value shows a placeholder naming what it takes (`--memory SIZE`, `--db FILE`) instead of
 * yargs's type tag (`[string]`), the descriptions stay in one column, positionals lose their tags
 * (the usage line says what they are), and every line is wrapped at word boundaries to the
 * terminal, descriptions under descriptions. (The ES module build of yargs wraps in the middle of
 * words.)
 */

/** The placeholder of each option that takes a value, by its flag without the dashes. */
export const PLACEHOLDERS: Readonly<Record<string, string>> = {
  memory: 'SIZE',
  disk: 'SIZE',
  'table-memory': 'SIZE',
  scratch: 'DIR',
  'stats-json': 'FILE',
  output: 'FILE',
  coefficients: 'FILE',
  db: 'FILE',
  position: 'POSITION',
  ko: 'POINT',
  rule: 'RULE',
  scoring: 'SCORING',
  'to-move': 'COLOUR',
  'fan-in': 'N',
  workers: 'N',
  'window-rows': 'ROWS',
  'residues-per-pass': 'K',
  partitions: 'P',
  threads: 'T',
  cores: 'N',
  launcher: 'NAME',
  retries: 'N',
  'task-timeout': 'SECONDS',
  first: 'N',
  skip: 'N',
  runs: 'N',
  seed: 'N',
  digits: 'N',
  from: 'N',
  step: 'S',
  part: 'J',
};

/** The tags of an option that takes a value: its type, or, without one, its choices. */
const TYPE_TAG = / ?\[(?:string|number)\]/;
const CHOICES_TAG = /\[choices: /;
/**
 * Tags that say nothing a reader needs: a flag without a placeholder is a switch, off unless given,
 * and the usage line already says that the count is the command without a name.
 */
const NOISE = / ?\[boolean\]| ?\[default: false\]| {2}\[default\]$/g;
/** yargs's tag of a default value, said as the descriptions say theirs: `(default: 64)`, a string unquoted. */
const DEFAULT_TAG = / +\[default: (?:"([^"]*)"|([^\]]*))\]/g;
/** A positional's tags: its type, and what the usage line already says (`<size..>` is required). */
const POSITIONAL_NOISE = / ?\[(?:string|number|array|required|default: \[\])\]/g;

export function formatHelp(help: string, width: number): string {
  return withPlaceholders(help)
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n');
}

/** A row of two columns (flags or command, then description) wraps under its description; other lines under themselves. */
function wrapLine(line: string, width: number, asRow = true): string[] {
  if (line.length <= width) return [line];
  const row = asRow ? /^(\s*\S.*?\S?)( {2,})(\S.*)$/.exec(line) : null;
  const lead = /^ */.exec(line)![0].length;
  // A first column too wide to share the line (a long example) gets a line of its own.
  if (row && row[1].length + row[2].length >= width / 2) return [row[1], ...wrapLine(`${' '.repeat(lead + 4)}${row[3]}`, width, false)];
  const indent = row ? row[1].length + row[2].length : lead;
  const out: string[] = [];
  let current = line.slice(0, indent);
  let bare = true;
  for (const word of line.slice(indent).split(/ +/)) {
    if (!bare && current.length + 1 + word.length > width) {
      out.push(current);
      current = ' '.repeat(indent);
      bare = true;
    }
    current += bare ? word : ` ${word}`;
    bare = false;
  }
  out.push(current);
  return out;
}

function withPlaceholders(help: string): string {
  const lines = help.split('\n');
  let section = '';
  /** The option rows of the group under way: their line, flags with placeholder, and description. */
  let group: Array<{ at: number; flags: string; rest: string; continued: number }> = [];
  const align = () => {
    const column = Math.max(...group.map((row) => row.flags.length)) + 2;
    for (const row of group) {
      lines[row.at] = `${row.flags.padEnd(column)}${row.rest}`;
      for (let k = 1; k <= row.continued; k++) lines[row.at + k] = `${' '.repeat(column)}${lines[row.at + k].trimStart()}`;
    }
    group = [];
  };
  for (let i = 0; i < lines.length; i++) {
    if (/^\S/.test(lines[i]) || lines[i].trim() === '') {
      if (group.length > 0) align();
      section = lines[i].trim();
      continue;
    }
    if (section === 'Positionals:') lines[i] = lines[i].replace(POSITIONAL_NOISE, '');
    const flagLine = FLAG_LINE.exec(lines[i]);
    if (!flagLine) continue;
    // The option's lines: this one and the description's continuation lines, deeper indented.
    let end = i + 1;
    while (end < lines.length && /^\s{8,}\S/.test(lines[end]) && !/^\s+-/.test(lines[end])) end++;
    const own = lines.slice(i, end);
    const typed = own.findIndex((line) => TYPE_TAG.test(line));
    if (typed >= 0) lines[i + typed] = lines[i + typed].replace(TYPE_TAG, '');
    const takesValue = typed >= 0 || (own.some((line) => CHOICES_TAG.test(line)) && !own.some((line) => /\[boolean\]/.test(line)));
    const [, flagText, name, , rest = ''] = FLAG_LINE.exec(lines[i])!;
    group.push({ at: i, flags: takesValue ? `${flagText} ${PLACEHOLDERS[name] ?? 'VALUE'}` : flagText, rest, continued: end - i - 1 });
    i = end - 1;
  }
  if (group.length > 0) align();
  return lines.map((line) => line.replace(NOISE, '').replace(DEFAULT_TAG, ' (default: $1$2)').trimEnd()).join('\n');
}

/** An option's first line: its flags (aliases after a comma), spaces, the description. */
const FLAG_LINE = /^(\s+(?:-\w, )?--([\w-]+)(?:, (?:-\w|--[\w-]+))*)( +)(\S.*)?$/;

/** The exit codes every command shares. */
export const EXIT_CODES =
  'Exit codes: 0 done (verify: clean); 1 a count failed, or verify found damage; 2 input that cannot be used ' +
  '(a bad option, file or folder, a count folder locked by another count); 3 verify found no damage, only a count ' +
  'running or stopped before its end, which the same command resumes; 130 and 143 stopped by Ctrl-C or SIGTERM: ' +
  'the same command resumes.';
