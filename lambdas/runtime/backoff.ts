/** Bounds for retrying a request: exponential backoff with full jitter (AWS Architecture Blog, 2015). */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * 12 attempts at 50 ms doubling, capped at 5 s: at most 50*(1+2+...+64) + 5*5000 ~ 31 s of waiting per
 * batch on top of the SDK's own 3 tries, so a table that keeps refusing fails the chunk in bounded time.
 * (The BatchWriter counts only replies that wrote nothing; measured end to end: ~25-28 s.)
 */
export const DEFAULT_WRITE_RETRY: RetryPolicy = { maxAttempts: 12, baseDelayMs: 50, maxDelayMs: 5000 };

/** Full jitter: a uniform wait between 0 and min(cap, base * 2^attempt). `attempt` counts from 0. */
export function fullJitterDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
