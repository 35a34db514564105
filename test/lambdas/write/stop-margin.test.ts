import { describe, expect, it } from 'vitest';
import { DEFAULT_WRITE_RETRY, type RetryPolicy } from '../../../lambdas/retry/backoff.js';
import { DEFAULT_WRITE_CONFIG } from '../../../lambdas/environment/config.js';
import { fitStopMargin } from '../../../lambdas/environment/lambda-context.js';
import { longestBackoffMs } from '../../../lambdas/retry/batch-retry.js';
import { importStopMarginMs } from '../../../lambdas/write/stop-margin.js';

const SMALL: RetryPolicy = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 20 };

describe('the import stop margin follows the retry policy and the request timeout', () => {
  it.each([
    // Levels 0..10 of 50 ms doubling, capped at 5 s: 50+100+200+400+800+1600+3200 + 4 x 5000 = 26,350; plus
    // 24 partial replies x 50 = 1,200: 27,550.
    { name: 'the default ladder', policy: DEFAULT_WRITE_RETRY, backoff: 27_550 },
    // Levels 0..2: 10 + 20 + 20 = 50; plus 24 x 10 = 240: 290.
    { name: 'a short test ladder', policy: SMALL, backoff: 290 },
    // One attempt: no stalled retry ever sleeps; partial replies still wait their base: 24 x 50 = 1,200.
    { name: 'a single attempt', policy: { ...DEFAULT_WRITE_RETRY, maxAttempts: 1 }, backoff: 1200 },
    // A cap of 10 s instead of 5 s: 6,350 + 6,400 + 3 x 10,000 + 1,200 = 43,950: the margin moves with the policy.
    { name: 'a higher cap', policy: { ...DEFAULT_WRITE_RETRY, maxDelayMs: 10_000 }, backoff: 43_950 },
  ])('longest back-off of $name is $backoff ms', ({ policy, backoff }) => {
    expect(longestBackoffMs(policy)).toBe(backoff);
  });

  it.each([
    // 27,550 back-off + 5,000 request timeout + 2,000 window drain + 1,000 finish reserve = 35,550.
    { name: 'deployed defaults', inputs: { ...DEFAULT_WRITE_CONFIG, maxInFlight: 16, writeRate: 0 }, margin: 35_550 },
    // 290 + 1,000 + 2,000 + 1,000 = 4,290.
    {
      name: 'a short ladder and a 1 s timeout',
      inputs: { retry: SMALL, requestTimeoutMs: 1000, maxInFlight: 16, writeRate: 0 },
      margin: 4290,
    },
    // Capped at 400 items/s: 16 batches x 25 items wait their turn for up to 400 / 400 = 1 s more: 36,550.
    {
      name: 'a write cap of 400 items/s',
      inputs: { ...DEFAULT_WRITE_CONFIG, maxInFlight: 16, writeRate: 400 },
      margin: 36_550,
    },
  ])('margin for $name is $margin ms', ({ inputs, margin }) => {
    expect(importStopMarginMs(inputs)).toBe(margin);
  });

  it.each([
    // 900 s: 33.55 s fits (under half).
    { totalMs: 900_000, required: 33_550, marginMs: 33_550, fits: true },
    // 60 s: half is 30 s < 33.55 s: the margin is 30 s and the caller warns.
    { totalMs: 60_000, required: 33_550, marginMs: 30_000, fits: false },
    // Exactly half fits.
    { totalMs: 67_100, required: 33_550, marginMs: 33_550, fits: true },
    // A 1 s invocation with a 2.29 s requirement: 0.5 s margin, never more than the invocation.
    { totalMs: 1000, required: 2290, marginMs: 500, fits: false },
    // Nothing left (a late retry): no margin, no negative one.
    { totalMs: 0, required: 2290, marginMs: 0, fits: false },
  ])(
    'an invocation of $totalMs ms keeps $marginMs ms for a required $required',
    ({ totalMs, required, marginMs, fits }) => {
      expect(fitStopMargin(required, totalMs)).toEqual({ marginMs, fits });
    },
  );
});
