import { describe, expect, it } from 'vitest';
import { grantLanes } from '../../../lambdas/preflight/lanes.js';

describe.each([
  // Local runs have no Lambda: the configured lanes stand.
  { configured: 40, concurrency: null, granted: 40 },
  // A reservation of 12 admits 12 invocations at once: 40 lanes would have 28 throttled.
  { configured: 40, concurrency: { reserved: 12, unreserved: null }, granted: 12 },
  // A reservation above the lanes changes nothing.
  { configured: 8, concurrency: { reserved: 100, unreserved: null }, granted: 8 },
  // A new account: 10 unreserved, half of it is 5.
  { configured: 40, concurrency: { reserved: null, unreserved: 10 }, granted: 5 },
  // The default quota: half of 1,000 is 500, above 40.
  { configured: 40, concurrency: { reserved: null, unreserved: 1000 }, granted: 40 },
  // 1 unreserved: floor(0.5) = 0, but an import needs one lane.
  { configured: 40, concurrency: { reserved: null, unreserved: 1 }, granted: 1 },
  // The account could not tell: keep what was configured.
  { configured: 40, concurrency: { reserved: null, unreserved: null }, granted: 40 },
])('grantLanes($configured, $concurrency)', ({ configured, concurrency, granted }) => {
  it(`grants ${granted} lanes and says why`, () => {
    const lanes = grantLanes(configured, concurrency);
    expect(lanes).toMatchObject({ configured, granted });
    expect(lanes.reason).toMatch(granted < configured ? /lowered to/ : /within|local run|unknown/);
  });
});
