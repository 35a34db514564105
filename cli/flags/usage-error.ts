/** A command line that cannot be run; the CLI prints the message and the usage, and exits 1. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
