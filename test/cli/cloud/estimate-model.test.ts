import { describe, expect, it } from 'vitest';
import { chunkCount, estimateImport, type EstimateInputs } from '../../../cli/cloud/estimate-model.js';
import type { TableCapacity } from '../../../cli/cloud/table-capacity.js';

const onDemand = (writeUnitsPerSecond: number): TableCapacity => ({
  name: 't',
  keys: [],
  billingMode: 'PAY_PER_REQUEST',
  writeUnitsPerSecond,
  from: 'warm throughput',
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
    // 100 KB rows: 10,000 items at 1M/s take 0.01 s, the 10 s scan of 1 GB at 100 MB/s binds
    [
      'few big rows',
      { table: onDemand(1e6), sample: { rows: 10, rowBytes: 1_000_000, rejected: 0, writeUnitsPerItem: 1 } },
      { rows: 10_000, binding: 'preflight', scanSeconds: 10 },
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

  it('cuts chunks as preflight does: chunkMiB, grown so an object has at most 1,000', () => {
    expect(chunkCount(64 * 2 ** 20, 64)).toBe(1);
    expect(chunkCount(64 * 2 ** 20 + 1, 64)).toBe(2);
    expect(chunkCount(5 * 2 ** 40, 64)).toBe(1000); // 5 TiB / 64 MiB = 81,920: grown to 5.24 GB chunks
    expect(chunkCount(0, 64)).toBe(0);
  });
});
