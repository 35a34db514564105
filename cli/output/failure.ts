import { exitCodeOfError } from './cli-error.js';
import type { Output } from './summary.js';

/** What the failure line and the --json object say besides the error. */
export interface FailureContext {
  /** What failed, the line's first words: `import` (local and a followed execution), `start`, `local watch`. */
  readonly what: string;
  readonly json: boolean;
  /** How long the import ran, when one ran (the --json object's `durationMs`). */
  readonly durationMs?: number;
  /** The deployed execution, when there is one. */
  readonly executionArn?: string;
}

/**
 * The one failure printer of the CLI: `<what> failed: <Name>: <message>` on stderr, a CliError's hint on the
 * next line, and with --json a FAILED object as the last stdout line. Returns the exit code: a CliError's own,
 * else 1.
 *
 * @example
 * return printFailure(error, { what: 'import', json: false }, output); // import failed: TableNotFoundError: ...
 */
export function printFailure(
  error: { readonly name: string; readonly message: string; readonly hint?: string },
  context: FailureContext,
  output: Output,
): number {
  output.err(`${context.what} failed: ${error.name}: ${error.message}`);
  if (error.hint) output.err(error.hint);
  if (context.json) {
    const { durationMs, executionArn } = context;
    output.out(
      JSON.stringify({
        status: 'FAILED',
        error: error.name,
        message: error.message,
        ...(durationMs === undefined ? {} : { durationMs }),
        ...(executionArn ? { executionArn } : {}),
      }),
    );
  }
  return exitCodeOfError(error);
}

/** A command line that cannot be run, in two lines: `error: <message>` and where the help is. Exit 1. */
export function printUsageError(message: string, helpCommand: string, output: Output): number {
  output.err(`error: ${message}`);
  output.err(`see: ${helpCommand} --help`);
  return 1;
}
