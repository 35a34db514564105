/** A clock and a way to wait, passed in so tests drive the limiter without real time. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A token bucket: `ratePerSecond` tokens a second, holding at most `burst`. `take(n)` waits until n
 * tokens are there. Callers queue in order, so many concurrent requests share one rate fairly. The rate may
 * change while it runs (`s3-ddb-import rate`); 0 lets every request through.
 */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private ratePerSecond: number,
    private burst: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Follows a new rate from now on: tokens earned so far at the old rate are kept, up to the new burst. */
  setRate(ratePerSecond: number): void {
    this.refill();
    this.ratePerSecond = ratePerSecond;
    this.burst = burstFor(ratePerSecond);
    this.tokens = Math.min(this.tokens, this.burst);
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
  }

  /** Waits until `count` tokens are available and takes them. */
  take(count: number): Promise<void> {
    const turn = this.queue.then(() => this.waitFor(Math.min(count, this.burst)));
    this.queue = turn;
    return turn;
  }

  private async waitFor(count: number): Promise<void> {
    for (;;) {
      if (this.ratePerSecond <= 0) return;
      this.refill();
      if (this.tokens >= count) {
        this.tokens -= count;
        return;
      }
      await this.clock.sleep(((count - this.tokens) / this.ratePerSecond) * 1000);
    }
  }
}

/** What decides one chunk's share of the cap. */
export interface ShareInputs {
  readonly maxWriteRate: number;
  readonly maxConcurrency: number;
  readonly chunkCount: number;
  readonly chunkBytes: number;
  readonly dataBytes: number;
}

/**
 * The share of `maxWriteRate` one chunk invocation may use. Chunks run in separate Lambdas with no
 * shared memory, so each takes a fixed share. When every chunk runs at once, shares go by size
 * (cap x chunkBytes / dataBytes): all chunks then finish together and the total holds the cap to the
 * end. With more chunks than the Map runs at once, each running chunk takes cap / MaxConcurrency.
 */
export function chunkWriteRate({
  maxWriteRate,
  maxConcurrency,
  chunkCount,
  chunkBytes,
  dataBytes,
}: ShareInputs): number {
  if (maxWriteRate <= 0) return 0;
  if (chunkCount <= maxConcurrency && dataBytes > 0)
    return (maxWriteRate * Math.min(chunkBytes, dataBytes)) / dataBytes;
  return maxWriteRate / Math.max(1, maxConcurrency);
}

/**
 * A chunk's limiter, whose rate may change while it runs (`setRate`), made even while uncapped (0 lets all through).
 * The burst is one second's worth (at least one 25-item batch) so the rate holds within a second, not just on
 * average over the import.
 */
export function createLiveLimiter(ratePerSecond: number, clock: Clock = systemClock): RateLimiter {
  return new RateLimiter(ratePerSecond, burstFor(ratePerSecond), clock);
}

/** One second's worth, and at least one 25-item batch. */
const burstFor = (ratePerSecond: number) => Math.max(25, ratePerSecond);
