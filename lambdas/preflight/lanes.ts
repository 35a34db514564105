import type { ImportConcurrency } from '../admission/import-concurrency.js';

/**
 * Of the account's unreserved concurrency, the share all imports of one stack take at most: half, so that the
 * account's other functions (and the imports' own preflight and summarize) still find room. The default quota
 * of 1,000 leaves 500; a new account's 10 gives 5 lanes (https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html).
 * Each stack has its own ledger, so two stacks without a reservation in one account and Region take all of it between
 * them (README, Limits): with more than one, each import function gets a reservation, and Lambda keeps at least 100
 * unreserved for the functions without one, preflight and summarize among them ("You can reserve up to the
 * Unreserved account concurrency value that is shown, minus 100":
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html).
 */
export const UNRESERVED_SHARE = 0.5;

/**
 * The pool of lanes every running import shares: the import function's reserved concurrency when it has one
 * (every invocation past it would be throttled), else a share of the account's unreserved pool; null (no bound)
 * where imports do not run on Lambda (local runs) or the account's figure is unknown.
 */
export function poolLanes(concurrency: ImportConcurrency | null): { lanes: number | null; reason: string } {
  if (concurrency === null) return { lanes: null, reason: 'no Lambda concurrency to fit (local run)' };
  const { reserved, unreserved } = concurrency;
  if (reserved !== null) return { lanes: Math.max(1, reserved), reason: `the import function's reserved ${reserved}` };
  if (unreserved === null) return { lanes: null, reason: 'account concurrency unknown' };
  const share = Math.max(1, Math.floor(unreserved * UNRESERVED_SHARE));
  return { lanes: share, reason: `half the account's ${unreserved} unreserved Lambda concurrency (${share})` };
}
