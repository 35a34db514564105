/**
 * A round is judged on at least this many replies, so one unlucky reply at a small limit does not decide:
 * at 60% scattered push-back, a round of 1 would be "all pushed back" 60% of the time, one of 8 only 11%.
 */
export const MIN_ROUND_REPLIES = 8;

/**
 * A round with more than this share of replies pushed back cuts the limit. Fewer requests in flight cannot
 * lower a push-back that comes at any load (30% throttled + 30% partly unprocessed is 60% of replies
 * at 1 or at 16 in flight), while a table over its rate pushes back nearly every reply once it is
 * over-offered (each request finds the bucket the previous one emptied). 3/4 sits between the two.
 */
export const CUT_SHARE = 0.75;

/**
 * How many requests may be in flight, adapted AIMD-style by rounds. A round is the next
 * max(limit, MIN_ROUND_REPLIES) replies to requests sent since the last cut; then, if more than 3/4 of
 * them were pushed back (a throttle, items left unprocessed, a retryable error), the limit halves,
 * otherwise it grows by one: never above `max` nor below 1. Replies to requests sent before a cut are
 * not counted again, so one burst of throttles cuts once, not once per reply.
 */
export class AdaptiveLimit {
  private current: number;
  /** Counts cuts: a request started under an older one is not judged again. */
  private epoch = 0;
  private replies = 0;
  private pushedBack = 0;

  constructor(private readonly max: number) {
    this.current = max;
  }

  get value(): number {
    return this.current;
  }

  /** A request is being sent: returns the ticket its reply hands back to `replied`. */
  started(): number {
    return this.epoch;
  }

  /** The reply to a request: clean (every item written) or pushed back. */
  replied(ticket: number, pushedBack: boolean): void {
    if (ticket !== this.epoch) return;
    this.replies++;
    if (pushedBack) this.pushedBack++;
    if (this.replies < Math.max(this.current, MIN_ROUND_REPLIES)) return;
    if (this.pushedBack > CUT_SHARE * this.replies) {
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.epoch++;
    } else {
      this.current = Math.min(this.max, this.current + 1);
    }
    this.replies = 0;
    this.pushedBack = 0;
  }
}
