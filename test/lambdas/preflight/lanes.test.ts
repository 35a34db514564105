import { describe, expect, it } from 'vitest';
import { poolLanes } from '../../../lambdas/preflight/lanes.js';

describe.each([
  // Local runs have no Lambda: no bound (each table's lanes still bound it).
  { concurrency: null, lanes: null, why: /local run/ },
  // A reservation of 12 admits 12 invocations at once, for all imports together.
  { concurrency: { reserved: 12, unreserved: null }, lanes: 12, why: /reserved 12/ },
  // A new account: 10 unreserved, half of it is 5.
  { concurrency: { reserved: null, unreserved: 10 }, lanes: 5, why: /half the account's 10/ },
  // The default quota: half of 1,000 is 500.
  { concurrency: { reserved: null, unreserved: 1000 }, lanes: 500, why: /\(500\)/ },
  // 1 unreserved: floor(0.5) = 0, but an import needs one lane.
  { concurrency: { reserved: null, unreserved: 1 }, lanes: 1, why: /\(1\)/ },
  // The account could not tell: no bound.
  { concurrency: { reserved: null, unreserved: null }, lanes: null, why: /unknown/ },
])('poolLanes($concurrency)', ({ concurrency, lanes, why }) => {
  it(`is ${lanes} and says why`, () => {
    const pool = poolLanes(concurrency);
    expect(pool.lanes).toBe(lanes);
    expect(pool.reason).toMatch(why);
  });
});
