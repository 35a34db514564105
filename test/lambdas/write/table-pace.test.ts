import { describe, expect, it } from 'vitest';
import { MIN_PACE, PACE_EPOCH_MS, PACE_GROWTH, RATE_BLIND_MS, TablePace } from '../../../lambdas/write/table-pace.js';

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

describe('TablePace: the rate a lane offers follows what the table takes', () => {
  it('stays unpaced while the table refuses nothing, and sends at once', () => {
    const pace = new TablePace(0);
    const now = replies(pace, 0, 2_000, 5, 0);
    expect(pace.itemsPerSecond).toBe(Infinity);
    expect(pace.waitMs(25, now)).toBe(0);
  });

  it('sets the rate to the rows written a second once an epoch refused more than REFUSED_HIGH of them', () => {
    const pace = new TablePace(0);
    // 25 rows every 5 ms, 15 refused: 10 written every 5 ms; the reply at 200 ms ends the epoch (41 replies).
    replies(pace, 0, PACE_EPOCH_MS + 5, 5, 15);
    expect(pace.itemsPerSecond).toBeCloseTo((41 * 10) / (PACE_EPOCH_MS / 1000), 6);
  });

  it('then makes a sender wait for its tokens: 25 rows at 2,000 a second is one request every 12.5 ms', () => {
    const pace = new TablePace(0);
    const cutAt = 5 * Math.ceil(PACE_EPOCH_MS / 5); // the reply that ended the epoch
    const now = replies(pace, 0, PACE_EPOCH_MS + 5, 5, 15);
    const rate = pace.itemsPerSecond;
    // No burst at the cut: the tokens start empty then, and fill at the rate.
    const due = cutAt + (25 / rate) * 1000;
    expect(pace.waitMs(25, now)).toBeCloseTo(due - now, 6);
    expect(pace.waitMs(25, due)).toBeCloseTo(0, 9);
    pace.spend(25, due);
    expect(pace.waitMs(25, due)).toBeCloseTo((25 / rate) * 1000, 6);
  });

  it('keeps the cut when the next epoch refuses far less, and grows by PACE_GROWTH after a clean epoch it used', () => {
    const pace = new TablePace(0);
    let now = replies(pace, 0, PACE_EPOCH_MS + 5, 5, 15); // cut to ~2,000
    const cut = pace.itemsPerSecond;
    now = replies(pace, now, PACE_EPOCH_MS + 12, 12.5, 1); // 4% refused: below half the 60% before, the cut stays
    expect(pace.itemsPerSecond).toBe(cut);
    now = replies(pace, now, PACE_EPOCH_MS + 12, 12.5, 0); // clean, at the rate: grows
    expect(pace.itemsPerSecond).toBeCloseTo(cut * PACE_GROWTH, 5);
    replies(pace, now, PACE_EPOCH_MS + 100, 100, 0); // clean but a quarter of the rate used: no growth
    expect(pace.itemsPerSecond).toBeCloseTo(cut * PACE_GROWTH, 5);
  });

  it('undoes a cut that did not lower the refused share (throttles at any rate) and cuts no more for RATE_BLIND_MS', () => {
    const pace = new TablePace(0);
    let now = replies(pace, 0, PACE_EPOCH_MS + 5, 5, 10); // 40% refused: cut
    expect(pace.itemsPerSecond).toBeLessThan(Infinity);
    now = replies(pace, now, PACE_EPOCH_MS + 5, 5, 10); // still 40% at the lower rate: not the table's rate
    expect(pace.itemsPerSecond).toBe(Infinity);
    const blind: number[] = [];
    now = replies(pace, now, RATE_BLIND_MS - 2 * PACE_EPOCH_MS, 5, 10, blind);
    expect(blind.every((rate) => rate === Infinity)).toBe(true);
    const after: number[] = [];
    replies(pace, now + 2 * PACE_EPOCH_MS, 4 * PACE_EPOCH_MS, 5, 10, after);
    expect(after.some((rate) => rate < Infinity)).toBe(true); // past RATE_BLIND_MS it tries a cut again
  });

  it('never sets a rate below MIN_PACE, even when an epoch wrote nothing', () => {
    const pace = new TablePace(0);
    replies(pace, 0, PACE_EPOCH_MS + 5, 5, 25);
    expect(pace.itemsPerSecond).toBe(MIN_PACE);
  });
});
