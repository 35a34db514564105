import { parseArgs } from 'node:util';
import type { Output } from '../output/summary.js';
import type { CommandDefinition, CommandInfo, CommandLine, FlagTable, FlagValues } from './command-spec.js';
import { checkChoices, checkConflicts, checkTokens, parseArgsOptions, parseValues } from './flag-checks.js';
import { UsageError } from './usage-error.js';

/** Every command takes it; the dispatcher answers it before parsing (cli/commands/run-cli.ts). */
export const HELP_FLAG = { type: 'boolean', short: 'h', description: 'print this help and exit 0' } as const;

/** A command of the table, its input type erased: what the dispatcher and the help need. */
export interface Command<I = unknown> extends CommandInfo {
  /** The arguments after the command's name, parsed and checked: its input. Throws UsageError. */
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
 * The command line checked against the table, each problem one UsageError line: unknown flags (with the
 * nearest), missing values, choices, conflicts, the count of positionals; then each flag's `parse` (its
 * default's when absent). node's parseArgs does the splitting.
 *
 * @example
 * parseCommandLine(LOCAL, ['f.csv', '--tabel', 't']); // throws UsageError: unknown flag --tabel (did you mean --table?)
 */
export function parseCommandLine<F extends FlagTable>(
  command: CommandInfo & { readonly flags: F },
  args: readonly string[],
): CommandLine<F> {
  const flags = { ...command.flags, help: HELP_FLAG };
  checkTokens(flags, args);
  const { values, positionals } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: parseArgsOptions(flags),
  });
  checkChoices(command.flags, values);
  checkConflicts(command.flags, values);
  if (!command.ownPositionalCheck) checkPositionals(command.positionals.length, command, positionals.length);
  return { values: parseValues(command.flags, values) as FlagValues<F>, positionals };
}

function checkPositionals(wanted: number, command: CommandInfo, given: number): void {
  if (given === wanted) return;
  const shape = command.positionals.map((p) => `<${p.name}>`).join(' ');
  throw new UsageError(
    wanted === 1 ? `expected one ${shape}, got ${given}` : `expected ${shape}, got ${given} arguments`,
  );
}
