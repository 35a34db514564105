import { backoffCeilingMs, fullJitterDelay, type RetryPolicy } from '../async/backoff.js';

/** BatchWriteItem takes at most 25 put requests. */
export const BATCH_SIZE = 25;

/**
 * Replies that write part of a batch: each writes at least one item and leaves at least one, so a
 * 25-item batch gets at most 24 of them. They do not spend the retry budget (the batch is progressing).
 */
export const MAX_PARTIAL_REPLIES = BATCH_SIZE - 1;

/** Error names (and HTTP-level failures) worth another try; anything else fails the batch at once. */
const RETRYABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * Throttles, a request past its timeout, a dropped connection, a 5xx. The SDK does not retry
 * BatchWriteItem (wiring/clients.ts), so these all come here, once each.
 */
export function isRetryable(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
  return (
    RETRYABLE.has(e.name ?? '') ||
    RETRYABLE.has(e.code ?? '') ||
    Boolean(e.$retryable) ||
    (e.$metadata?.httpStatusCode ?? 0) >= 500
  );
}

/**
 * The wait before the next attempt. A reply that wrote nothing (the `stalled`-th in a row of the batch's
 * budget) climbs the ladder; a reply that wrote some items shows the table is taking writes, so its
 * leftovers go again after a base-level wait (at most baseDelayMs).
 */
export function retryDelayMs(policy: RetryPolicy, stalled: number, progressed: boolean, random?: () => number): number {
  return fullJitterDelay(policy, progressed ? 0 : Math.max(0, stalled - 1), random);
}

/**
 * The longest a batch can spend asleep between its attempts before it is written or fails: the ladder
 * of its stalled replies (the last of `maxAttempts` fails without a wait, so levels 0 to maxAttempts - 2)
 * plus one base wait per partial reply. Default policy: 26,350 + 24 x 50 = 27,550 ms.
 */
export function longestBackoffMs(policy: RetryPolicy): number {
  let total = MAX_PARTIAL_REPLIES * policy.baseDelayMs;
  for (let level = 0; level <= policy.maxAttempts - 2; level++) total += backoffCeilingMs(policy, level);
  return total;
}
