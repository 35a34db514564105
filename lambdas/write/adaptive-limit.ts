/**
 * Recovery is slow on purpose: after a cut, one more request in flight per 4 x limit requests that
 * went through without a throttle, so a busy production table gets room back gradually.
 */
const RECOVERY_REQUESTS_PER_STEP = 4;

/**
 * How many requests may be in flight, adapted AIMD-style: halved when the table pushes back (once per
 * round of requests, not once per throttled reply of the same round), grown by one after a run of clean
 * replies, never above `max` nor below 1.
 */
export class AdaptiveLimit {
  private current: number;
  /** Requests started since the last cut. */
  private startedSinceCut = Number.POSITIVE_INFINITY;
  private cleanSinceStep = 0;

  constructor(private readonly max: number) {
    this.current = max;
  }

  get value(): number {
    return this.current;
  }

  started(): void {
    this.startedSinceCut++;
  }

  /** A throttle or unprocessed items: multiplicative decrease. */
  pushedBack(): void {
    this.cleanSinceStep = 0;
    if (this.startedSinceCut < this.current) return;
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.startedSinceCut = 0;
  }

  /** A request fully written: additive increase, slowly. */
  clean(): void {
    if (this.current >= this.max) return;
    if (++this.cleanSinceStep >= RECOVERY_REQUESTS_PER_STEP * this.current) {
      this.current++;
      this.cleanSinceStep = 0;
    }
  }
}
