import { CreateTableCommand, DeleteTableCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { readTableCapacity, withWarmThroughput, type TableCapacity } from '../../../cli/cloud/table/table-capacity.js';
import { dynamodb, uniqueName } from '../../e2e/harness.js';

const made: string[] = [];
const byName = <T extends { name: string }>(list: readonly T[]) =>
  [...list].sort((a, b) => a.name.localeCompare(b.name));
afterAll(async () => {
  await Promise.all(made.map((TableName) => dynamodb.send(new DeleteTableCommand({ TableName }))));
});

/** A table keyed by id with two GSIs (byYear: ALL; byRegion, keyed region + year: INCLUDE note), in the local engine. */
async function tableWithIndexes(provisioned: boolean): Promise<string> {
  const table = uniqueName('capacity');
  const throughput = (wcu: number) =>
    provisioned ? { ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: wcu } } : {};
  await dynamodb.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: provisioned ? 'PROVISIONED' : 'PAY_PER_REQUEST',
      ...throughput(500),
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: ['id', 'year', 'region'].map((name) => ({
        AttributeName: name,
        AttributeType: name === 'year' ? 'N' : 'S',
      })),
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byYear',
          KeySchema: [{ AttributeName: 'year', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
          ...throughput(50),
        },
        {
          IndexName: 'byRegion',
          KeySchema: [
            { AttributeName: 'region', KeyType: 'HASH' },
            { AttributeName: 'year', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['note'] },
          ...throughput(5),
        },
      ],
    }),
  );
  made.push(table);
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: table });
  return table;
}

describe('readTableCapacity (DescribeTable on the local engine)', () => {
  it("reads each GSI's key, projection and provisioned WCU: the most it takes", async () => {
    const capacity = await readTableCapacity(dynamodb, await tableWithIndexes(true));
    expect(capacity).toMatchObject({ billingMode: 'PROVISIONED', writeUnitsPerSecond: 500, limit: 500 });
    // DescribeTable lists the indexes in no promised order.
    expect(byName(capacity.indexes)).toEqual([
      {
        name: 'byRegion',
        keyNames: ['region', 'year'],
        projection: { type: 'INCLUDE', nonKeyAttributes: ['note'] },
        writeUnitsPerSecond: 5,
        from: 'provisioned',
        limit: 5,
      },
      {
        name: 'byYear',
        keyNames: ['year'],
        projection: { type: 'ALL', nonKeyAttributes: [] },
        writeUnitsPerSecond: 50,
        from: 'provisioned',
        limit: 50,
      },
    ]);
  });

  it('takes an on-demand GSI without warm throughput (the engine reports none for an index) as a new one: 4,000/s, no cap', async () => {
    const capacity = await readTableCapacity(dynamodb, await tableWithIndexes(false));
    expect(capacity).toMatchObject({ billingMode: 'PAY_PER_REQUEST', writeUnitsPerSecond: 4000, limit: null });
    expect(
      byName(capacity.indexes).map(({ name, writeUnitsPerSecond, from, limit }) => ({
        name,
        writeUnitsPerSecond,
        from,
        limit,
      })),
    ).toEqual([
      { name: 'byRegion', writeUnitsPerSecond: 4000, from: 'a new on-demand index', limit: null },
      { name: 'byYear', writeUnitsPerSecond: 4000, from: 'a new on-demand index', limit: null },
    ]);
  });
});

describe('withWarmThroughput: the table as an import with warmThroughput meets it', () => {
  const table: TableCapacity = {
    name: 't',
    keys: [],
    billingMode: 'PAY_PER_REQUEST',
    writeUnitsPerSecond: 4000,
    from: 'a new on-demand table',
    limit: null,
    indexes: [],
  };

  it.each<[string, TableCapacity, number | undefined, number, string]>([
    ['raised to the request', table, 12_000, 12_000, 'the requested warmThroughput'],
    ['up to its on-demand maximum', { ...table, limit: 10_000 }, 12_000, 10_000, 'the requested warmThroughput'],
    [
      'never lowered',
      { ...table, writeUnitsPerSecond: 20_000, from: 'warm throughput' },
      12_000,
      20_000,
      'warm throughput',
    ],
    ['unchanged without a request', table, undefined, 4000, 'a new on-demand table'],
    [
      'unchanged when provisioned',
      { ...table, billingMode: 'PROVISIONED', from: 'provisioned' },
      12_000,
      4000,
      'provisioned',
    ],
  ])('%s', (_, before, warmThroughput, writeUnitsPerSecond, from) => {
    expect(withWarmThroughput(before, warmThroughput)).toMatchObject({ writeUnitsPerSecond, from });
  });
});
