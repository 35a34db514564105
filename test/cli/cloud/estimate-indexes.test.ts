import { CreateTableCommand, DeleteTableCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEstimateCommand, runEstimateCommand } from '../../../cli/commands/estimate.js';
import type { StandIn } from '../../e2e/admission/stand-in.js';
import { createBucket, dynamodb, putText, uniqueName } from '../../e2e/harness.js';
import { capture, cloudClients } from '../../support/cloud-clients.js';

/**
 * 40,000 rows of `id\tyear\tregion`, the region set on every other row ("eu") and empty (so left out of the item) on
 * the others: 720,014 bytes, under the 1 MiB sample, so every figure is exact. Each item is tiny: one write unit in
 * the table and in each index that holds it. The table, keyed by id, has two GSIs:
 * - byYear (ALL): every item has a year: 1 unit per item;
 * - byRegion (KEYS_ONLY): half the items have a region (a sparse index): 0.5 units per item.
 */
const ROWS = 40_000;
const tsv = () =>
  `id\tyear\tregion\n${Array.from({ length: ROWS }, (_, i) => `id-${String(i).padStart(7, '0')}\t${1900 + (i % 100)}\t${i % 2 === 0 ? 'eu' : ''}\n`).join('')}`;

let bucket: string;
beforeAll(async () => {
  bucket = await createBucket();
  await putText(bucket, 'imports/regions.tsv', tsv());
});

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((TableName) => dynamodb.send(new DeleteTableCommand({ TableName }))));
});

/** The table above, provisioned (table, byYear, byRegion WCU) or on demand. */
async function tableWithIndexes(wcu: [number, number, number] | 'on-demand'): Promise<string> {
  const table = uniqueName('estimate-gsi');
  const throughput = (units: number) =>
    wcu === 'on-demand' ? {} : { ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: units } };
  const [tableWcu, yearWcu, regionWcu] = wcu === 'on-demand' ? [0, 0, 0] : wcu;
  await dynamodb.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: wcu === 'on-demand' ? 'PAY_PER_REQUEST' : 'PROVISIONED',
      ...throughput(tableWcu),
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: 'id', AttributeType: 'S' },
        { AttributeName: 'year', AttributeType: 'N' },
        { AttributeName: 'region', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byYear',
          KeySchema: [{ AttributeName: 'year', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
          ...throughput(yearWcu),
        },
        {
          IndexName: 'byRegion',
          KeySchema: [{ AttributeName: 'region', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
          ...throughput(regionWcu),
        },
      ],
    }),
  );
  made.push(table);
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: table });
  return table;
}

/** No stand-in: estimate calls only S3 and DynamoDB, both the local engine. */
const clients = () => cloudClients({ endpoint: 'http://127.0.0.1:9' } as StandIn);

async function estimate(table: string, ...more: string[]) {
  const shown = capture();
  const args = [`s3://${bucket}/imports/regions.tsv`, '--table', table, '--types', 'year=N', ...more];
  expect(await runEstimateCommand(parseEstimateCommand(args), clients(), shown.output)).toBe(0);
  return shown.out;
}

const byName = <T extends { name: string }>(list: readonly T[]) =>
  [...list].sort((a, b) => a.name.localeCompare(b.name));

describe('estimate with global secondary indexes', () => {
  it('counts each GSI write on top of the table, binds on the slowest, and warns of a GSI that would throttle', async () => {
    // Provisioned 1,000 WCU, byYear 1,000, byRegion 100. Items/s: the table 1,000 / 1 = 1,000, byYear 1,000 / 1 = 1,000,
    // byRegion 100 / 0.5 = 200: byRegion binds, 40,000 items in 200 s. Without it the import would run at 1,000
    // items/s, so byRegion would need 1,000 x 0.5 = 500 write units/s, over its 100: a warning; byYear needs 1,000: none.
    const table = await tableWithIndexes([1000, 1000, 100]);
    const json = JSON.parse((await estimate(table, '--json')).at(-1)!);

    expect(json).toMatchObject({
      items: ROWS,
      writeUnits: 100_000, // table 40,000 + byYear 40,000 + byRegion 20,000
      tableWriteUnits: 40_000,
      binding: 'index',
      bindingIndex: 'byRegion',
      importSeconds: 200,
      itemsPerSecond: { table: 1000, indexes: { byYear: 1000, byRegion: 200 } },
      warnings: [
        "index byRegion takes at most 100 write units/s (provisioned) but the import would need ~500: it will throttle the table's writes; raise its WriteCapacityUnits",
      ],
    });
    expect(byName(json.sample.indexes)).toEqual([
      { name: 'byRegion', itemsInIndex: ROWS / 2, writeUnitsPerItem: 0.5 },
      { name: 'byYear', itemsInIndex: ROWS, writeUnitsPerItem: 1 },
    ]);
    expect(byName(json.indexes)).toEqual([
      {
        name: 'byRegion',
        writeUnitsPerSecond: 100,
        from: 'provisioned',
        limit: 100,
        writeUnitsPerItem: 0.5,
        writeUnits: 20_000,
        itemsPerSecond: 200,
        neededWriteUnitsPerSecond: 500,
        throttles: true,
      },
      {
        name: 'byYear',
        writeUnitsPerSecond: 1000,
        from: 'provisioned',
        limit: 1000,
        writeUnitsPerItem: 1,
        writeUnits: 40_000,
        itemsPerSecond: 1000,
        neededWriteUnitsPerSecond: 1000,
        throttles: false,
      },
    ]);
  });

  it('prints a line per GSI, the one that binds, and the warning', async () => {
    const lines = await estimate(await tableWithIndexes([1000, 1000, 100]));
    expect(lines).toContain('rows: ~40,000; items: ~40,000; write units: ~100,000 (table ~40,000, indexes ~60,000)');
    expect(lines).toContain(
      "index byRegion: 100 write units/s (provisioned), 0.50 write units per item (20,000 of the sample's items have its key): ~200 items/s",
    );
    expect(lines).toContain('time: ~3m20s; the index byRegion binds first (~200 items/s)');
    expect(lines.at(-1)).toBe(
      "warning: index byRegion takes at most 100 write units/s (provisioned) but the import would need ~500: it will throttle the table's writes; raise its WriteCapacityUnits",
    );
  });

  it('shows that warmThroughput pre-warms the table, not its GSIs: a new on-demand GSI then binds at 4,000/s', async () => {
    // On demand: the table pre-warmed to 12,000; byYear, a new on-demand index, takes 4,000 x 1 unit: 4,000 items/s.
    // On demand without a maximum, no GSI is warned of: it grows with the traffic.
    const json = JSON.parse(
      (await estimate(await tableWithIndexes('on-demand'), '--warm-throughput', '12000', '--json')).at(-1)!,
    );
    expect(json).toMatchObject({
      table: { writeUnitsPerSecond: 12_000, from: 'the requested warmThroughput' },
      binding: 'index',
      bindingIndex: 'byYear',
      importSeconds: 10, // 40,000 / 4,000
      warnings: [],
    });
  });
});
