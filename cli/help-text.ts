/**
 * The help text, as yargs writes it unwrapped, made to read like a Unix manual's: each option that
 * takes a value shows a placeholder (`--memory SIZE`) instead of yargs's type tag (`[string]`), and
 * every line is wrapped at word boundaries to the terminal, descriptions under descriptions. (The
 * ES module build of yargs wraps in the middle of words.)
 */

/** The placeholder of each option that takes a value; any other shows VALUE. */
const PLACEHOLDERS: Record<string, string> = {
  memory: 'SIZE',
  disk: 'SIZE',
  scratch: 'DIR',
  'stats-json': 'FILE',
  output: 'FILE',
  'fan-in': 'N',
  workers: 'N',
  'residues-per-pass': 'K',
  partitions: 'P',
  launcher: 'NAME',
  retries: 'N',
  first: 'N',
  skip: 'N',
  runs: 'N',
  seed: 'N',
  digits: 'N',
  from: 'N',
  step: 'S',
  part: 'J',
};

const TYPE_TAG = / ?\[(?:string|number)\]/;
/** Tags that say nothing a reader needs: a flag without a placeholder is a switch, off unless given. */
const NOISE = / ?\[boolean\]| ?\[default: false\]/g;

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
  for (let i = 0; i < lines.length; i++) {
    if (!FLAG_LINE.test(lines[i])) continue;
    // The option's lines: this one and the description's continuation lines, deeper indented.
    let end = i + 1;
    while (end < lines.length && /^\s{8,}\S/.test(lines[end]) && !/^\s+-/.test(lines[end])) end++;
    const tagged = lines.slice(i, end).findIndex((line) => TYPE_TAG.test(line));
    if (tagged < 0) continue;
    lines[i + tagged] = lines[i + tagged].replace(TYPE_TAG, '');
    const [, flagText, name, spaces, rest = ''] = FLAG_LINE.exec(lines[i])!;
    const placeholder = ` ${PLACEHOLDERS[name] ?? 'VALUE'}`;
    lines[i] = `${flagText}${placeholder}${' '.repeat(Math.max(2, spaces.length - placeholder.length))}${rest}`;
  }
  return lines.map((line) => line.replace(NOISE, '').trimEnd()).join('\n');
}

/** An option's first line: its flags (aliases after a comma), spaces, the description. */
const FLAG_LINE = /^(\s+(?:-\w, )?--([\w-]+)(?:, (?:-\w|--[\w-]+))*)( +)(\S.*)?$/;

/** The exit codes every command shares. */
export const EXIT_CODES =
  'Exit codes: 0 done (verify: clean); 1 a count failed, or verify found damage; 2 input that cannot be used ' +
  '(a bad option, file or folder, a count folder locked by another count); 3 verify found no damage, only a count ' +
  'running or stopped before its end, which the same command resumes; 130 and 143 stopped by Ctrl-C or SIGTERM: ' +
  'the same command resumes.';
