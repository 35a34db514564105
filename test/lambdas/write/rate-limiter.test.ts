import { describe, expect, it } from 'vitest';
import { RateLimiter, chunkWriteRate, createLiveLimiter, type Clock } from '../../../lambdas/write/rate-limiter.js';

/** Virtual time: sleeping moves the clock, so the limiter's arithmetic is tested without waiting. */
function virtualClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('RateLimiter', () => {
  it('lets the burst through at once, then paces at the rate', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(100, 25, clock);
    // 8 batches of 25 = 200 items: the first 25 are the burst, the other 175 take 175 / 100 = 1.75 s.
    for (let i = 0; i < 8; i++) await limiter.take(25);
    expect(clock.now()).toBeCloseTo(1750, 6);
  });

  it('shares one rate between concurrent takers, in order', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(50, 25, clock);
    const order: number[] = [];
    // 4 concurrent takers of 25: burst 25 then 75 more at 50/s = 1.5 s in all, served first come first.
    await Promise.all([0, 1, 2, 3].map((i) => limiter.take(25).then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3]);
    expect(clock.now()).toBeCloseTo(1500, 6);
  });

  it('never takes more than the burst at once, so a large request cannot deadlock', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(10, 5, clock);
    await limiter.take(25); // capped at the 5-token burst: immediate
    expect(clock.now()).toBe(0);
  });
});

describe.each([
  // maxWriteRate, MaxConcurrency, chunks, chunk bytes, data bytes, share per chunk (items/s)
  [0, 40, 100, 64, 6400, 0], // uncapped stays uncapped
  [4000, 40, 100, 64, 6400, 100], // 100 chunks, 40 at a time: each running chunk takes 4,000 / 40
  [4000, 40, 8, 100, 800, 500], // 8 equal chunks all at once: 4,000 x 100 / 800
  [4000, 40, 8, 30, 730, (4000 * 30) / 730], // the short last chunk takes less: all 8 end together
  [4000, 10, 1, 500, 500, 4000], // one chunk takes the whole cap
])(
  'chunkWriteRate(%d, %d, %d chunks, %d of %d bytes)',
  (maxWriteRate, maxConcurrency, chunkCount, chunkBytes, dataBytes, share) => {
    it(`is ${share} items/s`, () => {
      expect(chunkWriteRate({ maxWriteRate, maxConcurrency, chunkCount, chunkBytes, dataBytes })).toBeCloseTo(share, 9);
    });
  },
);

describe('createLiveLimiter', () => {
  it('gives a slow share a burst of one batch (25 items) so a batch can always go', async () => {
    const clock = virtualClock();
    const limiter = createLiveLimiter(10, clock);
    await limiter.take(25);
    expect(clock.now()).toBe(0);
    await limiter.take(25); // 25 more at 10/s
    expect(clock.now()).toBeCloseTo(2500, 6);
  });
});
