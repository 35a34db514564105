import { describe, expect, it } from 'vitest';
import { chunkCount, estimateImport, type EstimateInputs } from '../../../cli/cloud/estimate/estimate-model.js';
import type { IndexCapacity, TableCapacity } from '../../../cli/cloud/table/table-capacity.js';

const onDemand = (writeUnitsPerSecond: number, indexes: IndexCapacity[] = []): TableCapacity => ({
  name: 't',
  keys: [],
  billingMode: 'PAY_PER_REQUEST',
  writeUnitsPerSecond,
  from: 'warm throughput',
  limit: null,
  indexes,
});
const provisioned = (writeUnitsPerSecond: number, indexes: IndexCapacity[] = []): TableCapacity => ({
  ...onDemand(writeUnitsPerSecond, indexes),
  billingMode: 'PROVISIONED',
  from: 'provisioned',
  limit: writeUnitsPerSecond,
});
/** A GSI keyed by year, all attributes projected, taking `writeUnitsPerSecond` with `limit` as its cap. */
const index = (writeUnitsPerSecond: number, limit: number | null, name = 'byYear'): IndexCapacity => ({
  name,
  keyNames: ['year'],
  projection: { type: 'ALL', nonKeyAttributes: [] },
  writeUnitsPerSecond,
  from: limit === writeUnitsPerSecond ? 'provisioned' : 'warm throughput',
  limit,
});
/** The sample's figures with each GSI's write units per item. */
const withIndexes = (writeUnitsPerItem: number, indexes: Record<string, number>): EstimateInputs['sample'] => ({
  rows: 1000,
  rowBytes: 100_000,
  rejected: 0,
  writeUnitsPerItem,
  indexes: Object.entries(indexes).map(([name, units]) => ({ name, writeUnitsPerItem: units })),
});
const base: EstimateInputs = {
  objectBytes: [1e9],
  headerBytes: 0,
  sample: { rows: 1000, rowBytes: 100_000, rejected: 0, writeUnitsPerItem: 1 },
  table: onDemand(4000),
  chunkMiB: 64,
  lanes: 40,
  maxWriteRate: 0,
};

