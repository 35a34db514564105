import { describe, expect, it } from 'vitest';
import { ALL_REJECTED_ROWS, RejectBudget } from '../../../lambdas/import/reject-budget.js';
import type { ItemSink } from '../../../lambdas/write/item-sink.js';

const SINK: ItemSink = { add: () => undefined, flush: async () => undefined, written: 0 };

/** A budget after `rejects` rejected rows and `items` rows that became items, in this invocation. */
function after(
  maxRejects: number | undefined,
  rejects: number,
  items: number,
  before?: { rows: number; rejected: number },
) {
  const budget = new RejectBudget(maxRejects, before);
  const sink = budget.counting(SINK);
  for (let i = 0; i < items; i++) sink.add({}, String(i));
  for (let i = 0; i < rejects; i++) budget.rejected(`reason ${i % 5}`);
  return budget;
}

describe('RejectBudget', () => {
  it.each([
    // No maxRejects: 999 rejects of 999 rows is not yet the rule; the 1,000th is.
    [undefined, 999, 0, undefined, false],
    [undefined, 1000, 0, undefined, true],
    // One row became an item: the rows are not all rejected, however many rejects follow.
    [undefined, 5000, 1, undefined, false],
    // An earlier invocation of the chunk read 600 rows, all rejected: 400 more make 1,000.
    [undefined, 400, 0, { rows: 600, rejected: 600 }, true],
    // An earlier invocation wrote something (rows 600, rejected 599): never the default rule.
    [undefined, 5000, 0, { rows: 600, rejected: 599 }, false],
    // maxRejects N: more than N fails, N does not.
    [10, 10, 90, undefined, false],
    [10, 11, 90, undefined, true],
    // Counted over the chunk's invocations: 8 before and 3 now are 11.
    [10, 3, 0, { rows: 100, rejected: 8 }, true],
    // maxRejects 0: the first reject fails it.
    [0, 1, 1000, undefined, true],
  ] as const)('maxRejects %s, %i rejects, %i items, before %j: spent %s', (max, rejects, items, before, spent) => {
    expect(after(max, rejects, items, before).spent()).toBe(spent);
  });

  it('fails naming the chunk, the rule, the first three distinct reasons and the rejects', () => {
    const budget = after(undefined, ALL_REJECTED_ROWS, 0);
    expect(() => budget.check('s3://b/k.csv', 's3://b/rejects/e/0.csv')).toThrow(
      expect.objectContaining({
        name: 'TooManyRejectsError',
        message:
          's3://b/k.csv: its first 1000 rows were all rejected (without maxRejects an import stops there); first ' +
          'reasons: reason 0 | reason 1 | reason 2. Rows written before it stay written; rejects in s3://b/rejects/e/0.csv',
      }),
    );
  });

  it('passes the check when within budget', () => {
    expect(() => after(10, 10, 0).check('w', 'r')).not.toThrow();
  });
});
