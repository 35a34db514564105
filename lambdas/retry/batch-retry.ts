import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import type { RetryErrorType, SdkError } from '@smithy/types';
import { backoffCeilingMs, fullJitterDelay, type RetryPolicy } from './backoff.js';

/** BatchWriteItem takes at most 25 put requests. */
export const BATCH_SIZE = 25;

/**
 * Replies that write part of a batch: each writes at least one item and leaves at least one, so a
 * 25-item batch gets at most 24 of them. They do not spend the retry budget (the batch is progressing).
 */
export const MAX_PARTIAL_REPLIES = BATCH_SIZE - 1;

/**
 * The SDK's own retry classification of an error, in its four kinds: what @smithy/core's retry middleware
 * (retry/middleware-retry/retryMiddleware.js, getRetryErrorType) tells its retry strategy, from the shared
 * classifiers of @smithy/core/retry (service-error-classification/constants.ts holds their lists):
 * - THROTTLING: HTTP 429, a throttling name (ProvisionedThroughputExceededException, ThrottlingException,
 *   RequestLimitExceeded, ...) or a model error whose `$retryable` trait says throttling.
 * - TRANSIENT: a model error marked `@retryable` (`$retryable`, e.g. DynamoDB's
 *   ReplicatedWriteConflictException), TimeoutError, a Node network or timeout code (ECONNRESET,
 *   ECONNREFUSED, EPIPE, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, ENOTFOUND, EAI_AGAIN, also on a `cause`),
 *   HTTP 500/502/503/504, "Signature expired", and a clock-skew rejection after which the client corrected
 *   its clock (`$metadata.clockSkewCorrected`, dynamodb-transport/clock-skew.ts). Never an AbortError.
 * - SERVER_ERROR: another 5xx; CLIENT_ERROR: everything else (a validation error, a missing table).
 */
export function retryErrorType(error: unknown): RetryErrorType {
  if (typeof error !== 'object' || error === null) return 'CLIENT_ERROR';
  const e = error as SdkError;
  if (isThrottlingError(e)) return 'THROTTLING';
  if (isTransientError(e)) return 'TRANSIENT';
  if (isServerError(e)) return 'SERVER_ERROR';
  return 'CLIENT_ERROR';
}

/**
 * Whether a failed write call is worth another try: throttling and transient errors, as the SDK's
 * StandardRetryStrategy decides (isRetryableError). The write transport does not retry
 * (dynamodb-transport/write-transport.ts), so every such error comes to the retry loop (retry-loop.ts), once each.
 */
export function isRetryable(error: unknown): boolean {
  const type = retryErrorType(error);
  return type === 'THROTTLING' || type === 'TRANSIENT';
}

/** The stalled waits' ceilings of one run of `maxAttempts` stalls: levels 0 to maxAttempts - 2 (the last fails). */
export function ladderMs(policy: RetryPolicy): number {
  let total = 0;
  for (let level = 0; level <= policy.maxAttempts - 2; level++) total += backoffCeilingMs(policy, level);
  return total;
}

/**
 * The longest a batch can spend asleep between its attempts before it is written or fails: its stalled waits
 * (capped at one ladder by {@link BatchRetryBudget}) plus one base wait per partial reply.
 * Default policy: 26,350 + 24 x 50 = 27,550 ms.
 */
export function longestBackoffMs(policy: RetryPolicy): number {
  return ladderMs(policy) + MAX_PARTIAL_REPLIES * policy.baseDelayMs;
}

/**
 * The retry budget of one write (a batch, or one single-item request): the decision of the retry loop
 * (retry-loop.ts). A reply that wrote nothing (a throttle, an error worth retrying, every item
 * unprocessed) is a stall: it climbs the backoff ladder, and the batch fails after `maxAttempts` stalls in a row.
 * A reply that wrote some items shows the table is taking writes: its leftovers go again after a base-level wait
 * and the next stall starts the ladder from its foot, so a batch that keeps progressing under scattered throttles
 * is not failed by throttles it met between its partial replies. To keep {@link longestBackoffMs} (the figure
 * the import's stop margin is built on) a bound, the ceilings of a batch's stalled waits may add up to one
 * ladder: a stall whose wait would pass it fails the batch.
 */
export class BatchRetryBudget {
  private stalledInARow = 0;
  private stalledCeilingsMs = 0;
  private readonly ladderMs: number;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly random?: () => number,
  ) {
    this.ladderMs = ladderMs(policy);
  }

  /** After a reply that left items: the wait before the next attempt, or undefined when the batch must fail. */
  next(progressed: boolean): number | undefined {
    if (progressed) {
      this.stalledInARow = 0;
      return fullJitterDelay(this.policy, 0, this.random);
    }
    if (++this.stalledInARow >= this.policy.maxAttempts) return undefined;
    const level = this.stalledInARow - 1;
    const ceiling = backoffCeilingMs(this.policy, level);
    if (this.stalledCeilingsMs + ceiling > this.ladderMs) return undefined;
    this.stalledCeilingsMs += ceiling;
    return fullJitterDelay(this.policy, level, this.random);
  }
}
