import { sleep as realSleep, type RetryPolicy } from './backoff.js';
import { BatchRetryBudget, isRetryable } from './batch-retry.js';

/** What one attempt's reply left, as the retry decision reads it. */
export interface AttemptReply {
  /** Something is left to send again after a wait: a throttle, unprocessed items, throttled statements. */
  readonly pushedBack: boolean;
  /** The reply settled part of what it carried: the budget's ladder starts again from its foot. */
  readonly progressed: boolean;
}

/** A reply that threw an error worth retrying: it settled nothing. */
const STALLED: AttemptReply = { pushedBack: true, progressed: false };

/**
 * One write the loop retries, as its writer sees it: what is left, one call, and the errors to fail with. The writer
 * owns the call and what its reply means; the loop owns when to go again.
 */
export interface RetriedWrite {
  /** Items the next attempt carries (what the write-rate governor is told); 0 ends the loop. */
  pending(): number;
  /** Sends what is pending once; throws the call's error, which the loop classifies. */
  attempt(): Promise<AttemptReply>;
  /** The error to fail with when the call's error is not worth retrying. */
  failed(error: unknown): Error;
  /** The error to fail with once the retry budget is spent (`lastError` undefined: leftovers, not errors). */
  exhausted(attempts: number, lastError: unknown): Error;
}

/**
 * What the loop tells of each attempt (write/adaptive-limit.ts AdaptiveLimit is one): declared here, by shape, so the
 * retry layer needs nothing from the writers above it.
 */
export interface AttemptListener {
  /** A request is being sent: returns the ticket its reply hands back to `replied`. */
  started(): number;
  replied(ticket: number, pushedBack: boolean): void;
}

/** What every writer brings to the loop (WriterOptions, resolved by the writer). */
export interface RetryContext {
  readonly retry: RetryPolicy;
  /** Told of each reply (pushed back or clean); absent for a writer that keeps no limit of its own. */
  readonly limit?: AttemptListener;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly beforeSend?: (items: number) => Promise<void>;
  readonly onThrottle?: () => void;
}

/** Attempts sent again, by why: after an error worth retrying (ThrottledRetries), for leftovers (UnprocessedRetries). */
export interface RetryCounts {
  afterError: number;
  forLeftovers: number;
}

/**
 * The one retry loop of every writer (the BatchWriter's batches, the StatementWriter's statement batches, the
 * ItemWriter's single requests). As in smithy-typescript's StandardRetryStrategy
 * (packages/util-retry/src/StandardRetryStrategy.ts), the decision is kept apart from the call: the error is
 * classified by the SDK's own classifiers (batch-retry.ts isRetryable), and whether and how long to wait is the
 * write's BatchRetryBudget: it fails after `maxAttempts` replies in a row that settled nothing, while a reply that
 * settled part starts the ladder again; every wait has full jitter. A reply that pushed nothing back but left
 * something (a statement switching between UPDATE and INSERT) goes again at once, spending nothing.
 */
export async function sendWithRetries(write: RetriedWrite, context: RetryContext, counts: RetryCounts): Promise<void> {
  const budget = new BatchRetryBudget(context.retry, context.random);
  for (let attempts = 1; ; attempts++) {
    const items = write.pending();
    if (items === 0) return;
    await context.beforeSend?.(items);
    const ticket = context.limit?.started() ?? 0;
    let lastError: unknown;
    let reply: AttemptReply;
    try {
      reply = await write.attempt();
    } catch (error) {
      if (!isRetryable(error)) throw write.failed(error);
      lastError = error;
      reply = STALLED;
    }
    context.limit?.replied(ticket, reply.pushedBack);
    if (!reply.pushedBack) continue;
    context.onThrottle?.();
    const wait = budget.next(reply.progressed);
    if (wait === undefined) throw write.exhausted(attempts, lastError);
    if (lastError === undefined) counts.forLeftovers++;
    else counts.afterError++;
    await (context.sleep ?? realSleep)(wait);
  }
}
