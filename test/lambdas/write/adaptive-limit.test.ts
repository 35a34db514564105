import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '../../../lambdas/write/adaptive-limit.js';

/** Whether reply number `i` (from 0, counted across phases) is pushed back, given the limit when it was sent. */
type PushBack = (i: number, limit: number) => boolean;

const always: PushBack = () => true;
const never: PushBack = () => false;
/** P P C P C, repeated: 3 of every 5 replies pushed back, scattered (60%, the fault mix). */
const threeOfFive: PushBack = (i) => [true, true, false, true, false][i % 5];
/** 7 of every 8 pushed back: a table that refuses almost everything. */
const sevenOfEight: PushBack = (i) => i % 8 !== 0;
/** 3 of every 4: exactly the cut share, which is not "more than". */
const threeOfFour: PushBack = (i) => i % 4 !== 0;
/** A table that takes 6 requests in flight and pushes back every reply beyond that. */
const capacitySix: PushBack = (_i, limit) => limit > 6;

type Phase = readonly [replies: number, pushedBack: PushBack];
const phase = (replies: number, pushedBack: PushBack): Phase => [replies, pushedBack];

/** Sends and answers one request at a time through each phase; returns every limit seen after a reply. */
function drive(max: number, phases: readonly Phase[]): number[] {
  const limit = new AdaptiveLimit(max);
  const seen: number[] = [];
  let i = 0;
  for (const [replies, pushedBack] of phases) {
    for (let n = 0; n < replies; n++, i++) {
      const sentUnder = limit.value;
      limit.replied(limit.started(), pushedBack(i, sentUnder));
      seen.push(limit.value);
    }
  }
  return seen;
}

describe('AdaptiveLimit settles where the push-back puts it', () => {
  describe.each([
    {
      // Rounds of max(limit, 8) replies, all pushed back: 16 -> 8 (16 replies), -> 4, -> 2, -> 1 (8 each):
      // 16 + 3 x 8 = 40 replies to reach 1, where it stays.
      name: 'sustained push-back cuts to 1',
      max: 16,
      phases: [phase(60, always)],
      settles: 1,
      reachedAfter: 40,
    },
    {
      // Any 16 replies in a row hold at most 10 push-backs (3 per 5: 3 + 3 + 3 + 1), 10/16 = 62.5%, not
      // more than 3/4: every round grows (capped at 16), so scattered faults never cut the limit.
      name: 'scattered push-back (60%) keeps the limit at its maximum',
      max: 16,
      phases: [phase(400, threeOfFive)],
      settles: 16,
      reachedAfter: 0,
    },
    {
      // 40 sustained replies take it to 1 (above). Then rounds of 8 hold at most 5 push-backs (62.5%): +1 per
      // round, 1 -> 8 in 7 rounds of 8 (56 replies), then 8 -> 16 in rounds of 8, 9, ..., 15 (92 replies):
      // back at 16 after 40 + 56 + 92 = 188 replies.
      name: 'scattered push-back after a sustained one climbs back to the maximum',
      max: 16,
      phases: [phase(40, always), phase(200, threeOfFive)],
      settles: 16,
      reachedAfter: 188,
    },
    {
      // 14 of 16 (87.5%), then 7 of 8 per round of 8: more than 3/4 every round, 16 -> 8 -> 4 -> 2 -> 1 in
      // 16 + 3 x 8 = 40 replies.
      name: 'refusal of 7 in 8 replies cuts like a sustained one',
      max: 16,
      phases: [phase(80, sevenOfEight)],
      settles: 1,
      reachedAfter: 40,
    },
    {
      // 12 of 16 is exactly 3/4, not more: no cut.
      name: 'push-back of exactly 3 in 4 does not cut',
      max: 16,
      phases: [phase(160, threeOfFour)],
      settles: 16,
      reachedAfter: 0,
    },
    {
      // 40 sustained replies cut to 1; then clean replies grow it +1 per round of max(limit, 8): 1 -> 8 in
      // 7 rounds of 8 (56 replies), 8 -> 16 in 8 + 9 + ... + 15 = 92: 40 + 56 + 92 = 188, the same climb as
      // under scattered push-back (which never fills more than 3/4 of a round).
      name: 'clean replies after a sustained push-back restore the maximum',
      max: 16,
      phases: [phase(40, always), phase(200, never)],
      settles: 16,
      reachedAfter: 188,
    },
  ])('$name', ({ max, phases, settles, reachedAfter }) => {
    it(`ends at ${settles}, reached after ${reachedAfter} replies and kept`, () => {
      const seen = drive(max, phases);
      expect(seen.at(-1)).toBe(settles);
      const from = reachedAfter === 0 ? 0 : reachedAfter - 1;
      expect(seen.slice(from).every((v) => v === settles)).toBe(true);
      if (reachedAfter > 0) expect(seen[from - 1]).not.toBe(settles);
    });
  });

  it('oscillates around what a table takes: between 3 and 7 for a table that takes 6 in flight', () => {
    // 16 > 6: all pushed back, 16 -> 8 -> 4. At 4, 5, 6 everything goes through: +1 per round of 8. At 7 a
    // round of 8 is pushed back: 7 -> 3, and again up 3, 4, 5, 6, 7: the AIMD sawtooth around 6, never far below.
    const seen = drive(16, [phase(600, capacitySix)]);
    const settled = seen.slice(100);
    expect(Math.min(...settled)).toBe(3);
    expect(Math.max(...settled)).toBe(7);
    const mean = settled.reduce((a, b) => a + b, 0) / settled.length;
    expect(mean).toBeGreaterThan(4.5); // 3, 4, 5, 6, 7 for 8 replies each: 5 on average
  });

  it('judges a burst of replies to requests sent before a cut once, not once per reply', () => {
    // 24 requests sent under limit 16, all throttled. The first 16 replies make a round: 16 -> 8. The other 8
    // were sent before that cut; counting them again would cut to 4 for the same burst.
    const limit = new AdaptiveLimit(16);
    const tickets = Array.from({ length: 24 }, () => limit.started());
    for (const ticket of tickets) limit.replied(ticket, true);
    expect(limit.value).toBe(8);
  });
});
