import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../lambdas/contract/errors.js';
import { warmThroughputToSet, type TargetTable } from '../../../lambdas/preflight/warm-throughput.js';

const onDemand = (warm: number | null): TargetTable => ({
  keys: [],
  onDemand: true,
  warmWriteUnitsPerSecond: warm,
  indexes: [],
});

describe('warmThroughputToSet', () => {
  it.each<[string, number | undefined, TargetTable, number | null]>([
    // Nothing asked: no UpdateTable, whatever the table.
    ['no warmThroughput is asked for', undefined, onDemand(4_000), null],
    // A new on-demand table takes 4,000 writes/s at once; 12,000 asked: raise it to 12,000.
    ['the table takes less at once than asked', 12_000, onDemand(4_000), 12_000],
    // Warm throughput is never lowered, and equal needs no call (nor a bill).
    ['the table already takes exactly that', 12_000, onDemand(12_000), null],
    ['the table already takes more', 12_000, onDemand(40_000), null],
    // DynamoDB Local's DescribeTable has no WarmThroughput: nothing to raise (local runs).
    ['the server reports no warm throughput', 12_000, onDemand(null), null],
  ])('when %s', (_, requested, target, expected) => {
    expect(warmThroughputToSet('ngrams', requested, target)).toBe(expected);
  });

  it('fails when the table is provisioned, before any write, naming the table and the fix', () => {
    const provisioned: TargetTable = { keys: [], onDemand: false, warmWriteUnitsPerSecond: 500, indexes: [] };
    const call = () => warmThroughputToSet('ngrams', 12_000, provisioned);
    expect(call).toThrow(InvalidRequestError);
    expect(call).toThrow(
      'invalid request: warmThroughput: for on-demand tables only; "ngrams" is provisioned, so its writes are ' +
        'capped by its WriteCapacityUnits: raise those instead',
    );
  });

  it('leaves a provisioned table alone when nothing is asked', () => {
    expect(
      warmThroughputToSet('ngrams', undefined, { keys: [], onDemand: false, warmWriteUnitsPerSecond: 5, indexes: [] }),
    ).toBe(null);
  });
});