describe('the estimate model (the cloud picture of docs/limits.md)', () => {
  it.each<[string, Partial<EstimateInputs>, Partial<ReturnType<typeof estimateImport>>]>([
    // 1 GB of 100-byte rows: 10M rows; 1e9 / 64 MiB = 14.9: 15 chunks, 15 lanes = 180,000 items/s; the table's 4,000 binds: 2,500 s
    ['a cold on-demand table', {}, { rows: 10_000_000, chunks: 15, lanes: 15, binding: 'table', importSeconds: 2500 }],
    // warm at 1M write units/s: the lanes' 180,000 items/s bind: 55.6 s
    ['a warm table', { table: onDemand(1_000_000) }, { binding: 'lanes', itemsPerSecond: 180_000 }],
    // 2.5 KB items take 3 write units each: 4,000 / 3 = 1,333 items/s
    [
      'big items',
      { sample: { rows: 1000, rowBytes: 100_000, rejected: 0, writeUnitsPerItem: 3 } },
      { writeUnits: 30_000_000, itemsPerSecond: 4000 / 3 },
    ],
    // a tenth of the sample's rows would be rejected: 9M items are written
    [
      'rejected rows',
      { sample: { rows: 1000, rowBytes: 100_000, rejected: 100, writeUnitsPerItem: 1 } },
      { rows: 10_000_000, items: 9_000_000, writeUnits: 9_000_000 },
    ],
    ['a maxWriteRate', { maxWriteRate: 500 }, { binding: 'max-write-rate', importSeconds: 20_000 }],
    // 100 KB rows: 10,000 items; preflight reads no byte of the 1 GB before the import starts (no scan term)
    [
      'few big rows',
      { table: onDemand(1e6), sample: { rows: 10, rowBytes: 1_000_000, rejected: 0, writeUnitsPerItem: 1 } },
      { rows: 10_000, scanSeconds: 0 },
    ],
    // a header per object: 2 objects of 1,000,100 bytes with a 100-byte header hold 2,000,000 data bytes
    [
      'a folder',
      { objectBytes: [1_000_100, 1_000_100], headerBytes: 100 },
      { dataBytes: 2_000_000, rows: 20_000, chunks: 2 },
    ],
  ])('%s', (_case, inputs, expected) => {
    const estimate = estimateImport({ ...base, ...inputs });
    for (const [field, value] of Object.entries(expected)) {
      if (typeof value === 'number') expect(estimate[field as keyof typeof estimate], field).toBeCloseTo(value, 6);
      else expect(estimate[field as keyof typeof estimate], field).toBe(value);
    }
  });

  it.each<[string, Partial<EstimateInputs>, Record<string, unknown>]>([
    // An ALL-projected GSI every item is in, 1 unit each: 10M table + 10M index = 20M write units, billed on demand;
    // at 4,000/s each they bind alike (the table is named first): 2,500 s, as without the index.
    [
      'a GSI doubles the write units',
      { table: onDemand(4000, [index(4000, null)]), sample: withIndexes(1, { byYear: 1 }) },
      { writeUnits: 20_000_000, tableWriteUnits: 10_000_000, binding: 'table', importSeconds: 2500 },
    ],
    // Table warm at 40,000, the GSI at a new index's 4,000 with 2 units per item (1.2 KB entries): 2,000 items/s bind.
    [
      'the slowest GSI binds',
      { table: onDemand(40_000, [index(4000, null)]), sample: withIndexes(1, { byYear: 2 }) },
      { binding: 'index', bindingIndex: 'byYear', itemsPerSecond: 2000, importSeconds: 5000 },
    ],
    // A sparse GSI (3 items in 10 have its key, 1 unit each): 0.3 units per item, 4,000 / 0.3 = 13,333 items/s.
    [
      'a sparse GSI',
      { table: onDemand(4000, [index(4000, null)]), sample: withIndexes(1, { byYear: 0.3 }) },
      { writeUnits: 13_000_000, binding: 'table' },
    ],
    // Provisioned 1,000 WCU, its GSI 100: 100 items/s bind; the table's and the GSI's WCU are both held for 100,000 s.
    [
      'a provisioned GSI under the table',
      { table: provisioned(1000, [index(100, 100)]), sample: withIndexes(1, { byYear: 1 }) },
      { binding: 'index', importSeconds: 100_000, costDynamodb: 1100 * (100_000 / 3600) * 0.00065 },
    ],
  ])('%s', (_case, inputs, expected) => {
    const estimate = estimateImport({ ...base, ...inputs });
    const actual: Record<string, unknown> = { ...estimate, costDynamodb: estimate.cost.dynamodb };
    for (const [field, value] of Object.entries(expected)) {
      if (typeof value === 'number') expect(actual[field], field).toBeCloseTo(value, 6);
      else expect(actual[field], field).toBe(value);
    }
  });

  it.each<[string, TableCapacity, boolean, number]>([
    // The table and lanes would let 1,000 items/s through; the GSI's 100 WCU cannot take 1,000 x 1 unit.
    ['a provisioned GSI below what the import needs', provisioned(1000, [index(100, 100)]), true, 1000],
    // Enough: 1,000 WCU for 1,000 items/s of 1 unit.
    ['a provisioned GSI that keeps up', provisioned(1000, [index(1000, 1000)]), false, 1000],
    // On demand with a maximum of 500 write units/s, the table taking 4,000 items/s.
    ['an on-demand GSI whose maximum is below the need', onDemand(4000, [index(500, 500)]), true, 4000],
    // On demand without a maximum: it grows with the traffic, so no warning (its warm 500 still sets the time).
    ['an on-demand GSI without a maximum', onDemand(4000, [index(500, null)]), false, 4000],
  ])('warns of %s', (_case, table, throttles, needed) => {
    const [load] = estimateImport({ ...base, table, sample: withIndexes(1, { byYear: 1 }) }).indexes;
    expect(load).toMatchObject({ throttles, neededWriteUnitsPerSecond: needed });
  });

  it('cuts chunks as preflight does: chunkMiB, grown so an object has at most 1,000', () => {
    expect(chunkCount(64 * 2 ** 20, 64)).toBe(1);
    expect(chunkCount(64 * 2 ** 20 + 1, 64)).toBe(2);
    expect(chunkCount(5 * 2 ** 40, 64)).toBe(1000); // 5 TiB / 64 MiB = 81,920: grown to 5.24 GB chunks
    expect(chunkCount(0, 64)).toBe(0);
  });
});
