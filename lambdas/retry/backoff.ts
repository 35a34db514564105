/** Bounds for retrying a request: exponential backoff with full jitter (AWS Architecture Blog, 2015). */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * 12 attempts at 50 ms doubling, capped at 5 s. The writers' retry loop (retry/retry-loop.ts) is the only layer
 * that retries throttles and unprocessed items (the write transport does not retry), so this ladder is the whole wait: its
 * 11 sleeps are at most 50 + 100 + 200 + 400 + 800 + 1,600 + 3,200 + 4 x 5,000 = 26,350 ms per batch,
 * and a table that keeps refusing fails the chunk in bounded time (see retry/batch-retry.ts).
 */
export const DEFAULT_WRITE_RETRY: RetryPolicy = { maxAttempts: 12, baseDelayMs: 50, maxDelayMs: 5000 };

/** The ceiling of the wait before retry number `attempt + 1`: min(cap, base * 2^attempt). `attempt` counts from 0. */
export function backoffCeilingMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/** Full jitter: a uniform wait between 0 and the ceiling. `attempt` counts from 0. */
export function fullJitterDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return random() * backoffCeilingMs(policy, attempt);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
