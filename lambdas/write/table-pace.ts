/** Replies are judged in epochs of this long: at a table's capacity, a few hundred rows and a dozen requests. */
export const PACE_EPOCH_MS = 200;
/** An epoch whose replies refused more than this share of the rows sent offered more than the table takes. */
export const REFUSED_HIGH = 0.05;
/** An epoch that refused less than this share may offer more. */
export const REFUSED_LOW = 0.02;
/** How much more a clean epoch lets the next offer: ~1.6x a second, so a table that grows is found again soon. */
export const PACE_GROWTH = 1.1;
/** After a cut that did not lower the refused share (refusals that come at any rate), no cut for this long. */
export const RATE_BLIND_MS = 5_000;
/** The least rate a cut sets, items/s: a lane always moves. */
export const MIN_PACE = 25;

/** One epoch's replies. */
interface Epoch {
  start: number;
  sent: number;
  refused: number;
}

/**
 * The rate a lane offers the table, learnt from what the table refuses (issue 37). Requests in flight alone cannot
 * pace a lane at a small table: one request at a time, answered in a few ms, offers thousands of rows a second, and
 * every row refused costs a seat in a later request. So while replies refuse rows, the lane offers what the table
 * took: an epoch that refused more than REFUSED_HIGH of its rows sets the rate to the rows it wrote a second, a clean
 * one raises it by PACE_GROWTH (while the lane used the rate), and a lane never refused stays unpaced. Refusals that a
 * lower rate does not lower (scattered throttles that come at any load) undo the cut and stop cutting for
 * RATE_BLIND_MS, so such a table is not offered less and less. Pure: time comes in as `now` (ms).
 *
 * @example
 * const pace = new TablePace(0);
 * const wait = pace.waitMs(25, now); // 0 while unpaced
 * pace.spend(25, now);
 * pace.replied(25, 10, now); // the reply refused 10 rows
 */
export class TablePace {
  /** Rows a second; Infinity until the table refuses enough. */
  private rate = Infinity;
  private tokens = 0;
  private last: number;
  private epoch: Epoch;
  /** The rate and refused share before the last cut, while its effect is judged. */
  private cut: { rate: number; share: number } | undefined;
  private blindUntil = -Infinity;

  constructor(now: number) {
    this.last = now;
    this.epoch = { start: now, sent: 0, refused: 0 };
  }

  /** Rows a second the lane may offer now (Infinity: unpaced). */
  get itemsPerSecond(): number {
    return this.rate;
  }

  /** How long to wait before sending `items` rows (0: now). */
  waitMs(items: number, now: number): number {
    if (!Number.isFinite(this.rate)) return 0;
    this.refill(now);
    return this.tokens >= items ? 0 : ((items - this.tokens) / this.rate) * 1000;
  }

  /** `items` rows are sent now. */
  spend(items: number, now: number): void {
    if (!Number.isFinite(this.rate)) return;
    this.refill(now);
    this.tokens -= items;
  }

  /** A reply: `sent` rows, `refused` of them not written (all of them for a throttle or an error). */
  replied(sent: number, refused: number, now: number): void {
    this.epoch.sent += sent;
    this.epoch.refused += refused;
    if (now - this.epoch.start >= PACE_EPOCH_MS) this.judge(now);
  }

  private judge(now: number): void {
    const { start, sent, refused } = this.epoch;
    const seconds = (now - start) / 1000;
    const share = sent > 0 ? refused / sent : 0;
    this.epoch = { start: now, sent: 0, refused: 0 };
    if (this.cut) {
      const { cut } = this;
      this.cut = undefined;
      if (share > REFUSED_HIGH && share > cut.share / 2) [this.rate, this.blindUntil] = [cut.rate, now + RATE_BLIND_MS];
    } else if (share > REFUSED_HIGH && now >= this.blindUntil) {
      this.cut = { rate: this.rate, share };
      this.rate = Math.max(MIN_PACE, (sent - refused) / seconds);
      [this.tokens, this.last] = [0, now]; // the rows of the cut epoch were offered already: no burst on top
    } else if (share < REFUSED_LOW && Number.isFinite(this.rate) && sent / seconds >= 0.8 * this.rate) {
      this.rate *= PACE_GROWTH;
    }
  }

  /** Rows the lane may send at once: one request, or a twentieth of a second of its rate. */
  private burst(): number {
    return Math.max(25, this.rate / 20);
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst(), this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }
}
