/** Ctrl-C ends a command with 130: 128 + SIGINT (2), the status a shell gives a process the signal ended. */
export const EXIT_INTERRUPTED = 130;
/** What is released on Ctrl-C must not hold the terminal: a server that does not answer is given this long. */
const CLEANUP_LIMIT_MS = 5_000;

/**
 * On the first Ctrl-C (SIGINT), runs `cleanup` (given at most 5 s) and exits 130; a second Ctrl-C exits at once.
 * The process's `exit` handlers still run (the engine a command started is killed, its registration removed).
 * Returns the function that disarms it, for when the command ends by itself.
 *
 * @example
 * const disarm = onInterrupt(async () => ledger.release(executionName));
 * try { await runImport(); } finally { disarm(); }
 */
export function onInterrupt(cleanup: () => Promise<void>): () => void {
  let interrupted = false;
  const handler = () => {
    if (interrupted) process.exit(EXIT_INTERRUPTED);
    interrupted = true;
    const limit = new Promise<void>((resolve) => setTimeout(resolve, CLEANUP_LIMIT_MS).unref());
    void Promise.race([cleanup().catch(() => undefined), limit]).then(() => process.exit(EXIT_INTERRUPTED));
  };
  process.on('SIGINT', handler);
  return () => {
    process.off('SIGINT', handler);
  };
}
