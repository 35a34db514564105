import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../lambdas/contract/errors.js';
import {
  warmThroughputToSet,
  type GlobalIndexWarmth,
  type TargetTable,
  type WarmThroughputPlan,
} from '../../../lambdas/preflight/warm-throughput.js';

const onDemand = (warm: number | null, globalIndexes: GlobalIndexWarmth[] = []): TargetTable => ({
  keys: [],
  onDemand: true,
  warmWriteUnitsPerSecond: warm,
  indexes: globalIndexes.map(() => ['gsiKey']),
  globalIndexes,
});
const index = (name: string, warm: number | null): GlobalIndexWarmth => ({ name, warmWriteUnitsPerSecond: warm });
const plan = (table: number | null, ...indexes: [string, number][]): WarmThroughputPlan => ({
  table,
  indexes: indexes.map(([name, writeUnitsPerSecond]) => ({ name, writeUnitsPerSecond })),
});

describe('warmThroughputToSet', () => {
  it.each<[string, number | undefined, TargetTable, WarmThroughputPlan | null]>([
    // Nothing asked: no UpdateTable, whatever the table.
    ['no warmThroughput is asked for', undefined, onDemand(4_000), null],
    // A new on-demand table takes 4,000 writes/s at once; 12,000 asked: raise it to 12,000.
    ['the table takes less at once than asked', 12_000, onDemand(4_000), plan(12_000)],
    // Warm throughput is never lowered, and equal needs no call (nor a bill).
    ['the table already takes exactly that', 12_000, onDemand(12_000), null],
    ['the table already takes more', 12_000, onDemand(40_000), null],
    // A server that reports no warm throughput has none to raise (local runs).
    ['the server reports no warm throughput', 12_000, onDemand(null), null],
    // Each item that holds an index's keys is written to the index too: a cold index throttles the table's writes.
    [
      'the table and one of its two indexes take less than asked',
      12_000,
      onDemand(4_000, [index('byYear', 4_000), index('byCount', 20_000)]),
      plan(12_000, ['byYear', 12_000]),
    ],
    // A warm table with a cold index still needs the call, for the index alone.
    [
      'only an index takes less than asked',
      12_000,
      onDemand(12_000, [index('byYear', 4_000)]),
      plan(null, ['byYear', 12_000]),
    ],
    ['the table and its indexes take as much already', 12_000, onDemand(12_000, [index('byYear', 12_000)]), null],
  ])('when %s', (_, requested, target, expected) => {
    expect(warmThroughputToSet('ngrams', requested, target, true)).toEqual(expected);
  });

  it('fails when the table is provisioned, before any write, naming the table and the fix', () => {
    const provisioned: TargetTable = { keys: [], onDemand: false, warmWriteUnitsPerSecond: 500, indexes: [] };
    const call = () => warmThroughputToSet('ngrams', 12_000, provisioned, true);
    expect(call).toThrow(InvalidRequestError);
    expect(call).toThrow(
      'invalid request: warmThroughput: for on-demand tables only; "ngrams" is provisioned, so its writes are ' +
        'capped by its WriteCapacityUnits: raise those instead',
    );
  });

  it('leaves a provisioned table alone when nothing is asked', () => {
    expect(
      warmThroughputToSet(
        'ngrams',
        undefined,
        { keys: [], onDemand: false, warmWriteUnitsPerSecond: 5, indexes: [] },
        true,
      ),
    ).toBe(null);
  });

  it('fails when a raise is needed and the deployment does not allow it, naming the ways on', () => {
    const call = () => warmThroughputToSet('ngrams', 12_000, onDemand(12_000, [index('byYear', 4_000)]), false);
    expect(call).toThrow(InvalidRequestError);
    expect(call).toThrow(
      /may not pre-warm tables .*allowWarmThroughput: true.*--warm-throughput WriteUnitsPerSecond=12000/,
    );
  });

  it('lets a request through that needs no raise, even where pre-warming is not allowed', () => {
    expect(warmThroughputToSet('ngrams', 12_000, onDemand(12_000, [index('byYear', 12_000)]), false)).toBe(null);
  });
});
