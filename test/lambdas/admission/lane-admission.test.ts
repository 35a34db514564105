import { describe, expect, it } from 'vitest';
import { countLanes, decideLanes, type LaneAsk, type LaneHolder } from '../../../lambdas/admission/lane-admission.js';

const ask = (over: Partial<LaneAsk> = {}): LaneAsk => ({
  table: 't',
  want: 8,
  capped: false,
  poolLanes: null,
  tableLanes: 40,
  ...over,
});
const holder = (table: string, lanes: number, capped = false): LaneHolder => ({ table, lanes, capped });

describe.each<[string, Record<string, LaneHolder>, LaneAsk, number]>([
  // Nobody running: all it wants.
  ['an idle ledger', {}, ask(), 8],
  // Never more than the chunks it has (want) nor the table's lanes.
  ['a small import', {}, ask({ want: 1 }), 1],
  ['a big import', {}, ask({ want: 500 }), 40],
  // Uncapped imports into one table share its 40 lanes: 40 - (30 + 5) = 5 left.
  ['a shared table', { a: holder('t', 30), b: holder('t', 5) }, ask(), 5],
  ['a full table', { a: holder('t', 40) }, ask(), 0],
  // Another table's lanes do not count against this table, only against the pool.
  ['another table busy', { a: holder('u', 40) }, ask(), 8],
  // The pool (Lambda concurrency) bounds every import together: 10 - (4 + 3) = 3.
  ['a nearly full pool', { a: holder('u', 4), b: holder('v', 3) }, ask({ poolLanes: 10 }), 3],
  ['a full pool', { a: holder('u', 6), b: holder('v', 4) }, ask({ poolLanes: 10 }), 0],
  // A maxWriteRate holds only if that import is alone on its table: it waits for others, others wait for it.
  ['a capped import behind an uncapped one', { a: holder('t', 1) }, ask({ capped: true }), 0],
  ['an uncapped import behind a capped one', { a: holder('t', 1, true) }, ask(), 0],
  ['a capped import, its table free', { a: holder('u', 1, true) }, ask({ capped: true }), 8],
  // A redriven chunk asks for all its Map's lanes or none (import/chunk-admission.ts): 40 - 35 = 5 free < 8 wanted.
  ['a whole ask, too few free', { a: holder('t', 35) }, ask({ whole: true }), 0],
  ['a whole ask, enough free', { a: holder('t', 32) }, ask({ whole: true }), 8],
])('decideLanes with %s', (_, holders, lanesAsk, granted) => {
  it(`grants ${granted}`, () => {
    const decision = decideLanes(countLanes(holders, lanesAsk.table), lanesAsk);
    expect(decision.granted).toBe(granted);
    expect(decision.reason).toMatch(granted === 0 ? /^waiting: / : new RegExp(`^${granted} lanes`));
  });
});
