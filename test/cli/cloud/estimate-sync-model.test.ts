import { describe, expect, it } from 'vitest';
import { estimateSync } from '../../../cli/cloud/estimate/estimate-sync.js';
import { compareSample, type CompareOptions } from '../../../cli/cloud/estimate/sync-compare-sample.js';

const options: CompareOptions = { keys: [{ name: 'id', type: 'S', role: 'HASH' }], consistentRead: false, indexes: [] };
/** An item of about `bytes` bytes: "id" 2 + 2, "v" 1 + the rest. */
const item = (key: string, bytes: number, fill = 'a') => ({ id: { S: key }, v: { S: fill.repeat(bytes - 5) } });

describe('compareSample: sync equality and DynamoDB read and write units, key by key', () => {
  it('rounds each read to 4 KB and prices a changed put by the larger of the two items', () => {
    // k1: 5,000 bytes in the table, 100 in the file (changed): read ceil(5000 / 4096) = 2 steps x 0.5 = 1 unit;
    // put by the larger, ceil(5000 / 1024) = 5 write units. k2: missing (added): 0.5 read, 1 write. k3: equal: 0.5.
    const file = [item('k1', 100), item('k2', 100), item('k3', 100)];
    const table = [item('k1', 5000, 'b'), item('k3', 100)];
    expect(compareSample(file, table, options)).toEqual({
      sampledKeys: 3,
      added: 1,
      changed: 1,
      unchanged: 1,
      readUnits: 2,
      writeUnits: 6,
      putWriteUnits: 7,
      itemsOver4KB: 1,
    });
  });

  it('counts a strongly consistent read as a whole unit per 4 KB', () => {
    const sample = compareSample([item('k1', 9000)], [item('k1', 9000)], { ...options, consistentRead: true });
    expect(sample).toMatchObject({ unchanged: 1, readUnits: 3, writeUnits: 0 });
  });
});

describe('estimateSync: scaled to the file, with the advice when sync costs more than put', () => {
  const sample = (changed: number) => ({
    sampledKeys: 1000,
    added: 0,
    changed,
    unchanged: 1000 - changed,
    readUnits: 500,
    writeUnits: changed,
    putWriteUnits: 1000,
    itemsOver4KB: 0,
  });

  it('stays quiet at 80% changed: 0.5 x $0.125 + 0.8 x $0.625 = $0.5625 per million items, under put $0.625', () => {
    const sync = estimateSync({ sample: sample(800), items: 1e6, consistentRead: false, mirror: null });
    expect(sync).toMatchObject({ readUnits: 500_000, writeUnits: 800_000, putWriteUnits: 1e6, advice: null });
    expect(sync.costUsd.total).toBeCloseTo(0.5625, 9);
  });

  it('advises put at 95% changed: $0.656 against $0.625', () => {
    const sync = estimateSync({ sample: sample(950), items: 1e6, consistentRead: false, mirror: null });
    expect(sync.advice).toBe(
      'sync costs more than put here (~$0.66 against ~$0.63): 95% of the sampled rows are changed or new. ' +
        'Use --mode put, unless unchanged items must not be rewritten (streams, TTL, a mirror)',
    );
  });

  it('clamps a mirror at 0 deletes when the file holds more items than the table', () => {
    const mirror = { tableItems: 500, tableBytes: 50_000, maxDeletePercent: 10, scoped: false };
    const sync = estimateSync({ sample: sample(0), items: 1000, consistentRead: false, mirror });
    // A Scan of 50,000 bytes: ceil(50000 / 4096) = 13 steps, halved: 6.5 read units.
    expect(sync.mirror).toMatchObject({ deletes: 0, deletePercent: 0, scanReadUnits: 6.5, guardWouldRefuse: false });
  });
});
