import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Output } from '../output/summary.js';
import type { CommandDefinition, CommandInfo, CommandLine, FlagSpec, FlagTable, FlagValues } from './command-spec.js';
import { UsageError } from './usage-error.js';

/** Every command takes it; the dispatcher answers it before parsing (cli/commands/run-cli.ts). */
export const HELP_FLAG = { type: 'boolean', short: 'h', description: 'print this help and exit 0' } as const;

/** A command of the table, its input type erased: what the dispatcher and the help need. */
export interface Command<I = unknown> extends CommandInfo {
  /** The arguments after the command's name, parsed and checked: its input. Throws UsageError (or parseArgs' own). */
  parse(args: readonly string[]): I;
  /** Parses, then runs: the exit code. */
  execute(args: readonly string[], output: Output): Promise<number>;
}

/** A command of the table from its definition: the only way a command's arguments are parsed. */
export function defineCommand<const F extends FlagTable, I>(definition: CommandDefinition<F, I>): Command<I> {
  const { name, summary, positionals, flags, details, ownPositionalCheck } = definition;
  const parse = (args: readonly string[]) => definition.input(parseCommandLine(definition, args));
  return {
    name,
    summary,
    positionals,
    flags,
    ...(details ? { details } : {}),
    ...(ownPositionalCheck ? { ownPositionalCheck } : {}),
    parse,
    execute: async (args, output) => definition.run(parse(args), output),
  };
}

/**
 * node's parseArgs (strict: an unknown flag is an error) with the options the table declares, and the count of
 * positionals checked against it.
 */
export function parseCommandLine<F extends FlagTable>(
  command: CommandInfo & { readonly flags: F },
  args: readonly string[],
): CommandLine<F> {
  const { values, positionals } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: parseArgsOptions({ ...command.flags, help: HELP_FLAG }),
  });
  if (!command.ownPositionalCheck) checkPositionals(command.positionals.length, command, positionals.length);
  return { values: values as FlagValues<F>, positionals };
}

function parseArgsOptions(flags: FlagTable): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    Object.entries(flags).map(([name, flag]: [string, FlagSpec]) => [
      name,
      { type: flag.type, ...(flag.multiple ? { multiple: true } : {}), ...(flag.short ? { short: flag.short } : {}) },
    ]),
  );
}

function checkPositionals(wanted: number, command: CommandInfo, given: number): void {
  if (given === wanted) return;
  const shape = command.positionals.map((p) => `<${p.name}>`).join(' ');
  throw new UsageError(
    wanted === 1 ? `expected one ${shape}, got ${given}` : `expected ${shape}, got ${given} arguments`,
  );
}
