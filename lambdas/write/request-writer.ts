import { AdaptiveLimit } from './adaptive-limit.js';
import { KeyOrder } from './key-order.js';
import { RequestSlots } from './request-slots.js';
import type { RetryContext, RetryCounts } from '../retry/retry-loop.js';
import type { WriterOptions } from './writer-options.js';
import { DEFAULT_WRITE_RETRY } from '../retry/backoff.js';

/**
 * What the BatchWriter and the StatementWriter share: the adaptive limit on requests in flight and their slots, the
 * order of a key's requests, the retry loop's context and counts (retry/retry-loop.ts), and the first failure (which
 * every later `add` and `flush` throws).
 */
export abstract class RequestWriter {
  /** Requests allowed in flight now: halved on a throttle, grown back by one step at a time. */
  protected readonly limit: AdaptiveLimit;
  protected readonly slots: RequestSlots;
  protected readonly order: KeyOrder;
  /** What the retry loop is given for every request of this writer. */
  protected readonly retrying: RetryContext;
  protected readonly retries: RetryCounts = { afterError: 0, forLeftovers: 0 };
  protected failure: Error | undefined;

  /** @param defaultMaxInFlight the writer's own limit when the options give none */
  constructor(options: WriterOptions, defaultMaxInFlight: number) {
    this.limit = new AdaptiveLimit(options.maxInFlight ?? defaultMaxInFlight);
    this.slots = new RequestSlots(this.limit, options.stopping);
    this.order = new KeyOrder(this.slots, (error) => void (this.failure ??= error));
    this.retrying = retryContext(options, this.limit);
  }

  /** How many requests may be in flight now (adaptive back-off; at most maxInFlight). */
  get inFlightLimit(): number {
    return this.limit.value;
  }

  /** Requests sent again for what a reply left unprocessed or throttled (the UnprocessedRetries metric). */
  get unprocessedRetries(): number {
    return this.retries.forLeftovers;
  }

  protected throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}

/** The retry loop's context from a writer's options: the default ladder when they give none. */
export function retryContext(options: WriterOptions, limit?: AdaptiveLimit): RetryContext {
  const { sleep, random, beforeSend, onThrottle } = options;
  return { retry: options.retry ?? DEFAULT_WRITE_RETRY, limit, sleep, random, beforeSend, onThrottle };
}
