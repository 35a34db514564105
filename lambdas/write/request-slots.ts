import type { AdaptiveLimit } from './adaptive-limit.js';

/**
 * The requests a writer has in flight, at most its adaptive limit: the BatchWriter's and the StatementWriter's
 * batches wait here alike. Once the import is stopping (its deadline signal), a request starts at once instead
 * of waiting for a slot, so the drain takes one request's longest retry, not that plus a wait.
 */
export class RequestSlots {
  readonly inFlight = new Set<Promise<void>>();
  private waiters: (() => void)[] = [];

  constructor(
    readonly limit: AdaptiveLimit,
    private readonly stopping?: AbortSignal,
  ) {
    stopping?.addEventListener('abort', () => this.wake(), { once: true });
  }

  /** A request may start now. */
  get free(): boolean {
    return this.inFlight.size < this.limit.value || this.stopping?.aborted === true;
  }

  /** Waits until a request may start. */
  async wait(): Promise<void> {
    while (!this.free) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /**
   * Holds a slot for `sent` until it settles: its error goes to `onError` (so the tracked promise never rejects),
   * then `onSettled` runs with the tracked promise and whoever waits for a slot looks again. A Promise.race over the
   * requests in flight would do the same, but leaves a reaction on each of them per wait: ~16 no-op callbacks to run for
   * every request that finished.
   */
  track(sent: Promise<void>, onError: (error: Error) => void, onSettled: (tracked: Promise<void>) => void) {
    const tracked: Promise<void> = sent.catch(onError).finally(() => {
      this.inFlight.delete(tracked);
      onSettled(tracked);
      this.wake();
    });
    this.inFlight.add(tracked);
    return tracked;
  }

  /** Waits for every request in flight to settle. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
