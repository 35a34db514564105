/** A command line that cannot be run; the CLI prints the message and the usage, and exits 1. */
export class UsageError extends Error {
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
