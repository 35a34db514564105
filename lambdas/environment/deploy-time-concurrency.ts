import type { ConcurrencySource } from '../admission/import-concurrency.js';

/**
 * The control plane preflight asks for the import function's Lambda concurrency, answering from the function's
 * configuration where the stack knew the answer at deploy time: a reserved concurrency the construct set
 * (IMPORT_RESERVED_CONCURRENCY) is the lanes' bound, so no container asks the Lambda API for it (GetFunctionConcurrency
 * and GetAccountSettings share the Lambda control plane's small per-account rate, and a burst of uploads starts many
 * cold preflights at once). Without a reservation the account's unreserved concurrency changes as other functions
 * reserve theirs, so `asked` answers it (cached per container: admission/lambda-concurrency.ts).
 */
export function deployTimeConcurrency(reserved: number | null, asked: ConcurrencySource): ConcurrencySource {
  if (reserved === null) return asked;
  const answer = Promise.resolve({ reserved, unreserved: null });
  return { importConcurrency: () => answer };
}
