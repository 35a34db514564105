/** Exit codes are public contract: 0 every row landed, 2 some rows were rejected, 1 the import (or the command) failed. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_REJECTS = 2;

/**
 * The base of every error the CLI expects and explains (oclif's `CLIError` is the model): its `name` is what the
 * failure line shows, its `exitCode` what the process returns, its `hint` one more line saying what to do.
 * Anything else that reaches the failure printer is unexpected and exits 1 with its own name and message.
 *
 * @example
 * throw new CliError('the table "t" does not exist', { hint: 'give --create-table --pk id to create it' });
 */
export class CliError extends Error {
  /** What the process exits with when this error ends a command. @default EXIT_FAILED (1) */
  readonly exitCode: number;
  /** A line after the failure: the next thing to try. */
  readonly hint?: string;

  constructor(message: string, options: ErrorOptions & { exitCode?: number; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_FAILED;
    if (options.hint !== undefined) this.hint = options.hint;
  }
}

/** The exit code an error ends a command with: its own when it is a CliError, else 1. */
export function exitCodeOfError(error: unknown): number {
  return error instanceof CliError ? error.exitCode : EXIT_FAILED;
}
