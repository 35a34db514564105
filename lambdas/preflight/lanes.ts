import type { ImportConcurrency } from '../control-plane/control-plane.js';
import type { Lanes } from '../contract/workflow-payloads.js';

/**
 * Of the account's unreserved concurrency, the share one import takes at most: half, so that the account's
 * other functions (and this import's own preflight and summarize) still find room. The default quota of
 * 1,000 leaves 500, above any configured lane count up to 500; a new account's 10 gives 5 lanes
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html).
 */
export const UNRESERVED_SHARE = 0.5;

/**
 * Lowers the configured lanes to what the import function can run: its reserved concurrency when it has one
 * (every invocation past it would be throttled), else a share of the account's unreserved pool. Without
 * Lambda (local runs) the configured lanes stand.
 */
export function grantLanes(configured: number, concurrency: ImportConcurrency | null): Lanes {
  if (concurrency === null)
    return { configured, granted: configured, reason: 'no Lambda concurrency to fit (local run)' };
  const { reserved, unreserved } = concurrency;
  if (reserved !== null) {
    const granted = Math.max(1, Math.min(configured, reserved));
    const why = granted < configured ? 'lowered to' : 'within';
    return { configured, granted, reason: `${why} the import function's reserved concurrency of ${reserved}` };
  }
  if (unreserved === null) return { configured, granted: configured, reason: 'account concurrency unknown' };
  const share = Math.max(1, Math.floor(unreserved * UNRESERVED_SHARE));
  const granted = Math.min(configured, share);
  const why = granted < configured ? 'lowered to' : 'within';
  return {
    configured,
    granted,
    reason: `${why} half the account's ${unreserved} unreserved Lambda concurrency (${share})`,
  };
}
