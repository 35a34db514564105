import type { Output } from '../output/summary.js';

/**
 * One flag of a command, as the command table declares it (oclif's flag interfaces and aws-cdk-cli's
 * `cli-config.ts` are the models): what node's parseArgs needs (`type`, `multiple`, `short`), what --help shows
 * (`value`, `description`, `default`), and what the parser checks and makes of it (`choices`, `conflicts`,
 * `parse`). The parser, the command's value types and its --help all come from this one declaration.
 *
 * @example
 * const concurrency = {
 *   type: 'string', value: 'N', description: 'chunks at once', default: 40,
 *   parse: (text, flag) => parseNumber(text, flag, 40, (n) => n >= 1),
 * } as const satisfies FlagSpec<number>;
 */
export interface FlagSpec<T = unknown> {
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
  /** The only values a string flag takes; the parser refuses others, suggesting the nearest. --help shows them. */
  readonly choices?: readonly string[];
  /** Flags that cannot come with this one, each with the reason the one-line error gives after the two names. */
  readonly conflicts?: Readonly<Record<string, string>>;
  /**
   * The flag's text to its value, throwing UsageError naming `flag` when it is wrong. With a `default`, the
   * parser parses the default when the flag is absent, so the command reads a value, never `undefined`.
   */
  readonly parse?: (text: string, flag: string) => T;
}

/** A command's flags by name (without the leading `--`). */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** A positional argument: `<file>`. */
export interface PositionalSpec {
  readonly name: string;
  readonly description: string;
}

/** A flag the parser gives a value even when absent: it parses its default. */
type Defaulted<S> = S extends { parse: (text: string, flag: string) => unknown; default: string | number }
  ? true
  : false;

/** The value of one flag: what its `parse` returns, else a string, true, or a list. */
type FlagValue<S> = S extends { parse: (text: string, flag: string) => infer T }
  ? T
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { multiple: true }
      ? string[]
      : string;

/** What the parser gives for each flag of a table: its value, or nothing when absent (unless it has a default). */
export type FlagValues<F extends FlagTable> = {
  readonly [K in keyof F as Defaulted<F[K]> extends true ? K : never]: FlagValue<F[K]>;
} & {
  readonly [K in keyof F as Defaulted<F[K]> extends true ? never : K]?: FlagValue<F[K]>;
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
