import { AdaptiveLimit } from './adaptive-limit.js';
import { KeyOrder } from './key-order.js';
import { RequestSlots } from './request-slots.js';
import type { WriterOptions } from './writer-options.js';
import { DEFAULT_WRITE_RETRY, type RetryPolicy } from '../async/backoff.js';

/**
 * What the BatchWriter, the StatementWriter and the ItemWriter share: the retry ladder, the adaptive limit on
 * requests in flight and their slots, the order of a key's requests, and the first failure (which every later
 * `add` and `flush` throws).
 */
export abstract class RequestWriter {
  protected readonly retry: RetryPolicy;
  /** Requests allowed in flight now: halved on a throttle, grown back by one step at a time. */
  protected readonly limit: AdaptiveLimit;
  protected readonly slots: RequestSlots;
  protected readonly order: KeyOrder;
  protected failure: Error | undefined;

  /** @param defaultMaxInFlight the writer's own limit when the options give none */
  constructor(options: WriterOptions, defaultMaxInFlight: number) {
    this.retry = options.retry ?? DEFAULT_WRITE_RETRY;
    this.limit = new AdaptiveLimit(options.maxInFlight ?? defaultMaxInFlight);
    this.slots = new RequestSlots(this.limit, options.stopping);
    this.order = new KeyOrder(this.slots, (error) => void (this.failure ??= error));
  }

  /** How many requests may be in flight now (adaptive back-off; at most maxInFlight). */
  get inFlightLimit(): number {
    return this.limit.value;
  }

  protected throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
