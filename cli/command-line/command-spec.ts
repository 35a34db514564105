import type { Output } from '../output/summary.js';

/**
 * One flag of a command, as the command table declares it: what node's parseArgs needs (`type`, `multiple`,
 * `short`) and what --help shows (`value`, `description`, `default`).
 */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** Repeatable: `--attr A --attr B` gives both. */
  readonly multiple?: true;
  /** One letter: `-h`. */
  readonly short?: string;
  /** The value's name in --help (`--table T`); string flags only. */
  readonly value?: string;
  readonly description: string;
  /** What applies when the flag is absent, as --help shows it (the command's input reads it from here). */
  readonly default?: string | number;
}

/** A command's flags by name (without the leading `--`). */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** A positional argument: `<file>`. */
export interface PositionalSpec {
  readonly name: string;
  readonly description: string;
}

/** What parseArgs gives for each flag of a table: a string, true, a list, or nothing when absent. */
export type FlagValues<F extends FlagTable> = {
  readonly [K in keyof F]?: F[K]['type'] extends 'boolean'
    ? boolean
    : F[K]['multiple'] extends true
      ? string[]
      : string;
};

/** A command line after parseArgs, checked against the table: its flags' values and its positionals. */
export interface CommandLine<F extends FlagTable> {
  readonly values: FlagValues<F>;
  readonly positionals: readonly string[];
}

/** What a command is, for --help and for the table: no parsing, no running. */
export interface CommandInfo {
  /** The words that name it: `local`, `local watch`, `start`. */
  readonly name: string;
  /** One line, for the top-level --help. */
  readonly summary: string;
  /**
   * Its positionals, in order. */
  readonly positionals: readonly PositionalSpec[];
  /** The command's input checks the count of positionals itself, with words of its own. */
  readonly ownPositionalCheck?: true;
  readonly flags: FlagTable;
  /** Lines after the summary in its --help: what it does, what it prints, its exit codes. */
  readonly details?: readonly string[];
}

/**
 * A command as the table declares it (aws-cdk-cli's lib/cli/cli-config.ts is the model): what it is, how its
 * parsed command line becomes its input (UsageError naming the bad flag), and how that input runs to an exit code.
 */
export interface CommandDefinition<F extends FlagTable, I> extends CommandInfo {
  readonly flags: F;
  input(line: CommandLine<F>): I;
  run(input: I, output: Output): Promise<number>;
}
