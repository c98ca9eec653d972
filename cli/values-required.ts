/**
 * Every option that takes a value requires one: yargs otherwise reads `--scratch` with nothing after
 * it as an empty value, and the command goes on with its default. And a switch takes no value but
 * true or false: yargs reads `--json=maybe` as false.
 */

import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../lib/shared/errors.js';
import { setCommandFlags } from './unknown-arguments.js';
import { forgetRequiredPositional, setRequiredPositional } from './missing-positional.js';

/** The arguments of the command line being parsed: one process may run several (the tests do). */
let commandLine: readonly string[] = [];

/** A new command line: what the last one's builder recorded goes with it. */
export function setCommandLine(args: readonly string[]): void {
  commandLine = args;
  setCommandFlags([]);
  forgetRequiredPositional();
}

/** What yargs's getOptions() gives, in part (it is missing from yargs's types). */
interface ParsedOptions {
  key: Record<string, unknown>;
  boolean: string[];
}

/** yargs's record of the descriptions its help prints, by option and positional (also missing from its types). */
interface Described {
  getInternalMethods(): { getUsageInstance(): { getDescriptions(): Record<string, string | undefined> } };
}

/**
 * The command with its builder extended: each of its options but the booleans requires a value, and
 * its flags are those a mistyped flag is compared with, and its required positional is named, with
 * its description, when it is missing.
 */
export function valuesRequired<T, U>(command: CommandModule<T, U>): CommandModule<T, U> {
  const builder = command.builder;
  if (typeof builder !== 'function') return command;
  // Positionals are named in the command itself: "solve [size..]", "verify <path>".
  const positionals = new Set([...String(command.command).matchAll(/[<[]([\w-]+)/g)].map((match) => match[1]));
  const [name, required] = [String(command.command).split(' ')[0], /<([\w-]+)/.exec(String(command.command))?.[1]];
  return {
    ...command,
    builder: (y: Argv<T>) => {
      const built = builder(y) as Argv<U>;
      const { key, boolean } = (built as unknown as { getOptions(): ParsedOptions }).getOptions();
      const flags = Object.keys(key).filter(
        (name) => !boolean.includes(name) && !positionals.has(name) && name !== 'help' && name !== 'version',
      );
      refuseSwitchValues(boolean);
      setCommandFlags([...Object.keys(key), ...boolean.map((name) => `no-${name}`)]);
      if (required) {
        const described = (built as unknown as Described).getInternalMethods().getUsageInstance().getDescriptions();
        setRequiredPositional(name, required, described[required] ?? '');
      }
      return built.requiresArg(flags);
    },
  };
}

/** A switch written with a value other than true or false (`--json=maybe`) is refused. */
function refuseSwitchValues(switches: string[]): void {
  for (const arg of commandLine) {
    if (arg === '--') return;
    const given = /^--(?:no-)?([\w-]+)=(.*)$/.exec(arg);
    if (given && switches.includes(given[1]) && given[2] !== 'true' && given[2] !== 'false')
      throw new UsageError(`${arg}: --${given[1]} takes no value (or true or false)`);
  }
}
