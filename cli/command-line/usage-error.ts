import { CliError } from '../output/cli-error.js';

/**
 * A command line that cannot be run. The CLI prints it as one line, `error: <message>`, then `see: <command>
 * --help` (never the whole usage), and exits 1. The message names the flag and, where one is near, suggests it.
 */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A command line that cannot be run: our UsageError, or node's parseArgs refusing a flag (ERR_PARSE_ARGS_*). */
export function isUsageError(error: unknown): error is Error {
  return (
    error instanceof UsageError || (error as { code?: unknown })?.code?.toString().startsWith('ERR_PARSE_ARGS') === true
  );
}

/** A flag the command does not take: `unknown flag --tabel (did you mean --table?)`. */
export class UnknownFlagError extends UsageError {
  constructor(
    /** The flag as written: `--tabel`, `-x`. */
    readonly flag: string,
    near: string,
  ) {
    super(`unknown flag ${flag}${near}`);
    this.name = 'UnknownFlagError';
  }
}
