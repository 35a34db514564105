/** Replies are judged in epochs of this long: at a table's capacity, a few hundred rows and a dozen requests. */
export const PACE_EPOCH_MS = 200;
/**
 * An epoch whose partly written replies refused more than this share of their rows offered more than the table
 * takes: the rate is cut. Each row refused costs a seat in a later request, so at this share a row is sent 1.5 times,
 * 0.059 requests per row written at most; most epochs sit between the two bounds (docs/performance.md: 0.28 and
 * 0.12 sent fewer, 0.053-0.056 on random keys, but starved partitions on files sorted by key at P = 32).
 */
export const REFUSED_HIGH = 0.32;
/** An epoch that refused less than this share, having used its rate, may offer more. */
export const REFUSED_LOW = 0.16;
/**
 * The first cut sets the rate to this times the rows the epoch wrote a second: the table took those while other
 * partitions were short of rows, so it takes more once the rows spread.
 */
export const FIRST_CUT_HEADROOM = 1.3;
/** Each later cut multiplies the rate by this. */
export const PACE_CUT = 0.8;
/**
 * Growth per epoch under REFUSED_LOW until the first cut after a growth. The first rates are guesses: a lane's first
 * replies may meet a table with nothing banked and write far less than it takes later (the bench's model: empty
 * buckets at the first request), and the cuts before any growth follow that guess down.
 */
export const PACE_START_GROWTH = 2;
/** Growth per epoch under REFUSED_LOW after it: ~1.6x a second, so a table that grows is found again soon. */
export const PACE_GROWTH = 1.1;
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
 * every row refused costs a seat in a later request. So the lane starts unpaced (its first write goes at once), and
 * once an epoch's partly written replies refused more than REFUSED_HIGH of their rows, it offers a rate: cut again
 * by PACE_CUT after every such epoch, grown after an epoch under REFUSED_LOW that used the rate, held between. Only
 * replies that wrote some rows count: a throttle (none written) is the retry ladder's and the in-flight limit's,
 * and scattered throttles that come at any rate must not slow the lane. Pure: time comes in as `now` (ms).
 *
 * @example
 * const pace = new TablePace(0);
 * const wait = pace.waitMs(25, now); // 0 while unpaced
 * pace.spend(25, now);
 * pace.replied(25, 10, now); // the reply wrote 15 of its 25 rows
 */
export class TablePace {
  /** Rows a second; Infinity until the table refuses enough. */
  private rate = Infinity;
  private tokens = 0;
  private last: number;
  private epoch: Epoch;
  /** Growing by PACE_START_GROWTH: no cut has come after a growth yet. */
  private starting = true;
  private grown = false;

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

  /** A reply that wrote some of its rows: `sent` rows, `refused` of them returned unprocessed. */
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
    if (share > REFUSED_HIGH) {
      const written = (sent - refused) / seconds;
      this.rate = Math.max(MIN_PACE, Number.isFinite(this.rate) ? this.rate * PACE_CUT : written * FIRST_CUT_HEADROOM);
      if (this.grown) this.starting = false;
      // The rows of the epoch were offered already: no burst on top.
      [this.tokens, this.last] = [Math.min(this.tokens, 0), now];
    } else if (share < REFUSED_LOW && Number.isFinite(this.rate) && sent / seconds >= 0.8 * this.rate) {
      this.rate *= this.starting ? PACE_START_GROWTH : PACE_GROWTH;
      this.grown = true;
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
