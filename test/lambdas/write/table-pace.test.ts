import { describe, expect, it } from 'vitest';
import {
  FIRST_CUT_HEADROOM,
  MIN_PACE,
  PACE_CUT,
  PACE_EPOCH_MS,
  PACE_GROWTH,
  PACE_START_GROWTH,
  REFUSED_HIGH,
  REFUSED_LOW,
  TablePace,
} from '../../../lambdas/write/table-pace.js';

/**
 * Replies of 25 rows, `refused` each, every `everyMs` from `from` for `ms`: returns when it stopped. `seen` gets the
 * rate after each reply.
 */
function replies(pace: TablePace, from: number, ms: number, everyMs: number, refused: number, seen?: number[]) {
  let now = from;
  for (; now < from + ms; now += everyMs) {
    pace.replied(25, refused, now);
    seen?.push(pace.itemsPerSecond);
  }
  return now;
}

/** A pace cut once: 25 rows every 5 ms, 15 refused (60%), so 10 written every 5 ms over the first epoch. */
function cutOnce(): { pace: TablePace; now: number; rate: number } {
  const pace = new TablePace(0);
  const now = replies(pace, 0, PACE_EPOCH_MS + 5, 5, 15);
  return { pace, now, rate: pace.itemsPerSecond };
}

describe('TablePace: the rate a lane offers follows what the table takes', () => {
  it('stays unpaced while replies refuse no more than REFUSED_HIGH of their rows, and sends at once', () => {
    const pace = new TablePace(0);
    const refused = Math.floor(REFUSED_HIGH * 25); // 9 of 25: 36%, not over it
    const now = replies(pace, 0, 2_000, 5, refused);
    expect(pace.itemsPerSecond).toBe(Infinity);
    expect(pace.waitMs(25, now)).toBe(0);
  });

  it('first sets the rate to FIRST_CUT_HEADROOM times the rows written a second in an epoch over REFUSED_HIGH', () => {
    // The reply at 200 ms ends the epoch: 41 replies of 10 written in 0.2 s.
    expect(cutOnce().rate).toBeCloseTo(((41 * 10) / (PACE_EPOCH_MS / 1000)) * FIRST_CUT_HEADROOM, 6);
  });

  it('then makes a sender wait for its tokens, for the rows it sends: no burst at the cut', () => {
    const { pace, now, rate } = cutOnce();
    const cutAt = 5 * Math.ceil(PACE_EPOCH_MS / 5); // the reply that ended the epoch
    const due = cutAt + (25 / rate) * 1000;
    expect(pace.waitMs(25, now)).toBeCloseTo(due - now, 6);
    expect(pace.waitMs(25, due)).toBeCloseTo(0, 9);
    pace.spend(25, due);
    expect(pace.waitMs(25, due)).toBeCloseTo((25 / rate) * 1000, 6);
    expect(pace.waitMs(5, due)).toBeCloseTo((5 / rate) * 1000, 6); // a short batch waits for its own rows only
  });

  it('grows by PACE_START_GROWTH until a cut comes after a growth, then cuts by PACE_CUT and grows by PACE_GROWTH', () => {
    const { pace, rate } = cutOnce();
    const every = (rate: number) => (25 / rate) * 1000; // replies at the rate: the epoch used it
    let now = replies(pace, 1_000, PACE_EPOCH_MS + every(rate), every(rate), 0); // clean: start growth
    const grown = rate * PACE_START_GROWTH;
    expect(pace.itemsPerSecond).toBeCloseTo(grown, 6);
    now = replies(pace, now, PACE_EPOCH_MS + 5, 5, 15); // over REFUSED_HIGH after a growth: starting ends
    expect(pace.itemsPerSecond).toBeCloseTo(grown * PACE_CUT, 6);
    const cut = pace.itemsPerSecond;
    replies(pace, now, PACE_EPOCH_MS + every(cut), every(cut), 0);
    expect(pace.itemsPerSecond).toBeCloseTo(cut * PACE_GROWTH, 6);
  });

  it('keeps growing by PACE_START_GROWTH after cuts that came before any growth (a first guess followed down)', () => {
    // A table with nothing banked at first: the first epochs refuse most rows at any rate (the bench's model).
    const first = cutOnce();
    const { pace } = first;
    const now = replies(pace, first.now, PACE_EPOCH_MS + 5, 5, 15); // refused again before any growth
    const cut = pace.itemsPerSecond;
    expect(cut).toBeCloseTo(first.rate * PACE_CUT, 6);
    replies(pace, now, PACE_EPOCH_MS + (25 / cut) * 1000, (25 / cut) * 1000, 0);
    expect(pace.itemsPerSecond).toBeCloseTo(cut * PACE_START_GROWTH, 6); // not PACE_GROWTH: still starting
  });

  it('holds the rate between REFUSED_LOW and REFUSED_HIGH, and does not grow on an epoch that left it unused', () => {
    const { pace, rate } = cutOnce();
    const between = Math.ceil(((REFUSED_LOW + REFUSED_HIGH) / 2) * 25); // 7 of 25: 28%
    const now = replies(pace, 1_000, 3 * PACE_EPOCH_MS, (25 / rate) * 1000, between);
    expect(pace.itemsPerSecond).toBe(rate);
    replies(pace, now, 3 * PACE_EPOCH_MS, 100, 0); // clean, but a reply every 100 ms is far under the rate
    expect(pace.itemsPerSecond).toBe(rate);
  });

  it('never sets a rate below MIN_PACE, however many epochs refuse', () => {
    const seen: number[] = [];
    replies(new TablePace(0), 0, 40 * PACE_EPOCH_MS, 5, 24, seen);
    expect(seen.at(-1)).toBe(MIN_PACE);
    expect(Math.min(...seen)).toBe(MIN_PACE);
  });
});
